#include "gpusched/cli/pod_lookup.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

Pod Named(const std::string& ns, const std::string& name) {
  Pod p;
  p.meta.namespace_ = ns;
  p.meta.name = name;
  return p;
}

TEST(PodLookupTest, FindsByNameNamespaceOrRefuses) {
  const std::vector<Pod> pods = {Named("default", "web"), Named("ml", "web"), Named("ml", "trainer")};
  std::vector<const Pod*> ptrs;
  for (const auto& p : pods) ptrs.push_back(&p);
  const std::vector<InputError> rejected = {{"Pod/ml/broken", "f.yaml", 3, "The Pod \"broken\" is invalid"}};
  using K = ExplainTarget::Kind;
  struct Case {
    const char* name;
    PodQuery query;
    K kind;
    std::vector<size_t> pods;
    std::string error;
  } cases[] = {
      {"unique name", {"trainer", ""}, K::kPod, {2}, ""},
      {"namespace/name", {"ml/web", ""}, K::kPod, {1}, ""},
      {"-n", {"web", "default"}, K::kPod, {0}, ""},
      {"same namespace both ways", {"ml/web", "ml"}, K::kPod, {1}, ""},
      {"several namespaces", {"web", ""}, K::kAmbiguous, {},
       "error: pod \"web\" is in 2 namespaces: default/web, ml/web; name one with -n NAMESPACE or as NAMESPACE/web"},
      {"rejected", {"broken", ""}, K::kRejected, {}, ""},
      {"rejected in its namespace", {"broken", "ml"}, K::kRejected, {}, ""},
      {"rejected, other namespace", {"broken", "default"}, K::kNotFound, {},
       "error: pod \"default/broken\" is not in the input"},
      {"missing", {"nobody", ""}, K::kNotFound, {}, "error: pod \"nobody\" is not in the input"},
      // A name near the input's: "did you mean", each name once, in its namespace when it names one.
      {"one letter off", {"trainr", ""}, K::kNotFound, {},
       "error: pod \"trainr\" is not in the input (did you mean trainer?)"},
      {"near a name in two namespaces", {"we", ""}, K::kNotFound, {},
       "error: pod \"we\" is not in the input (did you mean web?)"},
      {"near, as namespace/name", {"ml/wbe", ""}, K::kNotFound, {},
       "error: pod \"ml/wbe\" is not in the input (did you mean ml/web?)"},
      {"near, with -n", {"wbe", "ml"}, K::kNotFound, {}, "error: pod \"ml/wbe\" is not in the input (did you mean web?)"},
      {"near only in another namespace", {"trainr", "default"}, K::kNotFound, {},
       "error: pod \"default/trainr\" is not in the input"},
      {"elsewhere", {"trainer", "default"}, K::kNotFound, {},
       "error: pod \"default/trainer\" is not in the input (pods of that name: ml/trainer)"},
      {"contradiction", {"ml/web", "default"}, K::kInvalid, {},
       "error: \"ml/web\" names namespace \"ml\" but -n gives \"default\""},
      {"empty namespace", {"/web", ""}, K::kInvalid, {}, "error: \"/web\" is not a pod name or namespace/name"},
      {"two slashes", {"a/b/c", ""}, K::kInvalid, {}, "error: \"a/b/c\" is not a pod name or namespace/name"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ExplainTarget t = FindExplainTarget(c.query, ptrs, rejected);
    EXPECT_EQ(t.kind, c.kind);
    EXPECT_EQ(t.pods, c.pods);
    EXPECT_EQ(t.error, c.error);
    EXPECT_EQ(t.rejected != nullptr, c.kind == K::kRejected);
  }
  ExplainTarget amb = FindExplainTarget({"web", ""}, ptrs, rejected);
  EXPECT_EQ(amb.candidates, (std::vector<std::string>{"default/web", "ml/web"}));
}

}  // namespace
}  // namespace gpusched
