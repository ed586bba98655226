// Pod affinity terms in the model: validation as pkg/apis/core/validation
// validatePodAffinityTerm and validateMatchLabelKeysAndMismatchLabelKeys
// report it (messages and paths, upstream's "namespace" and "[i][j]" quirks
// included), the API server's matchLabelKeys merge (pod strategy
// mutatePodAffinity) and term matching (AffinityTerm.Matches).
#include "gpusched/model/pod_affinity.h"

#include <gtest/gtest.h>

#include <memory>

#include "gpusched/model/pod.h"

namespace gpusched {
namespace {

PodAffinityTerm InTerm(const std::string& key, std::vector<std::string> values, const std::string& topology) {
  PodAffinityTerm t;
  t.label_selector = LabelSelector{{}, {{key, "In", std::move(values)}}};
  t.topology_key = topology;
  return t;
}

std::vector<std::string> Errors(const PodAffinitySpec& s) {
  std::vector<FieldError> errs;
  ValidatePodAffinity(s, "spec.affinity", errs);
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(PodAffinityValidationTest, MessagesAndPaths) {
  const std::string req = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
  const std::string pref = "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";
  {
    PodAffinitySpec s;
    s.affinity = PodAffinityRules{{InTerm("app", {"web"}, "kubernetes.io/hostname")}, {}};
    EXPECT_EQ(Errors(s), std::vector<std::string>{});
  }
  {
    PodAffinitySpec s;
    s.anti_affinity = PodAffinityRules{{}, {{0, InTerm("app", {"web"}, "zone")}}};
    EXPECT_EQ(Errors(s), std::vector<std::string>{pref + ".weight: Invalid value: 0: must be in the range 1-100"});
  }
  {
    PodAffinitySpec s;
    PodAffinityTerm t = InTerm("app", {"web"}, "");
    t.namespaces = {"Bad_NS"};
    s.affinity = PodAffinityRules{{t}, {}};
    const std::vector<std::string> errs = Errors(s);
    ASSERT_GE(errs.size(), 2u);
    EXPECT_EQ(errs[0], req + ".namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of "
                             "lower case alphanumeric characters or '-', and must start and end with an alphanumeric "
                             "character (e.g. 'my-name',  or '123-abc', regex used for validation is "
                             "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    EXPECT_EQ(errs[1], req + ".topologyKey: Required value: can not be empty");
  }
  {
    PodAffinitySpec s;
    PodAffinityTerm t;
    t.topology_key = "zone";
    t.match_label_keys = {"app"};
    s.affinity = PodAffinityRules{{t}, {}};
    EXPECT_EQ(Errors(s), std::vector<std::string>{req + ".matchLabelKeys: Forbidden: must not be specified when "
                                                        "labelSelector is not set"});
  }
  {
    PodAffinitySpec s;
    PodAffinityTerm t = InTerm("tier", {"gpu"}, "zone");
    t.match_label_keys = {"app"};
    t.mismatch_label_keys = {"app"};
    s.affinity = PodAffinityRules{{t}, {}};
    EXPECT_EQ(Errors(s), std::vector<std::string>{req + ".matchLabelKeys[0]: Invalid value: \"app\": exists in both "
                                                        "matchLabelKeys and mismatchLabelKeys"});
  }
}

TEST(PodAffinityTest, MergeAffinityLabelKeysAsTheApiServer) {
  Pod p;
  p.meta.labels = {{"app", "web"}, {"pod-template-hash", "abc"}};
  PodAffinitySpec s;
  PodAffinityTerm t = InTerm("app", {"web"}, "kubernetes.io/hostname");
  t.match_label_keys = {"pod-template-hash", "missing"};
  t.mismatch_label_keys = {"app"};
  s.anti_affinity = PodAffinityRules{{t}, {}};
  auto shared = std::make_shared<const PodAffinitySpec>(s);
  p.pod_affinity = shared;
  MergeAffinityLabelKeys(p);
  const LabelSelector& sel = *p.pod_affinity->RequiredAntiAffinity()[0].label_selector;
  ASSERT_EQ(sel.match_expressions.size(), 3u);
  EXPECT_EQ(sel.match_expressions[1].key, "pod-template-hash");
  EXPECT_EQ(sel.match_expressions[1].op, "In");
  EXPECT_EQ(sel.match_expressions[1].values, std::vector<std::string>{"abc"});
  EXPECT_EQ(sel.match_expressions[2].op, "NotIn");
  EXPECT_EQ(sel.match_expressions[2].values, std::vector<std::string>{"web"});
  // Copy on write: the template's spec is untouched.
  EXPECT_EQ(shared->RequiredAntiAffinity()[0].label_selector->match_expressions.size(), 1u);

  // A key the selector names already: after the merge the selector names it
  // twice, which validation refuses at upstream's path (the term's, indexed).
  Pod q;
  q.meta.labels = {{"app", "web"}};
  PodAffinitySpec s2;
  PodAffinityTerm t2 = InTerm("app", {"web"}, "zone");
  t2.match_label_keys = {"app"};
  s2.affinity = PodAffinityRules{{t2}, {}};
  q.pod_affinity = std::make_shared<const PodAffinitySpec>(s2);
  MergeAffinityLabelKeys(q);
  EXPECT_EQ(Errors(*q.pod_affinity),
            std::vector<std::string>{"spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: "
                                     "Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"});
}

TEST(PodAffinityTest, TermMatchesNamespacesAndSelectors) {
  Pod owner, target;
  owner.meta.namespace_ = "a";
  target.meta.namespace_ = "b";
  target.meta.labels = {{"app", "web"}};
  PodAffinityTerm t = InTerm("app", {"web"}, "zone");
  EXPECT_FALSE(PodAffinityTermMatches(t, owner, target, nullptr));  // the owner's namespace only
  t.namespaces = {"b"};
  EXPECT_TRUE(PodAffinityTermMatches(t, owner, target, nullptr));
  t.namespaces.clear();
  t.namespace_selector = LabelSelector{};  // every namespace
  EXPECT_TRUE(PodAffinityTermMatches(t, owner, target, nullptr));
  t.namespace_selector = LabelSelector{{{"team", "x"}}, {}};
  const LabelMap team_x = {{"team", "x"}};
  EXPECT_FALSE(PodAffinityTermMatches(t, owner, target, nullptr));
  EXPECT_TRUE(PodAffinityTermMatches(t, owner, target, &team_x));
  t.label_selector.reset();  // a nil selector matches no pod
  EXPECT_FALSE(PodAffinityTermMatches(t, owner, target, &team_x));
}

}  // namespace
}  // namespace gpusched
