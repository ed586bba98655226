#include "gpusched/io/trace_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "gpusched/model/gpu_request.h"

namespace gpusched {
namespace {

const std::string kTraceDir = GPUSCHED_SOURCE_DIR "/data/alibaba-gpu-2023/";
constexpr const char* kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
constexpr const char* kShortPodHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n";
constexpr const char* kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";

// "cpu=12 memory=16Gi nvidia.com/gpu=1": a ResourceList in canonical form.
std::string Render(const ResourceList& list) {
  std::string s;
  for (const auto& [name, q] : list) s += (s.empty() ? "" : " ") + name + "=" + q.String();
  return s;
}

std::string Render(const std::map<std::string, std::string, std::less<>>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

std::string Join(const std::vector<InputError>& errs) {
  std::string s;
  for (const auto& e : errs) s += e.ToString() + "\n";
  return s;
}

int64_t GpuMilli(const Pod& p) {
  const ResourceList& r = p.containers[0].requests;
  if (auto it = r.find(kResourceGPU); it != r.end()) return it->second.Value() * 1000;
  if (auto it = p.meta.annotations.find(kAnnotationGpuMilli); it != p.meta.annotations.end())
    return std::stoll(it->second);
  return 0;
}

// The real trace, with figures checked independently (python csv module).

TEST(TraceLoaderTest, GpuNodeListMatchesThePaper) {
  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  ASSERT_TRUE(LoadTraceNodes(kTraceDir + "openb_node_list_gpu_node.csv", nodes, rejected).ok());
  EXPECT_EQ(Join(rejected), "");
  ASSERT_EQ(nodes.size(), 1213u);
  int64_t gpus = 0, milli_cpu = 0, memory_mib = 0;
  std::map<std::string, int64_t> per_model;
  for (const Node& n : nodes) {
    const ResourceList& a = n.allocatable;
    const int64_t g = a.at(std::string(kResourceGPU)).Value();
    gpus += g;
    milli_cpu += a.at("cpu").MilliValue();
    memory_mib += a.at("memory").Value() / (1024 * 1024);
    per_model[n.meta.labels.at(std::string(kLabelGpuCardModel))] += g;
    EXPECT_EQ(a.at("pods").Value(), 1001);
    EXPECT_TRUE(n.has_allocatable);
    EXPECT_EQ(n.capacity, n.allocatable);
  }
  EXPECT_EQ(gpus, 6212);
  EXPECT_EQ(milli_cpu, 107'018'000);  // 107,018 vCPU
  EXPECT_EQ(memory_mib, 503'828'480);
  EXPECT_EQ(per_model, (std::map<std::string, int64_t>{{"G2", 4392}, {"T4", 842}, {"G3", 312}, {"P100", 265},
                                                      {"V100M32", 204}, {"V100M16", 195}, {"A10", 2}}));
  // openb-node-0000,64000,262144,2,P100
  EXPECT_EQ(nodes[0].name(), "openb-node-0000");
  EXPECT_EQ(Render(nodes[0].allocatable), "cpu=64 memory=256Gi nvidia.com/gpu=2 pods=1001");
  EXPECT_EQ(Render(nodes[0].meta.labels), "alibabacloud.com/gpu-card-model=P100");
  // openb-node-1212,96000,393216,8,G2: 96000m prints canonically as 96.
  EXPECT_EQ(nodes.back().name(), "openb-node-1212");
  EXPECT_EQ(Render(nodes.back().allocatable), "cpu=96 memory=384Gi nvidia.com/gpu=8 pods=1001");
}

TEST(TraceLoaderTest, AllNodeListAddsCpuNodesWithoutGpuOrModel) {
  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  ASSERT_TRUE(LoadTraceNodes(kTraceDir + "openb_node_list_all_node.csv", nodes, rejected).ok());
  EXPECT_EQ(Join(rejected), "");
  ASSERT_EQ(nodes.size(), 1523u);
  int cpu_only = 0;
  for (const Node& n : nodes)
    if (!n.allocatable.contains(kResourceGPU) && n.meta.labels.empty()) ++cpu_only;
  EXPECT_EQ(cpu_only, 310);
  // openb-node-0000,32000,262144,0,
  EXPECT_EQ(Render(nodes[0].allocatable), "cpu=32 memory=256Gi pods=1001");
}

TEST(TraceLoaderTest, DefaultPodList) {
  Workload w;
  const std::string path = kTraceDir + "openb_pod_list_default.csv";
  ASSERT_TRUE(LoadTracePods(path, w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 8152u);
  int cpu_only = 0, sharing = 0, one_gpu = 0;
  std::map<int64_t, int> multi;
  std::map<std::string, int> qos;
  int64_t total_milli = 0;
  double arrivals = 0, durations = 0;
  for (const WorkloadPod& wp : w.pods) {
    const Pod& p = wp.pod;
    const int64_t milli = GpuMilli(p);
    total_milli += milli;
    if (milli == 0) {
      ++cpu_only;
    } else if (milli < 1000) {
      ++sharing;
      EXPECT_EQ(p.meta.annotations.at(std::string(kAnnotationGpuCount)), "1");
      EXPECT_FALSE(p.containers[0].requests.contains(kResourceGPU));
    } else if (milli == 1000) {
      ++one_gpu;
    } else {
      ++multi[milli / 1000];
    }
    ++qos[p.meta.labels.at(std::string(kLabelTraceQos))];
    // No limits: trace pods skip API validation and scheduling reads requests.
    EXPECT_TRUE(p.containers[0].limits.empty());
    EXPECT_FALSE(p.meta.annotations.contains(kAnnotationGpuCardModel));
    arrivals += wp.arrival;
    durations += wp.duration;
  }
  EXPECT_EQ(cpu_only, 1088);
  EXPECT_EQ(sharing, 3078);
  EXPECT_EQ(one_gpu, 3911);
  EXPECT_EQ(multi, (std::map<int64_t, int>{{2, 16}, {4, 15}, {8, 44}}));
  EXPECT_EQ(total_milli, 6'086'800);
  EXPECT_EQ(qos, (std::map<std::string, int>{{"BE", 3398}, {"Burstable", 100}, {"Guaranteed", 7}, {"LS", 4647}}));
  // Sums of creation_time and of (deletion - scheduled, or deletion -
  // creation for the 897 pods with no scheduled_time): pins the time rules.
  EXPECT_EQ(arrivals, 94'122'763'871.0);
  EXPECT_EQ(durations, 210'197'755.0);

  // openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0
  const WorkloadPod& first = w.pods[0];
  EXPECT_EQ(first.pod.name(), "openb-pod-0000");
  EXPECT_EQ(first.pod.ns(), "default");
  ASSERT_EQ(first.pod.containers.size(), 1u);
  EXPECT_EQ(first.pod.containers[0].name, "main");
  EXPECT_EQ(Render(first.pod.containers[0].requests), "cpu=12 memory=16Gi nvidia.com/gpu=1");
  EXPECT_EQ(first.arrival, 0);
  EXPECT_EQ(first.duration, 12'537'496);
  EXPECT_EQ(first.file, path);
  EXPECT_EQ(first.line, 2);
  // openb-pod-0001,6000,12288,1,460,,LS,Running,427061,12902960,427061
  EXPECT_EQ(Render(w.pods[1].pod.containers[0].requests), "cpu=6 memory=12Gi");
  EXPECT_EQ(Render(w.pods[1].pod.meta.annotations), "alibabacloud.com/gpu-count=1 alibabacloud.com/gpu-milli=460");
  // Line 63, openb-pod-0061,11908,47104,1,1000,,BE,Pending,10001278,10001403, (never scheduled)
  const WorkloadPod& pending = w.pods[61];
  EXPECT_EQ(pending.pod.name(), "openb-pod-0061");
  EXPECT_EQ(pending.line, 63);
  EXPECT_EQ(pending.arrival, 10'001'278);
  EXPECT_EQ(pending.duration, 125);
  EXPECT_EQ(Render(pending.pod.containers[0].requests), "cpu=11908m memory=46Gi nvidia.com/gpu=1");
  // Line 19, openb-pod-0017,88000,327680,8,1000,,Burstable,Succeeded,9437497,10769854,9437497
  EXPECT_EQ(Render(w.pods[17].pod.containers[0].requests), "cpu=88 memory=320Gi nvidia.com/gpu=8");
  EXPECT_EQ(w.pods[17].duration, 10'769'854 - 9'437'497);
}

TEST(TraceLoaderTest, MultiGpuFileHasFiveColumnsAndNoTimes) {
  Workload w;
  ASSERT_TRUE(LoadTracePods(kTraceDir + "openb_pod_list_multigpu50.csv", w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 9061u);
  std::map<int64_t, int> by_milli_class;  // 0 cpu-only, 1 sharing, else whole GPUs
  int64_t total_milli = 0;
  for (const WorkloadPod& wp : w.pods) {
    const int64_t milli = GpuMilli(wp.pod);
    total_milli += milli;
    ++by_milli_class[milli == 0 ? 0 : (milli < 1000 ? -1 : milli / 1000)];
    EXPECT_EQ(wp.arrival, 0);
    EXPECT_EQ(wp.duration, -1);
    EXPECT_TRUE(wp.pod.meta.labels.empty());
  }
  EXPECT_EQ(by_milli_class, (std::map<int64_t, int>{{-1, 3078}, {0, 1088}, {1, 3911}, {2, 222}, {4, 206}, {8, 556}}));
  EXPECT_EQ(total_milli, 11'358'800);
  EXPECT_EQ(w.pods.back().pod.name(), "openb-pod-9060");
  EXPECT_EQ(w.pods.back().line, 9062);
}

TEST(TraceLoaderTest, GpuSpecFileAnnotatesCardModels) {
  Workload w;
  ASSERT_TRUE(LoadTracePods(kTraceDir + "openb_pod_list_gpuspec33.csv", w).ok());
  EXPECT_EQ(Join(w.rejected), "");
  ASSERT_EQ(w.pods.size(), 8152u);
  int with_model = 0, t4_only = 0, sharing_with_model = 0;
  for (const WorkloadPod& wp : w.pods) {
    auto it = wp.pod.meta.annotations.find(kAnnotationGpuCardModel);
    if (it == wp.pod.meta.annotations.end()) continue;
    ++with_model;
    if (it->second == "T4") ++t4_only;
    if (wp.pod.meta.annotations.contains(kAnnotationGpuMilli)) ++sharing_with_model;
  }
  EXPECT_EQ(with_model, 2388);
  EXPECT_EQ(t4_only, 1291);
  EXPECT_EQ(sharing_with_model, 884);
  // Line 11: openb-pod-0009,12000,16384,1,1000,V100M16|V100M32,LS,Running,4975773,12902960,4975773
  EXPECT_EQ(w.pods[9].line, 11);
  EXPECT_EQ(Render(w.pods[9].pod.meta.annotations), "alibabacloud.com/gpu-card-model=V100M16|V100M32");
}

// Every pod shape, in memory.

struct PodCase {
  const char* name;
  std::string row;
  std::string requests;
  std::string annotations;
  std::string labels;
  double arrival;
  double duration;
};

TEST(TraceLoaderTest, PodRowsBecomePods) {
  const PodCase cases[] = {
      {"cpu only", "p,500,100,0,0,,BE,Running,10,50,12", "cpu=500m memory=100Mi", "", "gpusched.io/qos=BE", 10, 38},
      {"whole gpus with spec", "p,8000,32768,4,1000,A10|T4,LS,Running,5,9,5",
       "cpu=8 memory=32Gi nvidia.com/gpu=4", "alibabacloud.com/gpu-card-model=A10|T4", "gpusched.io/qos=LS", 5, 4},
      {"gpu share", "p,1000,1024,1,250,,,Pending,7,20,", "cpu=1 memory=1Gi",
       "alibabacloud.com/gpu-count=1 alibabacloud.com/gpu-milli=250", "", 7, 13},
      {"no deletion runs forever", "p,1000,0,1,1000,,LS,Running,3,,4", "cpu=1 memory=0 nvidia.com/gpu=1", "",
       "gpusched.io/qos=LS", 3, -1},
      {"no times at all but creation", "p,0,0,0,0,,,,0,,", "cpu=0 memory=0", "", "", 0, -1},
      {"zero-length run", "p,1,1,0,0,,,,9,9,9", "cpu=1m memory=1Mi", "", "", 9, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Workload w;
    ASSERT_TRUE(LoadTracePodsText(std::string(kPodHeader) + c.row + "\n", "t.csv", w).ok());
    ASSERT_EQ(Join(w.rejected), "");
    ASSERT_EQ(w.pods.size(), 1u);
    const WorkloadPod& wp = w.pods[0];
    EXPECT_EQ(Render(wp.pod.containers[0].requests), c.requests);
    EXPECT_EQ(Render(wp.pod.containers[0].limits), "");
    EXPECT_EQ(Render(wp.pod.meta.annotations), c.annotations);
    EXPECT_EQ(Render(wp.pod.meta.labels), c.labels);
    EXPECT_EQ(wp.arrival, c.arrival);
    EXPECT_EQ(wp.duration, c.duration);
    EXPECT_EQ(wp.line, 2);
    EXPECT_EQ(wp.file, "t.csv");
  }
}

// Every rejection message, with the object and line.

struct RowErrorCase {
  const char* name;
  std::string row;
  std::string object;
  std::string message;
};

const char* const kBadNameMessage =
    "column name: invalid value \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
    "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

TEST(TraceLoaderTest, InvalidPodRowsAreRejectedWithColumnAndValue) {
  const RowErrorCase cases[] = {
      {"too few columns", "p,1,1,0,0,,LS,Running,0,1", "Pod/default/p",
       "wrong number of columns: expected 11, got 10"},
      {"too many columns", "p,1,1,0,0,,LS,Running,0,1,0,extra", "Pod/default/p",
       "wrong number of columns: expected 11, got 12"},
      {"non-integer", "p,1,1,x,0,,LS,Running,0,1,0", "Pod/default/p",
       "column num_gpu: invalid value \"x\": must be a non-negative integer"},
      {"negative", "p,-1,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"-1\": must be a non-negative integer"},
      {"plus sign", "p,+1,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"+1\": must be a non-negative integer"},
      {"fraction", "p,1.5,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"1.5\": must be a non-negative integer"},
      {"space", "p,1, 1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column memory_mib: invalid value \" 1\": must be a non-negative integer"},
      {"empty required", "p,,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"\": must be a non-negative integer"},
      {"empty creation", "p,1,1,0,0,,LS,Running,,1,0", "Pod/default/p",
       "column creation_time: invalid value \"\": must be a non-negative integer"},
      {"overflow", "p,99999999999999999999,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"99999999999999999999\": must be at most 9223372036854775807"},
      {"memory beyond a quantity", "p,1,8796093023,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column memory_mib: invalid value \"8796093023\": quantity too large"},
      {"multi-gpu share", "p,1,1,2,500,,LS,Running,0,1,0", "Pod/default/p",
       "column gpu_milli: invalid value \"500\": must be 1000 when num_gpu is greater than 1 (only a single-GPU pod "
       "shares a GPU)"},
      {"milli above a gpu", "p,1,1,1,1500,,LS,Running,0,1,0", "Pod/default/p",
       "column gpu_milli: invalid value \"1500\": must be between 0 and 1000"},
      {"milli without gpu", "p,1,1,0,300,,LS,Running,0,1,0", "Pod/default/p",
       "column gpu_milli: invalid value \"300\": must be 0 when num_gpu is 0"},
      {"gpu without milli", "p,1,1,1,0,,LS,Running,0,1,0", "Pod/default/p",
       "column gpu_milli: invalid value \"0\": must be between 1 and 1000 when num_gpu is 1"},
      {"deleted before created", "p,1,1,0,0,,LS,Running,10,5,", "Pod/default/p",
       "column deletion_time: invalid value \"5\": must not be before creation_time (10)"},
      {"deleted before scheduled", "p,1,1,0,0,,LS,Running,10,12,15", "Pod/default/p",
       "column deletion_time: invalid value \"12\": must not be before scheduled_time (15)"},
      {"quoted field", "p,1,1,1,1000,\"T4\",LS,Running,0,1,0", "Pod/default/p",
       "column gpu_spec: invalid value \"\\\"T4\\\"\": quoted fields are not supported (the trace's CSVs have none)"},
      // The quote is reported, not the column count its comma breaks.
      {"quoted comma", "p,1,1,1,1000,\"T4,A10\",LS,Running,0,1,0", "Pod/default/p",
       "column gpu_spec: invalid value \"\\\"T4\": quoted fields are not supported (the trace's CSVs have none)"},
      {"empty name", ",1,1,0,0,,LS,Running,0,1,0", "Pod/default/",
       "column name: invalid value \"\": must not be empty"},
      {"bad name", "Bad_Name,1,1,0,0,,LS,Running,0,1,0", "Pod/default/Bad_Name", kBadNameMessage},
      {"bad qos", "p,1,1,0,0,,no way,Running,0,1,0", "Pod/default/p",
       "column qos: invalid value \"no way\": a valid label must be an empty string or consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
       "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      // The first problem of a row is the one reported.
      {"first problem wins", "p,x,y,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"x\": must be a non-negative integer"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Workload w;
    // A good row on each side: a bad row costs only itself.
    const std::string text =
        std::string(kPodHeader) + "a,1,1,0,0,,,,0,,\n" + c.row + "\n" + "b,1,1,0,0,,,,0,,\n";
    ASSERT_TRUE(LoadTracePodsText(text, "t.csv", w).ok());
    ASSERT_EQ(w.pods.size(), 2u);
    EXPECT_EQ(w.pods[0].pod.name(), "a");
    EXPECT_EQ(w.pods[1].pod.name(), "b");
    EXPECT_EQ(w.pods[1].line, 4);
    ASSERT_EQ(w.rejected.size(), 1u);
    EXPECT_EQ(w.rejected[0].object, c.object);
    EXPECT_EQ(w.rejected[0].file, "t.csv");
    EXPECT_EQ(w.rejected[0].line, 3);
    EXPECT_EQ(w.rejected[0].message, c.message);
  }
}

TEST(TraceLoaderTest, DuplicatePodNameIsRejected) {
  Workload w;
  ASSERT_TRUE(LoadTracePodsText(std::string(kShortPodHeader) + "a,1,1,0,0\na,2,2,0,0\n", "t.csv", w).ok());
  ASSERT_EQ(w.pods.size(), 1u);
  EXPECT_EQ(Join(w.rejected), "t.csv:3: pods \"a\" already exists\n");
}

TEST(TraceLoaderTest, ShortFormRowsNeedFiveColumns) {
  Workload w;
  ASSERT_TRUE(LoadTracePodsText(std::string(kShortPodHeader) + "a,1,1,2,1000\nb,1,1,0,0,,LS,Running,0,1,0\n",
                                "m.csv", w)
                  .ok());
  ASSERT_EQ(w.pods.size(), 1u);
  EXPECT_EQ(Render(w.pods[0].pod.containers[0].requests), "cpu=1m memory=1Mi nvidia.com/gpu=2");
  EXPECT_EQ(Join(w.rejected), "m.csv:3: wrong number of columns: expected 5, got 11\n");
}

TEST(TraceLoaderTest, InvalidNodeRowsAreRejected) {
  const RowErrorCase cases[] = {
      {"too few columns", "n,1,1,0", "Node/n", "wrong number of columns: expected 5, got 4"},
      {"negative gpu", "n,1,1,-2,T4", "Node/n", "column gpu: invalid value \"-2\": must be a non-negative integer"},
      {"bad cpu", "n,lots,1,0,", "Node/n", "column cpu_milli: invalid value \"lots\": must be a non-negative integer"},
      {"bad model", "n,1,1,1,T4 x", "Node/n",
       "column model: invalid value \"T4 x\": a valid label must be an empty string or consist of alphanumeric "
       "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
       "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"quoted", "\"n\",1,1,0,", "Node/\"n\"",
       "column sn: invalid value \"\\\"n\\\"\": quoted fields are not supported (the trace's CSVs have none)"},
      {"empty sn", ",1,1,0,", "Node/", "column sn: invalid value \"\": must not be empty"},
      {"duplicate", "a,1,1,0,", "Node/a", "nodes \"a\" already exists"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Node> nodes;
    std::vector<InputError> rejected;
    const std::string text = std::string(kNodeHeader) + "a,1000,1024,1,T4\n" + c.row + "\nb,1000,1024,0,\n";
    ASSERT_TRUE(LoadTraceNodesText(text, "n.csv", nodes, rejected).ok());
    ASSERT_EQ(nodes.size(), 2u);
    EXPECT_EQ(nodes[1].name(), "b");
    ASSERT_EQ(rejected.size(), 1u);
    EXPECT_EQ(rejected[0].object, c.object);
    EXPECT_EQ(rejected[0].file, "n.csv");
    EXPECT_EQ(rejected[0].line, 3);
    EXPECT_EQ(rejected[0].message, c.message);
  }
}

// Whole-file problems: a Status naming the file.

struct FileCase {
  const char* name;
  std::string text;
  Status::Code code;
  std::string message;  // "" = OK
  size_t pods;
};

TEST(TraceLoaderTest, PodFileLevelProblems) {
  const std::string expected =
      "expected \"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
      "scheduled_time\" or \"name,cpu_milli,memory_mib,num_gpu,gpu_milli\"";
  const FileCase cases[] = {
      {"empty file", "", Status::Code::kParseError,
       "p.csv: empty file: expected the header line \"name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
       "pod_phase,creation_time,deletion_time,scheduled_time\"",
       0},
      {"node header", kNodeHeader, Status::Code::kParseError,
       "p.csv:1: unexpected header \"sn,cpu_milli,memory_mib,gpu,model\": " + expected, 0},
      {"header with a column less", "name,cpu_milli,memory_mib,num_gpu\na,1,1,0\n", Status::Code::kParseError,
       "p.csv:1: unexpected header \"name,cpu_milli,memory_mib,num_gpu\": " + expected, 0},
      {"header only", kShortPodHeader, Status::Code::kOk, "", 0},
      {"header only, no newline", "name,cpu_milli,memory_mib,num_gpu,gpu_milli", Status::Code::kOk, "", 0},
      {"no trailing newline", std::string(kShortPodHeader) + "a,1,1,0,0\nb,1,1,0,0", Status::Code::kOk, "", 2},
      {"crlf", "name,cpu_milli,memory_mib,num_gpu,gpu_milli\r\na,1,1,0,0\r\nb,1,1,0,0\r\n", Status::Code::kOk, "",
       2},
      {"byte-order mark", "\xEF\xBB\xBFname,cpu_milli,memory_mib,num_gpu,gpu_milli\na,1,1,0,0\n", Status::Code::kOk,
       "", 1},
      {"blank lines skipped", std::string(kShortPodHeader) + "\na,1,1,0,0\n\r\n\nb,1,1,0,0\n\n", Status::Code::kOk,
       "", 2},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Workload w;
    Status s = LoadTracePodsText(c.text, "p.csv", w);
    EXPECT_EQ(s.code(), c.code);
    EXPECT_EQ(s.ok() ? "" : s.message(), c.message);
    EXPECT_EQ(w.pods.size(), c.pods);
    EXPECT_EQ(Join(w.rejected), "");
  }
}

TEST(TraceLoaderTest, LinesCountBlankLinesAndCrlf) {
  Workload w;
  ASSERT_TRUE(
      LoadTracePodsText("name,cpu_milli,memory_mib,num_gpu,gpu_milli\r\n\r\na,1,1,0,0\r\nb,1,1,0,0", "p.csv", w).ok());
  ASSERT_EQ(w.pods.size(), 2u);
  EXPECT_EQ(w.pods[0].line, 3);
  EXPECT_EQ(w.pods[1].line, 4);
  EXPECT_EQ(w.pods[1].pod.name(), "b");
}

TEST(TraceLoaderTest, NodeFileLevelProblems) {
  const FileCase cases[] = {
      {"empty file", "", Status::Code::kParseError,
       "n.csv: empty file: expected the header line \"sn,cpu_milli,memory_mib,gpu,model\"", 0},
      {"pod header", kShortPodHeader, Status::Code::kParseError,
       "n.csv:1: unexpected header \"name,cpu_milli,memory_mib,num_gpu,gpu_milli\": expected "
       "\"sn,cpu_milli,memory_mib,gpu,model\"",
       0},
      {"crlf without final newline", "sn,cpu_milli,memory_mib,gpu,model\r\nn,1,1,0,\r\nm,1,1,1,T4", Status::Code::kOk,
       "", 2},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Node> nodes;
    std::vector<InputError> rejected;
    Status s = LoadTraceNodesText(c.text, "n.csv", nodes, rejected);
    EXPECT_EQ(s.code(), c.code);
    EXPECT_EQ(s.ok() ? "" : s.message(), c.message);
    EXPECT_EQ(nodes.size(), c.pods);
    EXPECT_EQ(Join(rejected), "");
  }
}

TEST(TraceLoaderTest, UnreadablePaths) {
  Workload w;
  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  Status s = LoadTracePods("/nonexistent/pods.csv", w);
  EXPECT_EQ(s.code(), Status::Code::kNotFound);
  EXPECT_EQ(s.message(), "error: the path \"/nonexistent/pods.csv\" does not exist");
  s = LoadTraceNodes(kTraceDir, nodes, rejected);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(s.message(), "error: \"" + kTraceDir + "\" is a directory, not a trace CSV file");
}

TEST(TraceLoaderTest, EmptyFileOnDiskNamesTheFile) {
  // The pid keeps parallel test runs apart.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("gpusched_trace_loader_empty_" + std::to_string(::getpid()) + ".csv"))
                               .string();
  { std::ofstream(path).flush(); }
  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  Status s = LoadTraceNodes(path, nodes, rejected);
  std::filesystem::remove(path);
  EXPECT_EQ(s.code(), Status::Code::kParseError);
  EXPECT_EQ(s.message(), path + ": empty file: expected the header line \"sn,cpu_milli,memory_mib,gpu,model\"");
}

// A file is streamed in blocks of LineReader::kDefaultBlockSize (1 MiB):
// rows across block boundaries, a name repeated a block later, bad rows,
// blank lines and "\r\n" give what the same text in memory gives.
TEST(TraceLoaderTest, StreamedFileLoadsLikeTheTextInMemory) {
  std::string text = kPodHeader;
  for (int i = 0; i < 30000; ++i) {
    text += "pod-" + std::to_string(i) + "," + std::to_string(1000 + i) + ",2048," + (i % 3 ? "1,1000" : "1,250") +
            ",,LS,Running," + std::to_string(i) + "," + std::to_string(2 * i + 5) + "," + std::to_string(i) +
            (i % 7 ? "\n" : "\r\n");
    if (i % 5000 == 17) text += "\n";
    if (i % 9000 == 1) text += "pod-" + std::to_string(i / 2) + ",1,1,0,0,,,,0,,\n";  // a repeated name
    if (i % 11000 == 2) text += "bad,x,1,0,0,,,,0,,\n";
  }
  ASSERT_GT(text.size(), size_t{1} << 20);  // more than one block
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("gpusched_trace_loader_stream_" + std::to_string(::getpid()) + ".csv"))
                               .string();
  { std::ofstream(path, std::ios::binary) << text; }
  Workload streamed, in_memory;
  const Status s = LoadTracePods(path, streamed);
  std::filesystem::remove(path);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(LoadTracePodsText(text, path, in_memory).ok());
  ASSERT_EQ(streamed.pods.size(), 30000u);
  ASSERT_EQ(in_memory.pods.size(), 30000u);
  for (size_t i = 0; i < streamed.pods.size(); ++i) {
    const WorkloadPod& a = streamed.pods[i];
    const WorkloadPod& b = in_memory.pods[i];
    ASSERT_EQ(a.pod.name(), "pod-" + std::to_string(i));
    ASSERT_EQ(a.pod.name(), b.pod.name());
    ASSERT_EQ(a.line, b.line);
    ASSERT_EQ(a.pod.containers[0].requests, b.pod.containers[0].requests);
    ASSERT_EQ(a.pod.meta.annotations, b.pod.meta.annotations);
    ASSERT_EQ(a.arrival, b.arrival);
    ASSERT_EQ(a.duration, b.duration);
    ASSERT_EQ(a.file, path);
  }
  EXPECT_EQ(Join(streamed.rejected), Join(in_memory.rejected));
  EXPECT_EQ(Join(streamed.rejected), path + ":4: pods \"pod-0\" already exists\n" +
                                         path + ":6: column cpu_milli: invalid value \"x\": must be a non-negative integer\n" +
                                         path + ":9008: pods \"pod-4500\" already exists\n" +
                                         path + ":11011: column cpu_milli: invalid value \"x\": must be a non-negative integer\n" +
                                         path + ":18012: pods \"pod-9000\" already exists\n" +
                                         path + ":22015: column cpu_milli: invalid value \"x\": must be a non-negative integer\n" +
                                         path + ":27016: pods \"pod-13500\" already exists\n");
}

TEST(TraceLoaderTest, PodsOfOneFileShareOneFileName) {
  Workload w;
  ASSERT_TRUE(LoadTracePodsText(std::string(kShortPodHeader) + "a,1,1,0,0\nb,1,1,0,0\n", "t.csv", w).ok());
  ASSERT_EQ(w.pods.size(), 2u);
  EXPECT_EQ(&w.pods[0].file.str(), &w.pods[1].file.str());
  EXPECT_EQ(w.pods[1].file, "t.csv");
}

}  // namespace
}  // namespace gpusched
