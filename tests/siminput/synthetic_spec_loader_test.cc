#include "gpusched/siminput/synthetic_spec_loader.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

const std::string kExample = GPUSCHED_SOURCE_DIR "/examples/simulate/synthetic.yaml";

std::string Head() { return "apiVersion: gpusched.io/v1alpha1\nkind: SyntheticWorkload\n"; }

TEST(SyntheticSpecLoaderTest, ExampleFile) {
  Result<SyntheticSpec> r = LoadSyntheticSpecFile(kExample);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const SyntheticSpec& s = *r;
  EXPECT_EQ(s.file, kExample);
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.pods, 300);
  EXPECT_DOUBLE_EQ(s.mean_interarrival_seconds, 360);  // 10 an hour
  ASSERT_TRUE(s.duration.has_value());
  EXPECT_EQ(s.duration->median_seconds, 3600);
  EXPECT_EQ(s.duration->sigma, 1.0);
  struct Entry {
    std::string name;
    double weight;
    int64_t gpus;
    int32_t gpu_milli;
    std::string cpu, memory, models;
    double median, sigma;  // 0, 0: the spec's
  };
  const Entry want[] = {
      {"1-gpu", 60, 1, 0, "8", "64Gi", "", 0, 0},
      {"2-gpu", 15, 2, 0, "16", "128Gi", "", 7200, 1.0},
      {"4-gpu", 10, 4, 0, "32", "256Gi", "", 10800, 0.8},
      {"8-gpu", 5, 8, 0, "64", "512Gi", "A100", 14400, 0.8},
      {"half-gpu", 10, 0, 500, "4", "32Gi", "", 1800, 1.2},
  };
  ASSERT_EQ(s.mix.size(), std::size(want));
  for (size_t i = 0; i < s.mix.size(); ++i) {
    SCOPED_TRACE(i);
    const SyntheticMixEntry& e = s.mix[i];
    EXPECT_EQ(e.name, want[i].name);
    EXPECT_EQ(e.weight, want[i].weight);
    EXPECT_EQ(e.gpus, want[i].gpus);
    EXPECT_EQ(e.gpu_milli, want[i].gpu_milli);
    EXPECT_EQ(e.cpu.String(), want[i].cpu);
    EXPECT_EQ(e.memory.String(), want[i].memory);
    std::string models;
    for (const auto& m : e.gpu_models) models += m;
    EXPECT_EQ(models, want[i].models);
    EXPECT_EQ(e.duration.has_value(), want[i].median > 0);
    if (e.duration) {
      EXPECT_EQ(e.duration->median_seconds, want[i].median);
      EXPECT_EQ(e.duration->sigma, want[i].sigma);
    }
  }
  ASSERT_EQ(s.node_events.size(), 2u);
  EXPECT_EQ(s.node_events[0].time, 6 * 3600);
  EXPECT_EQ(s.node_events[0].kind, NodeEvent::Kind::kAdd);
  EXPECT_EQ(s.node_events[0].node.name(), "a100-5");
  EXPECT_EQ(s.node_events[0].node.EffectiveAllocatable().at("nvidia.com/gpu").Value(), 8);
  EXPECT_EQ(s.node_events[0].node.meta.labels.at("alibabacloud.com/gpu-card-model"), "A100");
  EXPECT_EQ(s.node_events[1].time, 10 * 3600);
  EXPECT_EQ(s.node_events[1].kind, NodeEvent::Kind::kRemove);
  EXPECT_EQ(s.node_events[1].name, "l4-4");

  Workload w = GenerateSyntheticWorkload(s, *s.seed);
  EXPECT_TRUE(w.rejected.empty());
  EXPECT_EQ(w.pods.size(), 300u);
  EXPECT_EQ(w.node_events.size(), 2u);
  EXPECT_EQ(w.pods[0].file, kExample);
}

TEST(SyntheticSpecLoaderTest, DraExampleNamesItsClaimTemplates) {
  Result<SyntheticSpec> r = LoadSyntheticSpecFile(GPUSCHED_SOURCE_DIR "/examples/dra/simulate/synthetic.yaml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<std::string> got;
  for (const SyntheticMixEntry& e : r->mix) got.push_back(e.name + ":" + e.resource_claim_template);
  EXPECT_EQ(got, (std::vector<std::string>{"any-gpu:one-gpu", "h100:one-h100", "pair:two-gpus-one-root"}));
}

TEST(SyntheticSpecLoaderTest, MeanInterarrivalAndDefaults) {
  Result<SyntheticSpec> r = LoadSyntheticSpecText(Head() + R"(pods: 3
meanInterarrival: 1m30s
mix:
- {gpus: 1}
nodeEvents:
- {time: "90", action: remove, node: {metadata: {name: n1}}}
)",
                                                  "w.yaml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->mean_interarrival_seconds, 90);
  EXPECT_FALSE(r->duration.has_value());  // pods run forever
  EXPECT_FALSE(r->seed.has_value());
  ASSERT_EQ(r->mix.size(), 1u);
  EXPECT_EQ(r->mix[0].weight, 1);
  EXPECT_TRUE(r->mix[0].cpu.IsZero());
  ASSERT_EQ(r->node_events.size(), 1u);
  EXPECT_EQ(r->node_events[0].name, "n1");
  EXPECT_EQ(r->node_events[0].time, 90);
  // sigma defaults to 1.
  r = LoadSyntheticSpecText(Head() + "pods: 0\narrivalRatePerHour: 1\nduration: {median: 5m}\n", "w.yaml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->duration->median_seconds, 300);
  EXPECT_EQ(r->duration->sigma, 1);
}

struct ErrorCase {
  const char* name;
  std::string body;     // after apiVersion and kind (lines 1-2)
  std::string message;  // the Status message
};

TEST(SyntheticSpecLoaderTest, ErrorsNameFileLineAndField) {
  const std::string ok = "pods: 10\narrivalRatePerHour: 60\n";  // lines 3-4
  const ErrorCase cases[] = {
      {"bad weight", ok + "mix:\n- {gpus: 1}\n- {gpus: 2}\n- {gpus: 4,\n   weight: -1}\n",
       "w.yaml:9: mix[2].weight: Invalid value: -1: must be greater than 0"},
      {"weight not a number", ok + "mix:\n- {gpus: 1, weight: lots}\n",
       "w.yaml:6: mix[0].weight: Invalid value: \"lots\": must be a number"},
      {"gpus not an integer", ok + "mix:\n- {gpus: 1.5}\n",
       "w.yaml:6: mix[0].gpus: Invalid value: \"1.5\": must be an integer"},
      {"negative gpus", ok + "mix:\n- {gpus: -1}\n",
       "w.yaml:6: mix[0].gpus: Invalid value: -1: must be greater than or equal to 0"},
      {"share with gpus", ok + "mix:\n- {gpus: 1, gpuMilli: 500}\n",
       "w.yaml:6: mix[0].gpuMilli: Invalid value: 500: may not be set together with gpus (a share is of one GPU)"},
      {"share too big", ok + "mix:\n- {gpuMilli: 5000}\n",
       "w.yaml:6: mix[0].gpuMilli: Invalid value: 5000: must be between 1 and 999 (a share of one GPU; whole GPUs "
       "are gpus)"},
      {"bad quantity", ok + "mix:\n- {gpus: 1, memory: 64GB}\n",
       "w.yaml:6: mix[0].memory: Invalid value: \"64GB\": quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      // An unknown field names the field meant, else the fields there are.
      {"misspelt field", ok + "mix:\n- {gpu: 1}\n",
       "w.yaml:6: unknown field \"mix[0].gpu\" (did you mean cpu, gpus, gpuMilli or gpuModels?)"},
      {"misspelt top-level field", ok + "duratoin: {median: 1h}\n",
       "w.yaml:5: unknown field \"duratoin\" (did you mean duration?)"},
      {"unknown top-level field", ok + "arrivals: 5\n",
       "w.yaml:5: unknown field \"arrivals\" (known fields here: apiVersion, kind, metadata, seed, pods, "
       "arrivalRatePerHour, meanInterarrival, duration, mix, nodeEvents)"},
      {"models not a list", ok + "mix:\n- {gpus: 1, gpuModels: A100}\n",
       "w.yaml:6: mix[0].gpuModels: expected a list, got a scalar"},
      {"mix not a list", ok + "mix: {gpus: 1}\n", "w.yaml:5: mix: expected a list, got an object"},
      {"no mix", ok, "w.yaml:1: mix: Required value: at least one entry is needed to generate pods"},
      {"no pods", "arrivalRatePerHour: 60\nmix: [{gpus: 1}]\n", "w.yaml:1: pods: Required value"},
      {"pods null", "pods:\narrivalRatePerHour: 60\nmix: [{gpus: 1}]\n", "w.yaml:1: pods: Required value"},
      {"negative pods", "pods: -5\narrivalRatePerHour: 60\nmix: [{gpus: 1}]\n",
       "w.yaml:3: pods: Invalid value: -5: must be greater than or equal to 0"},
      {"no arrivals", "pods: 1\nmix: [{gpus: 1}]\n",
       "w.yaml:1: arrivalRatePerHour: Required value: one of arrivalRatePerHour or meanInterarrival"},
      {"both arrivals", "pods: 1\narrivalRatePerHour: 6\nmeanInterarrival: 10m\nmix: [{gpus: 1}]\n",
       "w.yaml:5: meanInterarrival: Forbidden: may not be set together with arrivalRatePerHour"},
      {"zero rate", "pods: 1\narrivalRatePerHour: 0\nmix: [{gpus: 1}]\n",
       "w.yaml:4: arrivalRatePerHour: Invalid value: 0: must be greater than 0"},
      {"infinite rate", "pods: 1\narrivalRatePerHour: inf\nmix: [{gpus: 1}]\n",
       "w.yaml:4: arrivalRatePerHour: Invalid value: \"inf\": must be a number"},
      {"bad interval", "pods: 1\nmeanInterarrival: often\nmix: [{gpus: 1}]\n",
       "w.yaml:4: meanInterarrival: Invalid value: \"often\": must be a number of seconds or a duration such as 90s, "
       "5m or 1h30m"},
      {"zero interval", "pods: 1\nmeanInterarrival: 0s\nmix: [{gpus: 1}]\n",
       "w.yaml:4: meanInterarrival: Invalid value: 0: must be greater than 0"},
      {"duration without median", ok + "duration: {sigma: 1}\nmix: [{gpus: 1}]\n",
       "w.yaml:5: duration.median: Required value"},
      {"negative median", ok + "duration: {median: -1h}\nmix: [{gpus: 1}]\n",
       "w.yaml:5: duration.median: Invalid value: \"-1h\": must be greater than or equal to 0"},
      {"negative sigma", ok + "mix:\n- gpus: 1\n  duration:\n    median: 1h\n    sigma: -2\n",
       "w.yaml:9: mix[0].duration.sigma: Invalid value: -2: must be greater than or equal to 0"},
      {"negative seed", "seed: -1\n" + ok + "mix: [{gpus: 1}]\n",
       "w.yaml:3: seed: Invalid value: \"-1\": must be a non-negative integer"},
      {"several errors", ok + "mix:\n- {gpus: x}\n- {weight: y}\n",
       "w.yaml:6: mix[0].gpus: Invalid value: \"x\": must be an integer\n"
       // YAML 1.1 (go-yaml v2, as kubectl reads manifests): a plain y is true.
       "w.yaml:7: mix[1].weight: Invalid value: \"true\": must be a number"},
      {"event action", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- {time: 1h, action: drain, node: n1}\n",
       "w.yaml:7: nodeEvents[0].action: Unsupported value: \"drain\": supported values: \"add\", \"remove\""},
      {"event time", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- {time: later, action: remove, node: n1}\n",
       "w.yaml:7: nodeEvents[0].time: Invalid value: \"later\": must be a number of seconds or a duration such as "
       "90s, 5m or 1h30m"},
      {"event without time", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- {action: remove, node: n1}\n",
       "w.yaml:7: nodeEvents[0].time: Required value"},
      {"add needs a manifest", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- {time: 1h, action: add, node: n1}\n",
       "w.yaml:7: nodeEvents[0].node: expected a Node manifest (an object), got a scalar"},
      {"add without node", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- {time: 1h, action: add}\n",
       "w.yaml:7: nodeEvents[0].node: Required value: a Node manifest"},
      {"node of another kind", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- time: 1h\n  action: add\n  node:\n"
                                    "    kind: Pod\n    metadata: {name: p}\n",
       "w.yaml:10: nodeEvents[0].node.kind: Unsupported value: \"Pod\": supported values: \"Node\""},
      {"node that does not decode", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- time: 1h\n  action: add\n  node:\n"
                                         "    metadata: {name: n9}\n    status: {allocatable: {cpu: lots}}\n",
       "w.yaml:11: nodeEvents[0].node.status.allocatable[cpu]: quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"invalid node", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- time: 1h\n  action: add\n  node:\n"
                            "    metadata: {name: n9}\n    status:\n      allocatable: {nvidia.com/gpu: 500m}\n",
       "w.yaml:12: nodeEvents[0].node: The Node \"n9\" is invalid: status.allocatable.nvidia.com/gpu: Invalid value: "
       "\"500m\": must be an integer"},
      {"node without name", ok + "mix: [{gpus: 1}]\nnodeEvents:\n- time: 1h\n  action: add\n  node:\n"
                                 "    status: {allocatable: {pods: \"110\"}}\n",
       "w.yaml:10: nodeEvents[0].node: The Node \"\" is invalid: metadata.name: Required value: name or generateName "
       "is required"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Result<SyntheticSpec> r = LoadSyntheticSpecText(Head() + c.body, "w.yaml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(r.status().message(), c.message);
  }
}

struct FileErrorCase {
  const char* name;
  std::string text;
  Status::Code code;
  std::string message;
};

TEST(SyntheticSpecLoaderTest, DocumentLevelErrors) {
  const FileErrorCase cases[] = {
      {"empty", "", Status::Code::kParseError, "w.yaml: no SyntheticWorkload document"},
      {"comments only", "# nothing\n", Status::Code::kParseError, "w.yaml: no SyntheticWorkload document"},
      {"two documents", Head() + "pods: 1\n---\n" + Head(), Status::Code::kParseError,
       "w.yaml:5: expected one SyntheticWorkload document, found 2"},
      {"not yaml", Head() + "pods: [1\n", Status::Code::kParseError,
       "w.yaml:4: cannot parse YAML at line 4, column 1: did not find expected ',' or ']'"},
      {"YAML's infinity", Head() + "arrivalRatePerHour: .inf\n", Status::Code::kParseError,
       "w.yaml:3: cannot parse YAML at line 3, column 21: error converting YAML to JSON: json: unsupported value: "
       "+Inf"},
      {"a list", "- 1\n", Status::Code::kInvalidArgument,
       "w.yaml:1: expected a SyntheticWorkload object, got a list"},
      {"a Pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", Status::Code::kInvalidArgument,
       "w.yaml:1: apiVersion: Unsupported value: \"v1\": supported values: \"gpusched.io/v1alpha1\"\n"
       "w.yaml:2: kind: Unsupported value: \"Pod\": supported values: \"SyntheticWorkload\""},
      {"no kind", "apiVersion: gpusched.io/v1alpha1\npods: 1\n", Status::Code::kInvalidArgument,
       "w.yaml:1: kind: Required value"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Result<SyntheticSpec> r = LoadSyntheticSpecText(c.text, "w.yaml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), c.code);
    EXPECT_EQ(r.status().message(), c.message);
  }
}

TEST(SyntheticSpecLoaderTest, MissingFile) {
  Result<SyntheticSpec> r = LoadSyntheticSpecFile("/nonexistent/w.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(r.status().message(), "error: the path \"/nonexistent/w.yaml\" does not exist");
}

}  // namespace
}  // namespace gpusched
