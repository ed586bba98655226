#include "gpusched/controllers/template_key.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(TemplateKeyTest, IgnoresOnlyThePodTemplateHash) {
  Pod a;
  a.meta.labels = {{"app", "web"}, {"pod-template-hash", "x"}};
  a.containers.push_back(Container{"c", "img:1", {}, {}, ""});
  Pod b = a;
  b.meta.labels["pod-template-hash"] = "y";
  EXPECT_EQ(TemplateKey(a), TemplateKey(b));
  b.containers[0].image = "img:2";
  EXPECT_NE(TemplateKey(a), TemplateKey(b));
  Pod c = a;
  c.meta.annotations["kubectl.kubernetes.io/restartedAt"] = "2025-06-01T00:00:00Z";
  EXPECT_NE(TemplateKey(a), TemplateKey(c));
}

TEST(TemplateKeyTest, SchedulingFieldsCount) {
  Pod a;
  a.containers.push_back(Container{"c", "img:1", {}, {}, ""});
  Pod b = a;
  b.node_selector["pool"] = "a";
  EXPECT_NE(TemplateKey(a), TemplateKey(b));
  Pod c = a;
  c.tolerations.push_back(Toleration{"k", "Exists", "", ""});
  EXPECT_NE(TemplateKey(a), TemplateKey(c));
  Pod d = a;
  d.priority_class_name = "high";
  EXPECT_NE(TemplateKey(a), TemplateKey(d));
  // Lengths are part of the text: "ab"+"c" is not "a"+"bc".
  Pod e = a, f = a;
  e.meta.labels = {{"ab", "c"}};
  f.meta.labels = {{"a", "bc"}};
  EXPECT_NE(TemplateKey(e), TemplateKey(f));
}

}  // namespace
}  // namespace gpusched
