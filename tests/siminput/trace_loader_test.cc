#include "gpusched/siminput/trace_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gpusched/io/line_reader.h"
#include "trace_test_util.h"

namespace gpusched {
namespace {

using trace_test::Join;
using trace_test::kTraceDir;
using trace_test::Render;

constexpr const char* kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
constexpr const char* kShortPodHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n";
constexpr const char* kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";

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
      // The largest amounts load as given.
      {"2^63-1 milli-cpu and 2^40 gpus", "p,9223372036854775807,1,1099511627776,1000,,,,0,1,",
       "cpu=9223372036854775807m memory=1Mi nvidia.com/gpu=1099511627776", "", "", 0, 1},
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
      // Hostile amounts: 2^63 milli-cpu, NaN-like and non-integers.
      {"2^63 milli-cpu", "p,9223372036854775808,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"9223372036854775808\": must be at most 9223372036854775807"},
      {"NaN", "p,NaN,1,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column cpu_milli: invalid value \"NaN\": must be a non-negative integer"},
      {"inf", "p,1,inf,0,0,,LS,Running,0,1,0", "Pod/default/p",
       "column memory_mib: invalid value \"inf\": must be a non-negative integer"},
      {"1e400", "p,1,1,1e400,1000,,LS,Running,0,1,0", "Pod/default/p",
       "column num_gpu: invalid value \"1e400\": must be a non-negative integer"},
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
      // Bytes that are not UTF-8 are quoted as \x escapes.
      {"non-UTF-8 name", "caf\xA9,1,1,0,0,,LS,Running,0,1,0", "Pod/default/caf\xA9",
       "column name: invalid value \"caf\\xa9\": a lowercase RFC 1123 subdomain must consist of lower case "
       "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
       "'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
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
      {"2^63 milli-cpu", "n,9223372036854775808,1,0,", "Node/n",
       "column cpu_milli: invalid value \"9223372036854775808\": must be at most 9223372036854775807"},
      {"NaN gpus", "n,1,1,NaN,", "Node/n", "column gpu: invalid value \"NaN\": must be a non-negative integer"},
      {"non-UTF-8 sn", "caf\xA9,1,1,0,", "Node/caf\xA9",
       "column sn: invalid value \"caf\\xa9\": a lowercase RFC 1123 subdomain must consist of lower case "
       "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
       "'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
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

// One byte over LineReader::kMaxLineBytes.
const std::string kOverlong(LineReader::kMaxLineBytes + 1, '7');

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
       "p.csv:1: unexpected header \"sn,cpu_milli,memory_mib,gpu,model\": " + expected +
           " (this is a trace node list; the workload is a pod list, openb_pod_list_*.csv)",
       0},
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
      // A 2 GB "quantity" on one line costs at most a few times the limit.
      {"a line over 4 MiB", std::string(kShortPodHeader) + "a,1,1,0,0\n" + kOverlong + "\nb,1,1,0,0\n",
       Status::Code::kParseError, "p.csv:3: a line longer than the 4 MiB gpusched accepts; the rows after it were not read",
       1},
      {"a header over 4 MiB", kOverlong, Status::Code::kParseError,
       "p.csv:1: a line longer than the 4 MiB gpusched accepts; the rows after it were not read", 0},
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
       "\"sn,cpu_milli,memory_mib,gpu,model\" (this is a trace pod list; the cluster is a node list, "
       "openb_node_list_*.csv)",
       0},
      {"crlf without final newline", "sn,cpu_milli,memory_mib,gpu,model\r\nn,1,1,0,\r\nm,1,1,1,T4", Status::Code::kOk,
       "", 2},
      {"a line over 4 MiB", "sn,cpu_milli,memory_mib,gpu,model\nn,1,1,0,\n" + kOverlong + "\nm,1,1,1,T4\n",
       Status::Code::kParseError, "n.csv:3: a line longer than the 4 MiB gpusched accepts; the rows after it were not read",
       1},
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
