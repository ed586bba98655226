// src/io/scheduler_config_loader.cc: decoding, defaulting, validation and the
// framework check of a KubeSchedulerConfiguration file, with exact messages
// and lines. The validation messages are upstream's (see
// tests/config/validation_test.cc); the decoding ones follow
// k8s.io/apimachinery's serializer and scheme for kind/version
// ("no kind %q is registered for version %q in scheme %q", "Object 'Kind'
// is missing") and cmd/kube-scheduler/app/options/configfile.go ("couldn't
// decode as KubeSchedulerConfiguration, got %s").
#include "gpusched/io/scheduler_config_loader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/sched/plugins/registry.h"

namespace gpusched {
namespace {

struct Loaded {
  Result<KubeSchedulerConfiguration> result;
  std::vector<std::string> warnings;
};

Loaded Load(const std::string& text, const std::string& file = "c.yaml") {
  std::vector<std::string> warnings;
  Result<KubeSchedulerConfiguration> r = LoadSchedulerConfigText(text, file, &warnings, InTreePlugins());
  return Loaded{std::move(r), std::move(warnings)};
}

std::string Message(const Loaded& l) { return l.result.ok() ? "OK" : l.result.status().message(); }

const std::string kHead = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
const char* kScheme = "\"pkg/scheduler/apis/config/scheme/scheme.go:30\"";

TEST(SchedulerConfigLoaderTest, Errors) {
  struct Case {
    const char* name;
    std::string text;
    std::string want;
  };
  // gpusched's words after kube-scheduler's: what to write instead.
  const std::string kWriteV1 = "; write apiVersion: kubescheduler.config.k8s.io/v1, the only version kube-scheduler v1.35 reads";
  const std::string kManifestsGoWithF =
      "; --config takes a KubeSchedulerConfiguration (apiVersion: kubescheduler.config.k8s.io/v1), and manifests go "
      "with -f";
  const std::vector<Case> cases = {
      {"wrong apiVersion",
       "kind: KubeSchedulerConfiguration\napiVersion: kubescheduler.config.k8s.io/v1beta3\n",
       std::string("c.yaml:2: no kind \"KubeSchedulerConfiguration\" is registered for version "
                   "\"kubescheduler.config.k8s.io/v1beta3\" in scheme ") +
           kScheme + kWriteV1},
      {"wrong kind", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n",
       std::string("c.yaml:2: no kind \"Pod\" is registered for version \"kubescheduler.config.k8s.io/v1\" in "
                   "scheme ") +
           kScheme + kManifestsGoWithF},
      {"core apiVersion", "apiVersion: v1\nkind: KubeSchedulerConfiguration\n",
       std::string("c.yaml:1: no kind \"KubeSchedulerConfiguration\" is registered for version \"v1\" in scheme ") +
           kScheme + kWriteV1},
      {"args kind at the top", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: NodeResourcesFitArgs\n",
       "c.yaml:2: couldn't decode as KubeSchedulerConfiguration, got kubescheduler.config.k8s.io/v1, "
       "Kind=NodeResourcesFitArgs"},
      {"no kind", "apiVersion: kubescheduler.config.k8s.io/v1\nprofiles: []\n", "c.yaml:1: Object 'Kind' is missing"},
      {"no apiVersion", "# a comment\nkind: KubeSchedulerConfiguration\n",
       "c.yaml:2: Object 'apiVersion' is missing"},
      {"empty", "", "c.yaml:1: Object 'Kind' is missing (the file is empty)"},
      {"only comments", "# nothing\n\n", "c.yaml:1: Object 'Kind' is missing (the file is empty)"},
      {"not a map", "- a\n- b\n",
       "c.yaml:1: expected a KubeSchedulerConfiguration (a map with apiVersion and kind), got a list"},
      {"kind is a list", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: [a]\n",
       "c.yaml:2: kind: expected a string, got a list"},
      {"yaml syntax", kHead + "profiles:\n- schedulerName: a\n  plugins: {score: [}\n",
       "c.yaml:5: cannot parse YAML at line 5, column 21: did not find expected node content"},
      // kube-scheduler decodes strictly: a key given twice is an error.
      {"duplicate key", kHead + "percentageOfNodesToScore: 10\npercentageOfNodesToScore: 20\n",
       "c.yaml:4: cannot decode KubeSchedulerConfiguration: strict decoding error: duplicate field "
       "\"percentageOfNodesToScore\" (lines 3 and 4)"},
      {"not an integer", kHead + "percentageOfNodesToScore: abc\n",
       "c.yaml:3: cannot decode KubeSchedulerConfiguration: percentageOfNodesToScore: expected an integer, got \"abc\""},
      {"int32 overflow", kHead + "profiles:\n- percentageOfNodesToScore: 4294967296\n",
       "c.yaml:4: cannot decode KubeSchedulerConfiguration: profiles[0].percentageOfNodesToScore: value 4294967296 "
       "is out of range for int32"},
      {"profiles is a scalar", kHead + "profiles: default\n",
       "c.yaml:3: cannot decode KubeSchedulerConfiguration: profiles: expected a list, got a scalar"},
      {"profile is a scalar", kHead + "profiles:\n- default\n",
       "c.yaml:4: cannot decode KubeSchedulerConfiguration: profiles[0]: expected an object, got a scalar"},
      {"several decode errors", kHead + "podMaxBackoffSeconds: x\nprofiles:\n- plugins:\n    score: [a]\n",
       "c.yaml:3: cannot decode KubeSchedulerConfiguration: podMaxBackoffSeconds: expected an integer, got \"x\"; "
       "profiles[0].plugins.score: expected an object, got a list"},
      {"plugin list item", kHead + "profiles:\n- plugins:\n    filter:\n      enabled: [NodePorts]\n",
       "c.yaml:6: cannot decode KubeSchedulerConfiguration: profiles[0].plugins.filter.enabled[0]: expected an "
       "object, got a scalar"},
      {"args of another kind",
       kHead +
           "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      kind: InterPodAffinityArgs\n",
       "c.yaml:7: cannot decode KubeSchedulerConfiguration: profiles[0].pluginConfig[0]: args for plugin "
       "NodeResourcesFit were not of type NodeResourcesFitArgs.kubescheduler.config.k8s.io, got "
       "InterPodAffinityArgs.kubescheduler.config.k8s.io"},
      {"args of another version",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      apiVersion: "
               "kubescheduler.config.k8s.io/v1beta3\n",
       std::string("c.yaml:7: cannot decode KubeSchedulerConfiguration: "
                   "profiles[0].pluginConfig[0].args.apiVersion: no kind \"NodeResourcesFitArgs\" is registered for "
                   "version \"kubescheduler.config.k8s.io/v1beta3\" in scheme ") +
           kScheme},
      {"args is a list", kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: [1]\n",
       "c.yaml:6: cannot decode KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args: expected an object, "
       "got a list"},
      // Validation.
      {"resource weight out of range",
       kHead +
           "profiles:\n"
           "- pluginConfig:\n"
           "  - name: NodeResourcesFit\n"
           "    args:\n"
           "      scoringStrategy:\n"
           "        type: MostAllocated\n"
           "        resources:\n"
           "        - name: cpu\n"
           "          weight: 101\n",
       "c.yaml:11: invalid KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 101: resource weight "
       "of cpu not in valid range (0, 100]"},
      {"negative resource weight",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        type: LeastAllocated\n        resources: [{name: memory, weight: 1}, {name: nvidia.com/gpu, "
               "weight: -2}]\n",
       "c.yaml:9: invalid KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.scoringStrategy.resources[1].weight: Invalid value: -2: resource weight of "
       "nvidia.com/gpu not in valid range (0, 100]"},
      {"several validation errors",
       kHead + "percentageOfNodesToScore: 101\npodInitialBackoffSeconds: 0\nprofiles:\n- schedulerName: a\n"
               "- schedulerName: a\n  percentageOfNodesToScore: -5\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: [profiles[1].percentageOfNodesToScore: Invalid value: -5: not "
       "in valid range [0-100], profiles[1].schedulerName: Duplicate value: {}, percentageOfNodesToScore: Invalid "
       "value: 101: not in valid range [0-100], podInitialBackoffSeconds: Invalid value: 0: must be greater than 0]"},
      {"two profiles without names", kHead + "profiles:\n- percentageOfNodesToScore: 10\n- {}\n",
       "c.yaml:4: invalid KubeSchedulerConfiguration: [profiles[0].schedulerName: Required value, "
       "profiles[1].schedulerName: Required value, profiles[1].schedulerName: Duplicate value: {}]"},
      {"explicit empty name of the only profile", kHead + "profiles:\n- schedulerName: \"\"\n",
       "c.yaml:4: invalid KubeSchedulerConfiguration: profiles[0].schedulerName: Required value"},
      {"backoff max below initial", kHead + "podInitialBackoffSeconds: 20\n",
       "c.yaml:1: invalid KubeSchedulerConfiguration: podMaxBackoffSeconds: Invalid value: 10: must be greater "
       "than or equal to PodInitialBackoffSeconds"},
      {"parallelism", kHead + "parallelism: 0\n",
       "c.yaml:3: invalid KubeSchedulerConfiguration: parallelism: Invalid value: 0: should be an integer value "
       "greater than zero"},
      {"queue sort differs",
       kHead + "profiles:\n- schedulerName: a\n- schedulerName: b\n  plugins:\n    queueSort:\n"
               "      enabled: [{name: PrioritySort}]\n      disabled: [{name: \"*\"}]\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: profiles[1].plugins.queueSort: Invalid value: "
       "{\"Enabled\":[{\"Name\":\"PrioritySort\",\"Weight\":0}],\"Disabled\":[{\"Name\":\"*\",\"Weight\":0}]}: must "
       "be the same for all profiles"},
      {"shape not increasing",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n"
               "          - {utilization: 50, score: 5}\n          - {utilization: 50, score: 11}\n",
       "c.yaml:12: invalid KubeSchedulerConfiguration: "
       "[profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid "
       "value: 50: values must be sorted in increasing order, "
       "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[1].score: Invalid value: "
       "11: not in valid range [0, 10]]"},
      {"no shape",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio: {}\n",
       "c.yaml:9: invalid KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape: Required value: at least "
       "one point must be specified"},
      {"RequestedToCapacityRatio without its parameters",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        type: RequestedToCapacityRatio\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio: Required value: must be "
       "specified when type is RequestedToCapacityRatio"},
      {"shape for MostAllocated",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        type: MostAllocated\n        requestedToCapacityRatio:\n          shape: [{utilization: 0, "
               "score: 0}]\n",
       "c.yaml:10: invalid KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when "
       "type is not RequestedToCapacityRatio"},
      {"unsupported scoring type",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        type: mostAllocated\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy.type: "
       "Unsupported value: \"mostAllocated\": supported values: \"LeastAllocated\", \"MostAllocated\", "
       "\"RequestedToCapacityRatio\""},
      {"scoring strategy without a type",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
               "        resources: [{name: cpu, weight: 2}]\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.scoringStrategy.type: "
       "Unsupported value: \"\": supported values: \"LeastAllocated\", \"MostAllocated\", "
       "\"RequestedToCapacityRatio\""},
      {"ignored resource group with a slash",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      ignoredResourceGroups:\n"
               "      - example.com/gpu\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.ignoredResourceGroups[0]: "
       "Invalid value: \"example.com/gpu\": resource group name can't contain '/'"},
      {"balanced weight",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args:\n      resources:\n"
               "      - name: cpu\n      - name: nvidia.com/gpu\n        weight: 3\n",
       "c.yaml:10: invalid KubeSchedulerConfiguration: profiles[0].pluginConfig[0].args.resources[1].weight: "
       "Invalid value: 3: must be 1"},
      {"duplicate plugin config",
       kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n  - name: NodeResourcesFit\n",
       "c.yaml:6: invalid KubeSchedulerConfiguration: profiles[0].pluginConfig[1]: Duplicate value: "
       "\"NodeResourcesFit\""},
      {"removed plugin",
       kHead + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: NodePorts\n      - name: EBSLimits\n",
       "c.yaml:8: invalid KubeSchedulerConfiguration: profiles[0].plugins.filter.enabled[1]: Invalid value: "
       "\"EBSLimits\": was invalid in version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is "
       "version \"kubescheduler.config.k8s.io/v1\")"},
      // The framework.
      {"unknown plugin", kHead + "profiles:\n- schedulerName: gpu\n  plugins:\n    filter:\n      enabled: [{name: Foo}]\n",
       "c.yaml:6: invalid KubeSchedulerConfiguration: initializing profiles: creating profile for scheduler name "
       "gpu: FilterPlugin \"Foo\" does not exist"},
      {"plugin at the wrong extension point",
       kHead + "profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeName, weight: 2}]\n",
       "c.yaml:5: invalid KubeSchedulerConfiguration: initializing profiles: creating profile for scheduler name "
       "default-scheduler: plugin \"NodeName\" does not extend ScorePlugin plugin"},
      {"no bind plugin", kHead + "profiles:\n- plugins:\n    multiPoint:\n      disabled: [{name: DefaultBinder}]\n",
       "c.yaml:5: invalid KubeSchedulerConfiguration: initializing profiles: creating profile for scheduler name "
       "default-scheduler: at least one bind plugin is needed for profile with scheduler name "
       "\"default-scheduler\""},
  };
  for (const auto& c : cases) {
    Loaded l = Load(c.text);
    EXPECT_EQ(Message(l), c.want) << c.name;
    EXPECT_FALSE(l.result.ok()) << c.name;
  }
}

TEST(SchedulerConfigLoaderTest, StatusCodes) {
  EXPECT_EQ(Load("a: [").result.status().code(), Status::Code::kParseError);
  EXPECT_EQ(Load(kHead + "parallelism: 0\n").result.status().code(), Status::Code::kInvalidArgument);
}

TEST(SchedulerConfigLoaderTest, MinimalFileIsTheDefault) {
  Loaded l = Load(kHead);
  ASSERT_TRUE(l.result.ok()) << Message(l);
  EXPECT_TRUE(l.warnings.empty());
  const KubeSchedulerConfiguration& c = *l.result;
  KubeSchedulerConfiguration d = DefaultSchedulerConfiguration();
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  ResolvedProfile a = ResolveProfile(c, 0);
  ResolvedProfile b = ResolveProfile(d, 0);
  EXPECT_EQ(a.filters, b.filters);
  ASSERT_EQ(a.scores.size(), b.scores.size());
  for (size_t i = 0; i < a.scores.size(); ++i) {
    EXPECT_EQ(a.scores[i].name, b.scores[i].name);
    EXPECT_EQ(a.scores[i].weight, b.scores[i].weight);
  }
  EXPECT_EQ(c.pod_initial_backoff_seconds, 1);
  EXPECT_EQ(c.pod_max_backoff_seconds, 10);
  EXPECT_EQ(c.percentage_of_nodes_to_score, 0);
}

TEST(SchedulerConfigLoaderTest, ReadsFields) {
  Loaded l = Load(kHead +
                  "percentageOfNodesToScore: 40\n"
                  "podInitialBackoffSeconds: 2\n"
                  "podMaxBackoffSeconds: 20\n"
                  "profiles:\n"
                  "- schedulerName: gpu\n"
                  "  percentageOfNodesToScore: 100\n"
                  "  plugins:\n"
                  "    score:\n"
                  "      enabled:\n"
                  "      - name: NodeResourcesFit\n"
                  "        weight: 4\n"
                  "      disabled:\n"
                  "      - name: ImageLocality\n"
                  "    filter:\n"
                  "      disabled: [{name: NodePorts}]\n"
                  "  pluginConfig:\n"
                  "  - name: NodeResourcesFit\n"
                  "    args:\n"
                  "      ignoredResources: [example.com/foo]\n"
                  "      ignoredResourceGroups: [example.org]\n"
                  "      scoringStrategy:\n"
                  "        type: RequestedToCapacityRatio\n"
                  "        resources:\n"
                  "        - name: nvidia.com/gpu\n"
                  "          weight: 3\n"
                  "        - name: cpu\n"   // weight 0 -> 1
                  "        requestedToCapacityRatio:\n"
                  "          shape:\n"
                  "          - {utilization: 0, score: 10}\n"
                  "          - {utilization: 100, score: 0}\n"
                  "  - name: NodeResourcesBalancedAllocation\n"
                  "    args:\n"
                  "      resources: [{name: nvidia.com/gpu}, {name: cpu, weight: 1}]\n");
  ASSERT_TRUE(l.result.ok()) << Message(l);
  EXPECT_TRUE(l.warnings.empty());
  const KubeSchedulerConfiguration& c = *l.result;
  EXPECT_EQ(c.percentage_of_nodes_to_score, 40);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 2);
  EXPECT_EQ(c.pod_max_backoff_seconds, 20);
  ASSERT_EQ(c.profiles.size(), 1u);
  const SchedulerProfile& p = c.profiles[0];
  EXPECT_EQ(p.scheduler_name, "gpu");
  EXPECT_EQ(p.percentage_of_nodes_to_score, 100);
  EXPECT_EQ(p.fit_args.ignored_resources, std::vector<std::string>{"example.com/foo"});
  EXPECT_EQ(p.fit_args.ignored_resource_groups, std::vector<std::string>{"example.org"});
  EXPECT_EQ(p.fit_args.type, ScoringStrategyType::kRequestedToCapacityRatio);
  ASSERT_EQ(p.fit_args.resources.size(), 2u);
  EXPECT_EQ(p.fit_args.resources[0].name, "nvidia.com/gpu");
  EXPECT_EQ(p.fit_args.resources[0].weight, 3);
  EXPECT_EQ(p.fit_args.resources[1].weight, 1);
  ASSERT_EQ(p.fit_args.shape.size(), 2u);
  EXPECT_EQ(p.fit_args.shape[0].score, 10);
  EXPECT_EQ(p.fit_args.shape[1].utilization, 100);
  ASSERT_EQ(p.balanced_args.resources.size(), 2u);
  EXPECT_EQ(p.balanced_args.resources[0].weight, 1);
  ResolvedProfile r = ResolveProfile(c, 0);
  EXPECT_EQ(r.percentage_of_nodes_to_score, 100);
  std::string scores;
  for (const auto& s : r.scores) scores += s.name + ":" + std::to_string(s.weight) + " ";
  EXPECT_EQ(scores,
            "NodeResourcesFit:4 TaintToleration:3 NodeAffinity:2 VolumeBinding:1 PodTopologySpread:2 "
            "InterPodAffinity:2 DynamicResources:1 NodeResourcesBalancedAllocation:1 ");
  EXPECT_EQ(std::find(r.filters.begin(), r.filters.end(), "NodePorts"), r.filters.end());
}

// The extenders stanza (KS config/v1 Extender) as the deploy/ configuration
// and HAMi's write it.
TEST(SchedulerConfigLoaderTest, ReadsExtenders) {
  Loaded l = Load(kHead +
                  "extenders:\n"
                  "- urlPrefix: http://127.0.0.1:8888\n"
                  "  filterVerb: filter\n"
                  "  prioritizeVerb: prioritize\n"
                  "  preemptVerb: preempt\n"
                  "  bindVerb: bind\n"
                  "  weight: 2\n"
                  "  enableHTTPS: true\n"
                  "  tlsConfig: {insecure: true, serverName: gpusched, caData: Zm9v}\n"
                  "  httpTimeout: 1m30s\n"
                  "  nodeCacheCapable: true\n"
                  "  ignorable: true\n"
                  "  managedResources:\n"
                  "  - {name: nvidia.com/gpu}\n"
                  "  - {name: nvidia.com/gpumem, ignoredByScheduler: true}\n");
  ASSERT_TRUE(l.result.ok()) << Message(l);
  ASSERT_EQ(l.result->extenders.size(), 1u);
  const Extender& e = l.result->extenders[0];
  EXPECT_EQ(e.url_prefix, "http://127.0.0.1:8888");
  EXPECT_EQ(e.filter_verb, "filter");
  EXPECT_EQ(e.prioritize_verb, "prioritize");
  EXPECT_EQ(e.preempt_verb, "preempt");
  EXPECT_EQ(e.bind_verb, "bind");
  EXPECT_EQ(e.weight, 2);
  EXPECT_TRUE(e.enable_https);
  ASSERT_TRUE(e.tls_config.has_value());
  EXPECT_TRUE(e.tls_config->insecure);
  EXPECT_EQ(e.tls_config->server_name, "gpusched");
  EXPECT_EQ(e.tls_config->ca_data, "foo");
  EXPECT_DOUBLE_EQ(e.http_timeout_seconds, 90);
  EXPECT_TRUE(e.node_cache_capable);
  EXPECT_TRUE(e.ignorable);
  ASSERT_EQ(e.managed_resources.size(), 2u);
  EXPECT_EQ(e.managed_resources[0].name, "nvidia.com/gpu");
  EXPECT_FALSE(e.managed_resources[0].ignored_by_scheduler);
  EXPECT_EQ(e.managed_resources[1].name, "nvidia.com/gpumem");
  EXPECT_TRUE(e.managed_resources[1].ignored_by_scheduler);
}

TEST(SchedulerConfigLoaderTest, ExtenderErrors) {
  struct Case {
    const char* name;
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"prioritize without weight", kHead + "extenders:\n- urlPrefix: http://x\n  prioritizeVerb: prioritize\n",
       "c.yaml:4: invalid KubeSchedulerConfiguration: extenders[0].weight: Invalid value: 0: must have a positive "
       "weight applied to it"},
      {"two binders",
       kHead + "extenders:\n- {urlPrefix: http://a, bindVerb: bind}\n- {urlPrefix: http://b, bindVerb: bind}\n",
       "c.yaml:4: invalid KubeSchedulerConfiguration: extenders: Invalid value: \"found 2 extenders implementing "
       "bind\": only one extender can implement bind"},
      {"duplicate managed resource",
       kHead + "extenders:\n- urlPrefix: http://a\n  managedResources:\n  - name: example.com/foo\n"
               "  - name: example.com/foo\n",
       "c.yaml:7: invalid KubeSchedulerConfiguration: extenders[0].managedResources[1].name: Invalid value: "
       "\"example.com/foo\": duplicate extender managed resource name"},
      {"bad duration", kHead + "extenders:\n- urlPrefix: http://a\n  httpTimeout: 5 seconds\n",
       "c.yaml:5: cannot decode KubeSchedulerConfiguration: extenders[0].httpTimeout: time: invalid duration "
       "\"5 seconds\""},
      {"bad base64", kHead + "extenders:\n- urlPrefix: http://a\n  tlsConfig: {caData: \"a!\"}\n",
       "c.yaml:5: cannot decode KubeSchedulerConfiguration: extenders[0].tlsConfig.caData: illegal base64 data at "
       "input byte 1"},
      {"weight not a number", kHead + "extenders:\n- urlPrefix: http://a\n  weight: heavy\n",
       "c.yaml:5: cannot decode KubeSchedulerConfiguration: extenders[0].weight: expected an integer, got \"heavy\""},
  };
  for (const auto& c : cases) {
    Loaded l = Load(c.text);
    EXPECT_EQ(Message(l), c.want) << c.name;
  }
}

TEST(SchedulerConfigLoaderTest, WeightZeroIsDefaultedToOne) {
  // v1 defaulting: "If the weight is not set or it is explicitly set to 0,
  // then apply the default weight(1) instead" (defaults.go), so weight 0 in
  // a file is valid.
  Loaded l = Load(kHead +
                  "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
                  "        type: MostAllocated\n        resources:\n        - name: cpu\n          weight: 0\n");
  ASSERT_TRUE(l.result.ok()) << Message(l);
  EXPECT_EQ(l.result->profiles[0].fit_args.resources[0].weight, 1);
}

TEST(SchedulerConfigLoaderTest, Warnings) {
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"unknown top-level field", kHead + "foo: 1\n",
       {"c.yaml:3: unknown field \"foo\" is ignored (kube-scheduler refuses it: strict decoding error: unknown field "
        "\"foo\")"}},
      {"unknown nested field", kHead + "profiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabeld: []\n",
       {"c.yaml:7: unknown field \"profiles[0].plugins.score.enabeld\" is ignored (kube-scheduler refuses it: strict "
        "decoding error: unknown field \"profiles[0].plugins.score.enabeld\")"}},
      {"extenders", kHead + "extenders:\n- urlPrefix: http://127.0.0.1:8888\n  filterVerb: filter\n",
       {"c.yaml:4: extenders are read and validated; `gpusched schedule` and `simulate` do not call them "
        "(`gpusched serve` is an extender)"}},
      {"postBind plugins", kHead + "profiles:\n- plugins:\n    postBind:\n      enabled: [{name: GangScheduling}]\n",
       {"c.yaml:6: profiles[0].plugins.postBind is accepted and ignored: gpusched does not run postBind plugins"}},
      {"args of another plugin",
       kHead + "profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesAbsolute: 10\n",
       {"c.yaml:7: profiles[0].pluginConfig[0].args (DefaultPreemption) is accepted and ignored: gpusched reads the "
        "args of NodeAffinity, NodeResourcesFit, PodTopologySpread, InterPodAffinity, NodeResourcesBalancedAllocation and "
        "Coscheduling only"}},
      {"settings that do not change placement", kHead +
           "leaderElection: {leaderElect: false}\nclientConnection: {qps: 50}\nenableProfiling: true\n"
           "enableContentionProfiling: true\ndelayCacheUntilActive: true\nparallelism: 32\n",
       {}},
      {"more documents", kHead + "---\napiVersion: v1\nkind: Pod\n",
       {"c.yaml:4: only the first YAML document is read; the document after it is ignored"}},
  };
  for (const auto& c : cases) {
    Loaded l = Load(c.text);
    EXPECT_TRUE(l.result.ok()) << c.name << ": " << Message(l);
    EXPECT_EQ(l.warnings, c.want) << c.name;
  }
}

TEST(SchedulerConfigLoaderTest, Examples) {
  struct Case {
    const char* file;
    size_t profiles;
  };
  for (const Case& c : {Case{"default.yaml", 1}, Case{"gpu-binpack.yaml", 2}, Case{"rtc.yaml", 1}}) {
    const std::string path = std::string(GPUSCHED_SOURCE_DIR) + "/examples/config/" + c.file;
    std::vector<std::string> warnings;
    Result<KubeSchedulerConfiguration> r = LoadSchedulerConfigFile(path, &warnings, InTreePlugins());
    ASSERT_TRUE(r.ok()) << c.file << ": " << r.status().message();
    EXPECT_TRUE(warnings.empty()) << c.file << ": " << warnings[0];
    EXPECT_EQ(r->profiles.size(), c.profiles) << c.file;
    for (size_t i = 0; i < r->profiles.size(); ++i) EXPECT_FALSE(FrameworkError(*r, i)) << c.file;
  }
  // default.yaml spells out the defaults.
  std::vector<std::string> w;
  Result<KubeSchedulerConfiguration> def =
      LoadSchedulerConfigFile(std::string(GPUSCHED_SOURCE_DIR) + "/examples/config/default.yaml", &w, InTreePlugins());
  ASSERT_TRUE(def.ok());
  KubeSchedulerConfiguration d = DefaultSchedulerConfiguration();
  ResolvedProfile a = ResolveProfile(*def, 0);
  ResolvedProfile b = ResolveProfile(d, 0);
  EXPECT_EQ(a.filters, b.filters);
  EXPECT_EQ(a.post_filters, b.post_filters);
  ASSERT_EQ(a.scores.size(), b.scores.size());
  for (size_t i = 0; i < a.scores.size(); ++i) {
    EXPECT_EQ(a.scores[i].name, b.scores[i].name);
    EXPECT_EQ(a.scores[i].weight, b.scores[i].weight);
  }
  EXPECT_EQ(def->profiles[0].plugins.multi_point.enabled.size(), d.profiles[0].plugins.multi_point.enabled.size());
  // gpu-binpack.yaml: MostAllocated with the GPU weighted 5.
  Result<KubeSchedulerConfiguration> bin =
      LoadSchedulerConfigFile(std::string(GPUSCHED_SOURCE_DIR) + "/examples/config/gpu-binpack.yaml", &w, InTreePlugins());
  ASSERT_TRUE(bin.ok());
  ResolvedProfile g = ResolveProfile(*bin, 1);
  EXPECT_EQ(g.scheduler_name, "gpu-binpack");
  EXPECT_EQ(g.fit_args.type, ScoringStrategyType::kMostAllocated);
  ASSERT_EQ(g.fit_args.resources.size(), 3u);
  EXPECT_EQ(g.fit_args.resources[0].name, "nvidia.com/gpu");
  EXPECT_EQ(g.fit_args.resources[0].weight, 5);
  EXPECT_EQ(ResolveProfile(*bin, 0).fit_args.type, ScoringStrategyType::kLeastAllocated);
  // rtc.yaml: the bin-packing shape.
  Result<KubeSchedulerConfiguration> rtc =
      LoadSchedulerConfigFile(std::string(GPUSCHED_SOURCE_DIR) + "/examples/config/rtc.yaml", &w, InTreePlugins());
  ASSERT_TRUE(rtc.ok());
  const NodeResourcesFitArgs& ra = rtc->profiles[0].fit_args;
  EXPECT_EQ(ra.type, ScoringStrategyType::kRequestedToCapacityRatio);
  ASSERT_EQ(ra.shape.size(), 2u);
  EXPECT_EQ(ra.shape[0].utilization, 0);
  EXPECT_EQ(ra.shape[0].score, 0);
  EXPECT_EQ(ra.shape[1].utilization, 100);
  EXPECT_EQ(ra.shape[1].score, 10);
}

TEST(SchedulerConfigLoaderTest, MissingFile) {
  Result<KubeSchedulerConfiguration> r = LoadSchedulerConfigFile("/nonexistent/x.yaml", nullptr, InTreePlugins());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(r.status().message(), "the path \"/nonexistent/x.yaml\" does not exist");
}

TEST(SchedulerConfigLoaderTest, JsonInput) {
  Loaded l = Load(R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
 "profiles": [{"schedulerName": "j", "pluginConfig": [{"name": "NodeResourcesFit",
   "args": {"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 200}]}}}]}]})");
  EXPECT_EQ(Message(l),
            "c.yaml:3: invalid KubeSchedulerConfiguration: "
            "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 200: resource "
            "weight of cpu not in valid range (0, 100]");
}

// No input may crash the loader: every field replaced by values of the
// wrong shape.
TEST(SchedulerConfigLoaderTest, NeverCrashes) {
  const std::vector<std::string> values = {"", "null", "1", "-1", "x", "[]", "[1, [2]]", "{}", "{a: {b: c}}",
                                           "99999999999999999999", "\"\"", "&a [*a]", "~", "!!binary aGk="};
  const std::vector<std::string> templates = {
      "apiVersion: $\nkind: KubeSchedulerConfiguration\n",
      kHead + "percentageOfNodesToScore: $\n",
      kHead + "podInitialBackoffSeconds: $\n",
      kHead + "profiles: $\n",
      kHead + "profiles:\n- $\n",
      kHead + "profiles:\n- schedulerName: $\n",
      kHead + "profiles:\n- plugins: $\n",
      kHead + "profiles:\n- plugins:\n    score: $\n",
      kHead + "profiles:\n- plugins:\n    multiPoint:\n      enabled: $\n",
      kHead + "profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - $\n",
      kHead + "profiles:\n- plugins:\n    filter:\n      disabled:\n      - {name: $, weight: $}\n",
      kHead + "profiles:\n- pluginConfig: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: $\n    args: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      ignoredResources: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
              "        resources: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
              "        resources:\n        - {name: $, weight: $}\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
              "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
              "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape: $\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n"
              "        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n"
              "          - {utilization: $, score: $}\n",
      kHead + "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args:\n      resources: $\n",
      kHead + "extenders: $\n",
      kHead + "$: 1\n",
      "$",
  };
  for (const auto& t : templates) {
    for (const auto& v : values) {
      std::string text = t;
      for (size_t p = text.find('$'); p != std::string::npos; p = text.find('$', p + v.size())) text.replace(p, 1, v);
      Loaded l = Load(text);
      if (!l.result.ok()) {
        EXPECT_FALSE(l.result.status().message().empty()) << text;
      }
    }
  }
}

// scheduler-plugins' CoschedulingArgs: defaults (apis/config/v1/defaults.go)
// and ValidateCoschedulingArgs' messages.
TEST(SchedulerConfigLoaderTest, CoschedulingArgs) {
  const std::string head = kHead +
                           "profiles:\n- schedulerName: sp\n  plugins:\n    multiPoint:\n      enabled: [{name: "
                           "Coscheduling}]\n      disabled: [{name: PrioritySort}]\n  pluginConfig:\n  - name: "
                           "Coscheduling\n    args:\n";
  struct Case {
    std::string args;
    std::string want;  // "wait/backoff/reject" or the error
  };
  const Case cases[] = {
      {"      {}\n", "60/0/10"},
      {"      permitWaitingTimeSeconds: 10\n      podGroupRejectPercentage: 0\n", "10/0/0"},
      {"      podGroupBackoffSeconds: 30\n", "60/30/10"},
      {"      permitWaitingTimeSeconds: -1\n",
       "c.yaml:12: cannot decode KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.permitWaitingTimeSeconds: Invalid value: -1: must be greater than 0"},
      {"      podGroupRejectPercentage: 101\n",
       "c.yaml:12: cannot decode KubeSchedulerConfiguration: "
       "profiles[0].pluginConfig[0].args.podGroupRejectPercentage: Invalid value: 101: must be between 0 and 100"},
  };
  for (const Case& c : cases) {
    Loaded l = Load(head + c.args);
    std::string got;
    if (l.result.ok()) {
      const CoschedulingArgs& a = l.result->profiles[0].coscheduling_args;
      got = std::to_string(a.permit_waiting_time_seconds) + "/" + std::to_string(a.pod_group_backoff_seconds) + "/" +
            std::to_string(a.pod_group_reject_percentage);
    } else {
      got = Message(l);
    }
    EXPECT_EQ(got, c.want) << c.args;
  }
}

}  // namespace
}  // namespace gpusched
