// src/io/scheduler_config_plugin_args.cc: a plugin's args are read by the
// decoder of its registry row through the loader's ArgsReader. A plugin that
// only a test's registry holds (tests/support/label_gate_plugin.h) reads its
// args with its own decoder: unknown fields are warned about and its own
// checks are errors with their line, as for the in-tree args. The in-tree
// registry knows neither the plugin nor its args.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/sched/plugins/interpodaffinity/inter_pod_affinity.h"
#include "gpusched/sched/plugins/nodeaffinity/node_affinity.h"
#include "gpusched/sched/plugins/registry.h"
#include "../support/label_gate_plugin.h"

namespace gpusched {
namespace {

const std::string kHead = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

TEST(SchedulerConfigPluginArgsTest, ArgsOfAPluginTheRegistryAdds) {
  const std::string head = kHead +
                           "profiles:\n- plugins:\n    multiPoint:\n      enabled: [{name: LabelGate, weight: 5}]\n"
                           "  pluginConfig:\n  - name: LabelGate\n    args:\n";
  const PluginRegistry registry = testing::RegistryWithLabelGate();
  auto load = [&](const std::string& args, std::vector<std::string>& warnings) {
    return LoadSchedulerConfigText(head + args, "c.yaml", &warnings, registry.Catalog());
  };
  std::vector<std::string> warnings;
  Result<KubeSchedulerConfiguration> ok = load("      label: gpu-tier\n      prefer: a100\n      extra: 1\n", warnings);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "c.yaml:12: unknown field \"profiles[0].pluginConfig[0].args.extra\" is ignored "
                          "(kube-scheduler refuses it: strict decoding error: unknown field "
                          "\"profiles[0].pluginConfig[0].args.extra\")"}));
  const ResolvedProfile rp = ResolveProfile(*ok, 0, registry.Catalog());
  const auto* args = PluginArgsOf<testing::LabelGateArgs>(rp, "LabelGate");
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->label, "gpu-tier");
  EXPECT_EQ(args->prefer, "a100");
  EXPECT_EQ(rp.filters.back(), "LabelGate");
  EXPECT_EQ(rp.scores.back().name, "LabelGate");
  EXPECT_EQ(rp.scores.back().weight, 5);

  warnings.clear();
  Result<KubeSchedulerConfiguration> missing = load("      prefer: a100\n", warnings);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "c.yaml:10: cannot decode KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.label: Required "
            "value: the node label LabelGate checks");

  warnings.clear();
  Result<KubeSchedulerConfiguration> in_tree =
      LoadSchedulerConfigText(head + "      label: gpu-tier\n", "c.yaml", &warnings, InTreePlugins());
  ASSERT_FALSE(in_tree.ok());
  EXPECT_EQ(in_tree.status().message(),
            "c.yaml:5: invalid KubeSchedulerConfiguration: initializing profiles: creating profile for scheduler "
            "name default-scheduler: PreFilterPlugin \"LabelGate\" does not exist");
  EXPECT_EQ(warnings, (std::vector<std::string>{
                          "c.yaml:10: profiles[0].pluginConfig[0].args (LabelGate) is accepted and ignored: gpusched "
                          "reads the args of NodeAffinity, NodeResourcesFit, PodTopologySpread, InterPodAffinity, "
                          "NodeResourcesBalancedAllocation and Coscheduling only"}));
}

// InterPodAffinityArgs (v1 types_pluginargs.go): read into the profile,
// defaulted (hardPodAffinityWeight 1) and validated as
// ValidateInterPodAffinityArgs does ([0, 100]).
TEST(SchedulerConfigPluginArgsTest, InterPodAffinityArgs) {
  const std::string head = kHead + "profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n";
  std::vector<std::string> warnings;
  Result<KubeSchedulerConfiguration> ok = LoadSchedulerConfigText(
      head + "      hardPodAffinityWeight: 7\n      ignorePreferredTermsOfExistingPods: true\n", "c.yaml", &warnings,
      InTreePlugins());
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE(warnings.empty());
  const ResolvedProfile rp = ResolveProfile(*ok, 0);
  const auto* args = PluginArgsOf<InterPodAffinityArgs>(rp, "InterPodAffinity");
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->hard_pod_affinity_weight, 7);
  EXPECT_TRUE(args->ignore_preferred_terms_of_existing_pods);

  Result<KubeSchedulerConfiguration> bad =
      LoadSchedulerConfigText(head + "      hardPodAffinityWeight: 101\n", "c.yaml", &warnings, InTreePlugins());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: "
                                        "not in valid range [0-100]"),
            std::string::npos)
      << bad.status().message();
}

// NodeAffinityArgs (v1 types_pluginargs.go): addedAffinity read into the
// profile, validated as ValidateNodeAffinityArgs does (every term must parse,
// errors at upstream's paths under the args, on their requirement's line), and the
// profile's NodeAffinity filters and scores with it.
TEST(SchedulerConfigPluginArgsTest, NodeAffinityArgs) {
  const std::string head = kHead + "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n";
  std::vector<std::string> warnings;
  Result<KubeSchedulerConfiguration> ok = LoadSchedulerConfigText(
      head +
          "      addedAffinity:\n"
          "        requiredDuringSchedulingIgnoredDuringExecution:\n"
          "          nodeSelectorTerms:\n"
          "          - matchExpressions:\n"
          "            - {key: pool, operator: In, values: [gpu]}\n"
          "        preferredDuringSchedulingIgnoredDuringExecution:\n"
          "        - weight: 5\n"
          "          preference:\n"
          "            matchExpressions:\n"
          "            - {key: nvidia.com/gpu.product, operator: In, values: [A100]}\n",
      "c.yaml", &warnings, InTreePlugins());
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE(warnings.empty());
  const ResolvedProfile rp = ResolveProfile(*ok, 0);
  const auto* args = PluginArgsOf<NodeAffinityArgs>(rp, "NodeAffinity");
  ASSERT_NE(args, nullptr);
  ASSERT_TRUE(args->added_affinity.has_value());
  EXPECT_EQ(args->added_affinity->required.size(), 1u);
  EXPECT_EQ(args->added_affinity->preferred.size(), 1u);

  std::unique_ptr<FilterPlugin> filter = PluginRegistry::InTree().NewFilter("NodeAffinity", rp);
  ASSERT_NE(filter, nullptr);
  Pod pod;
  pod.meta.name = "p";
  const PodInfo info = PodInfo::Make(pod, 0);
  Node cpu, a100, t4;
  cpu.meta.name = "cpu";
  a100.meta.name = "a100";
  a100.meta.labels = {{"pool", "gpu"}, {"nvidia.com/gpu.product", "A100"}};
  t4.meta.name = "t4";
  t4.meta.labels = {{"pool", "gpu"}, {"nvidia.com/gpu.product", "T4"}};
  const SchedStatus s = filter->Filter(info, cpu, NodeState{});
  EXPECT_EQ(s.code(), SchedStatus::Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons(), std::vector<std::string>{"node(s) didn't match scheduler-enforced node affinity"});
  EXPECT_TRUE(filter->Filter(info, a100, NodeState{}).IsSuccess());
  std::unique_ptr<ScorePlugin> score = PluginRegistry::InTree().NewScore("NodeAffinity", rp);
  ASSERT_NE(score, nullptr);
  const ClusterState cluster(std::vector<Node>{a100, t4});
  EXPECT_TRUE(score->PreScore(info, cluster));
  EXPECT_EQ(score->Score(info, a100, NodeState{}), 5);
  EXPECT_EQ(score->Score(info, t4, NodeState{}), 0);

  warnings.clear();
  Result<KubeSchedulerConfiguration> bad = LoadSchedulerConfigText(
      head +
          "      addedAffinity:\n"
          "        requiredDuringSchedulingIgnoredDuringExecution:\n"
          "          nodeSelectorTerms:\n"
          "          - matchFields:\n"
          "            - {key: metadata.name, operator: In, values: [a, b]}\n",
      "c.yaml", &warnings, InTreePlugins());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "c.yaml:11: cannot decode KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.addedAffinity."
            "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: Invalid "
            "value: []string{\"a\", \"b\"}: must have one element");

  // A preferred term's errors have no ".preference" in their path
  // (NewPreferredSchedulingTerms indexes the list) and name its requirement's line.
  Result<KubeSchedulerConfiguration> bad_preferred = LoadSchedulerConfigText(
      head +
          "      addedAffinity:\n"
          "        preferredDuringSchedulingIgnoredDuringExecution:\n"
          "        - weight: 5\n"
          "          preference:\n"
          "            matchExpressions:\n"
          "            - {key: gpu, operator: Exists}\n"
          "            - {key: gpu-mem, operator: Lt, values: [lots]}\n",
      "c.yaml", &warnings, InTreePlugins());
  ASSERT_FALSE(bad_preferred.ok());
  EXPECT_EQ(bad_preferred.status().message(),
            "c.yaml:13: cannot decode KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.addedAffinity."
            "preferredDuringSchedulingIgnoredDuringExecution[0].matchExpressions[1].values[0]: Invalid value: "
            "\"lots\": for 'Gt', 'Lt' operators, the value must be an integer");
}

}  // namespace
}  // namespace gpusched
