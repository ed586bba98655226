#include "gpusched/report/controller_explain.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

ControllerPods C(ControllerKind kind, const std::string& ns, const std::string& name) {
  ControllerPods c;
  c.kind = kind;
  c.ns = ns;
  c.name = name;
  return c;
}

TEST(ControllerExplainTest, FindControllersByKubectlSpellings) {
  const std::vector<ControllerPods> cs = {C(ControllerKind::kDeployment, "default", "web"),
                                          C(ControllerKind::kStatefulSet, "default", "web"),
                                          C(ControllerKind::kDeployment, "ml", "llm"),
                                          C(ControllerKind::kDaemonSet, "kube-system", "dp")};
  struct Case {
    const char* want;
    std::vector<size_t> found;
  };
  const Case cases[] = {
      {"web", {0, 1}},          {"deployment/web", {0}}, {"deploy/web", {0}},       {"Deployments/web", {0}},
      {"sts/web", {1}},         {"statefulset/web", {1}}, {"llm", {2}},             {"ml/llm", {2}},
      {"default/llm", {}},      {"deployment/ml/llm", {2}}, {"ds/dp", {3}},     {"daemonset/kube-system/dp", {3}},
      {"rs/web", {}},           {"pod/web", {}},          {"nginx/ml/llm", {}},     {"a/b/c/d", {}},
  };
  for (const Case& c : cases) EXPECT_EQ(FindControllers(cs, c.want), c.found) << c.want;
}

TEST(ControllerExplainTest, DisplayNameOmitsTheDefaultNamespace) {
  EXPECT_EQ(ControllerDisplayName(C(ControllerKind::kJob, "default", "train")), "Job/train");
  EXPECT_EQ(ControllerDisplayName(C(ControllerKind::kCronJob, "ml", "nightly")), "CronJob/ml/nightly");
}

}  // namespace
}  // namespace gpusched
