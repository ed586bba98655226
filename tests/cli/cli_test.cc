// End-to-end tests of the gpusched command line, run in-process on the
// repository's examples.
#include "cli_test_util.h"
#include "gpusched/cli/cli.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace gpusched {
namespace {

using testing::Cli;
using testing::CliRun;

const std::string kExamples = std::string(GPUSCHED_SOURCE_DIR) + "/examples/";

TEST(CliTest, SeedDemoPrintsTheSeedsLinesFirst) {
  CliRun r = Cli({"schedule", "-f", kExamples + "seed"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  // The seed's own output, byte for byte, then what gpusched adds.
  const std::string seed_output =
      "scheduling result:\n"
      "  training-job-a   -> gpu-node-1\n"
      "  inference-svc-b  -> gpu-node-1\n"
      "  inference-svc-d  -> gpu-node-1\n"
      "  training-job-e   -> gpu-node-2\n"
      "pending (no node had enough free GPUs):\n"
      "  training-job-c\n"
      "\n"
      "node state after scheduling:\n"
      "  gpu-node-1: 4/4 GPUs used\n"
      "  gpu-node-2: 2/2 GPUs used\n";
  ASSERT_EQ(r.out.substr(0, seed_output.size()), seed_output);
  EXPECT_EQ(r.out.substr(seed_output.size()),
            "\n"
            "why pending:\n"
            "  training-job-c: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.\n"
            "    waiting for room: it needs 3 nvidia.com/gpu on one node; when it was considered, the only node big "
            "enough was gpu-node-1 (4 in all, 1 free); it is placed when running pods finish (pending is not an "
            "error)\n"
            "\n"
            "GPU devices (index on the node):\n"
            "  gpu-node-1: training-job-a [0,1], inference-svc-b [2], inference-svc-d [3]\n"
            "  gpu-node-2: training-job-e [0,1]\n"
            "\n"
            "summary: 2 nodes, 5 pods: 4 placed, 1 pending (0 can never fit), 0 rejected\n"
            "  GPUs: 9 requested, 6 capacity, 6 allocated (100%), 0 free\n"
            "  the pods request 9 GPUs but the cluster has 6: no queue order or policy can place them all at once; at "
            "least 3 GPUs' worth of pods must wait for others to finish\n");
}

TEST(CliTest, TryItYourselfAnswer) {
  CliRun r = Cli({"schedule", "-f", kExamples + "seed/nodes.yaml", "-f", kExamples + "try-it-yourself/pods.yaml"});
  EXPECT_EQ(r.code, 0);
  const std::string want =
            "scheduling result:\n"
            "  training-job-c   -> gpu-node-1\n"
            "  training-job-a   -> gpu-node-2\n"
            "  inference-svc-b  -> gpu-node-1\n"
            "pending (no node had enough free GPUs):\n"
            "  inference-svc-d\n"
            "  training-job-e\n";
  EXPECT_EQ(r.out.substr(0, want.size()), want);
}

TEST(CliTest, JsonOutputSchema) {
  CliRun r = Cli({"schedule", "-f", kExamples + "seed", "-o", "json"});
  ASSERT_EQ(r.code, 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["placements"].size(), 4u);
  EXPECT_EQ(j["placements"][0], nlohmann::json::parse(R"({"pod":"training-job-a","namespace":"default",
      "node":"gpu-node-1","gpus":[0,1],"preexisting":false})"));
  ASSERT_EQ(j["pending"].size(), 1u);
  EXPECT_EQ(j["pending"][0]["pod"], "training-job-c");
  EXPECT_EQ(j["pending"][0]["message"], "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.");
  EXPECT_EQ(j["pending"][0]["forever"], false);
  EXPECT_EQ(j["pending"][0]["reason"], "waiting-for-room");
  EXPECT_EQ(j["rejected"], nlohmann::json::array());
  ASSERT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(j["nodes"][0], nlohmann::json::parse(R"({"name":"gpu-node-1","gpus_total":4,"gpus_used":4,
      "allocatable":{"cpu":"64","memory":"512Gi","pods":"110","nvidia.com/gpu":"4"},
      "requested":{"cpu":"0","memory":"0","pods":"3","nvidia.com/gpu":"4"}})"));
  EXPECT_EQ(j["summary"]["gpus_capacity"], 6);
  EXPECT_EQ(j["summary"]["gpus_requested"], 9);
  EXPECT_EQ(j["summary"]["gpus_allocated"], 6);
  EXPECT_EQ(j["summary"]["pending"], 1);
}

TEST(CliTest, DeterministicOutput) {
  CliRun a = Cli({"schedule", "-f", kExamples + "seed", "-o", "json"});
  CliRun b = Cli({"schedule", "-f", kExamples + "seed", "-o", "json"});
  EXPECT_EQ(a.out, b.out);
}

TEST(CliTest, ExitCodes) {
  struct Case {
    const char* name;
    std::vector<std::string> args;
    int code;
    std::string err;
  } cases[] = {
      {"valid input", {"schedule", "-f", kExamples + "mistakes/too-big"}, 0, ""},
      {"rejected object", {"schedule", "-f", kExamples + "mistakes/fractional-gpu"}, 1, ""},
      {"missing path", {"schedule", "-f", "/nonexistent/x.yaml"}, 2, "error: the path \"/nonexistent/x.yaml\" does not exist\n"},
      {"unknown policy", {"schedule", "-f", kExamples + "seed", "--policy", "magic"}, 2,
       "error: unknown --policy \"magic\" (known: first-fit, best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {"unknown order", {"schedule", "-f", kExamples + "seed", "--order", "lifo"}, 2,
       "error: unknown --order \"lifo\" (did you mean fifo? known: priority, fifo, largest-first, smallest-first)\n"},
      {"unknown output", {"schedule", "-f", kExamples + "seed", "-o", "xml"}, 2,
       "error: unknown --output \"xml\" (known: table, json)\n"},
      // A value near a known one says which.
      {"policy one letter off", {"schedule", "-f", kExamples + "seed", "--policy", "bestfit"}, 2,
       "error: unknown --policy \"bestfit\" (did you mean best-fit? known: first-fit, best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {"policy prefix", {"schedule", "-f", kExamples + "seed", "--policy", "gpu"}, 2,
       "error: unknown --policy \"gpu\" (did you mean gpu-packing or gpu-clustering? known: first-fit, best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      {"order prefix", {"schedule", "-f", kExamples + "seed", "--order", "largest"}, 2,
       "error: unknown --order \"largest\" (did you mean largest-first? known: priority, fifo, largest-first, smallest-first)\n"},
      {"output one letter off", {"schedule", "-f", kExamples + "seed", "-o", "jsn"}, 2,
       "error: unknown --output \"jsn\" (did you mean json? known: table, json)\n"},
      {"preempt-gangs one letter off", {"simulate", "-f", kExamples + "seed", "--preempt-gangs", "hole"}, 2,
       "error: unknown --preempt-gangs \"hole\" (did you mean whole? known: upstream, whole)\n"},
      {"feature gate one letter off", {"schedule", "-f", kExamples + "seed", "--feature-gates", "GangSchedulng=true"}, 2,
       "error: unsupported --feature-gates entry \"GangSchedulng=true\" (did you mean GangScheduling=true? schedule "
       "reads GangScheduling=true|false and GenericWorkload=true|false for gangs and DRAAdminAccess=true|false, DRAConsumableCapacity=true|false, DRADeviceBindingConditions=true|false, DRADeviceTaints=true|false, DRAPartitionableDevices=true|false and DRAPrioritizedList=true|false for DRA)\n"},
      {"scheduler-name policy one letter off", {"schedule", "-f", kExamples + "seed", "--scheduler-name", "kai=bestfit"}, 2,
       "error: invalid --scheduler-name \"kai=bestfit\": unknown policy \"bestfit\" (did you mean best-fit? known: first-fit, best-fit, worst-fit, kube-default, fgd, random, dot-product, gpu-clustering, gpu-packing, paper-best-fit)\n"},
      // --config names a missing file as -f does.
      {"missing config", {"schedule", "-f", kExamples + "seed", "--config", "/nonexistent/missing.yaml"}, 2,
       "error: the path \"/nonexistent/missing.yaml\" does not exist; --config takes a KubeSchedulerConfiguration file\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, c.code);
    EXPECT_EQ(r.err, c.err);
  }
  EXPECT_EQ(Cli({"schedule"}).code, 2);          // -f is required
  EXPECT_EQ(Cli({"no-such-command"}).code, 2);
  EXPECT_EQ(Cli({}).code, 2);
}

TEST(CliTest, JsonModeRepeatsRejectionsOnStderr) {
  CliRun r = Cli({"schedule", "-f", kExamples + "mistakes/fractional-gpu", "-o", "json"});
  EXPECT_EQ(r.code, 1);
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rejected"].size(), 1u);
  EXPECT_EQ(j["rejected"][0]["object"], "Pod/default/half-a-gpu");
  EXPECT_EQ(j["rejected"][0]["line"], 27);
  EXPECT_EQ(j["rejected"][0]["error"],
            "The Pod \"half-a-gpu\" is invalid: \n"
            "* spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer\n"
            "* spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer");
  EXPECT_NE(r.err.find("error: " + kExamples + "mistakes/fractional-gpu/cluster.yaml:27: The Pod \"half-a-gpu\" is "
                       "invalid"),
            std::string::npos);
  EXPECT_EQ(j["placements"][0]["pod"], "one-gpu");
}

TEST(CliTest, MistakesExamplesDiagnoses) {
  struct Case {
    const char* dir;
    std::string reason;
    bool forever;
  } cases[] = {
      {"mistakes/too-big", "too-large", true},
      {"mistakes/no-device-plugin", "not-advertised", true},
      {"mistakes/fragmentation", "fragmented", false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.dir);
    CliRun r = Cli({"schedule", "-f", kExamples + c.dir, "-o", "json"});
    ASSERT_EQ(r.code, 0);
    nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["pending"].size(), 1u);
    EXPECT_EQ(j["pending"][0]["reason"], c.reason);
    EXPECT_EQ(j["pending"][0]["forever"], c.forever);
  }
  // The fix the fragmentation example suggests works.
  CliRun fixed = Cli({"schedule", "-f", kExamples + "mistakes/fragmentation", "--order", "largest-first", "-o", "json"});
  EXPECT_EQ(nlohmann::json::parse(fixed.out)["pending"].size(), 0u);
}

TEST(CliTest, Version) {
  CliRun r = Cli({"version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "gpusched 0.1.0 (kube-scheduler behaviour of Kubernetes v1.35)\n");
  // --version prints the same, as git's and CLI11's.
  CliRun flag = Cli({"--version"});
  EXPECT_EQ(flag.code, 0);
  EXPECT_EQ(flag.out, r.out);
  EXPECT_EQ(flag.err, "");
  EXPECT_NE(Cli({"--help"}).out.find("\n  --version "), std::string::npos);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST(CliTest, JsonOutputSurvivesNonUtf8Input) {
  // Found by mutating the examples: a raw 0xA9 byte in a name reaches the
  // warnings and used to abort the JSON dump.
  std::string path = ::testing::TempDir() + "/non-utf8.yaml";
  std::ofstream(path, std::ios::binary) << "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"caf\xA9\"}\n";
  std::vector<std::string> args = {"gpusched", "schedule", "-f", path, "-o", "json"};
  std::ostringstream out, err;
  EXPECT_EQ(RunCli(args, out, err), 0);
  nlohmann::json j = nlohmann::json::parse(out.str());
  ASSERT_EQ(j["warnings"].size(), 2u);
  EXPECT_EQ(j["warnings"][0], path + ":1: skipping ConfigMap \"caf\xEF\xBF\xBD\": kind ConfigMap does not take part in "
                              "scheduling");
  // A ConfigMap alone is not a cluster to schedule: most likely the wrong kinds were asked of kubectl.
  EXPECT_EQ(j["warnings"][1],
            "the input holds no Node and no Pod (1 object read): nothing to schedule and nowhere to schedule it; pass "
            "Nodes and Pods, e.g. from `kubectl get nodes,pods -A -o json`");
}

TEST(CliTest, RecursiveReadsSubdirectoriesOnlyWhenAsked) {
  // A directory holding the seed's nodes, with its pods one folder down (and
  // a file that is not a manifest, which is never read): as kubectl, -f DIR
  // reads the top level only, -R descends.
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "gpusched-recursive";
  fs::remove_all(dir);
  fs::create_directories(dir / "team-a");
  fs::copy_file(kExamples + "seed/nodes.yaml", dir / "nodes.yaml");
  fs::copy_file(kExamples + "seed/pods.yaml", dir / "team-a" / "pods.yaml");
  std::ofstream(dir / "team-a" / "notes.txt") << "not: [a manifest";

  CliRun flat = Cli({"schedule", "-f", dir.string(), "-o", "json"});
  ASSERT_EQ(flat.code, 0) << flat.err;
  nlohmann::json f = nlohmann::json::parse(flat.out);
  EXPECT_EQ(f["summary"]["nodes"], 2);
  EXPECT_EQ(f["summary"]["pods"], 0);

  CliRun deep = Cli({"schedule", "-R", "-f", dir.string(), "-o", "json"});
  ASSERT_EQ(deep.code, 0) << deep.err;
  nlohmann::json d = nlohmann::json::parse(deep.out);
  EXPECT_EQ(d["summary"]["nodes"], 2);
  EXPECT_EQ(d["summary"]["pods"], 5);
  EXPECT_EQ(d["summary"]["placed"], 4);
  CliRun seed = Cli({"schedule", "-f", kExamples + "seed", "-o", "json"});
  nlohmann::json want = nlohmann::json::parse(seed.out);
  EXPECT_EQ(d["placements"], want["placements"]);
}


}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Every flag value is checked while parsing, before any input is read, with
// the flag's name and its valid range; the hint names the command's --help.
TEST(CliTest, FlagValuesRejectedAtParseTime) {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"simulate", "-f", "x.yaml", "--end", "-5"},
       "error: --end: invalid value \"-5\": must be a number of seconds, 0 or more\n"
       "Run 'gpusched simulate --help' for usage.\n"},
      {{"simulate", "-f", "x.yaml", "--end", "inf"},
       "error: --end: invalid value \"inf\": must be a number of seconds, 0 or more\n"
       "Run 'gpusched simulate --help' for usage.\n"},
      {{"simulate", "-f", "x.yaml", "--seed", "-1"},
       "error: --seed: invalid value \"-1\": must be a whole number from 0 to 18446744073709551615\n"
       "Run 'gpusched simulate --help' for usage.\n"},
      {{"experiment", "--tune", "-3"},
       "error: --tune: invalid value \"-3\": must be a multiple of GPU capacity from 0 to 10 (0: off)\n"
       "Run 'gpusched experiment --help' for usage.\n"},
      {{"experiment", "--tune", "nan"},
       "error: --tune: invalid value \"nan\": must be a multiple of GPU capacity from 0 to 10 (0: off)\n"
       "Run 'gpusched experiment --help' for usage.\n"},
      {{"experiment", "-j", "0"},
       "error: --jobs: invalid value \"0\": must be a whole number from 1 to 256\n"
       "Run 'gpusched experiment --help' for usage.\n"},
      {{"experiment", "--jobs", "1000"},
       "error: --jobs: invalid value \"1000\": must be a whole number from 1 to 256\n"
       "Run 'gpusched experiment --help' for usage.\n"},
      {{"schedule", "-f", "x.yaml", "--seed", "-1"},
       "error: --seed: invalid value \"-1\": must be a whole number from 0 to 18446744073709551615\n"
       "Run 'gpusched schedule --help' for usage.\n"},
      {{"schedule", "-f", "x.yaml", "--seed", "18446744073709551616"},
       "error: --seed: invalid value \"18446744073709551616\": must be a whole number from 0 to "
       "18446744073709551615\n"
       "Run 'gpusched schedule --help' for usage.\n"},
      {{"explain", "-f", "x.yaml", "--seed", "1.5", "p"},
       "error: --seed: invalid value \"1.5\": must be a whole number from 0 to 18446744073709551615\n"
       "Run 'gpusched explain --help' for usage.\n"},
      {{"explain", "-f", "x.yaml", "--nodes", "0", "p"},
       "error: --nodes: invalid value \"0\": must be a whole number, 1 or more, or \"all\"\n"
       "Run 'gpusched explain --help' for usage.\n"},
      {{"explain", "-f", "x.yaml"}, "error: POD is required: name the pod to explain (NAME or NAMESPACE/NAME) or its controller (e.g. "
       "deployment/NAME)\nRun 'gpusched explain --help' for usage.\n"},
      {{"schedule"}, "error: --filename is required: give the input with -f FILE, -f DIRECTORY or -f - (stdin)\nRun 'gpusched schedule --help' for usage.\n"},
      // Unknown flags, one line each in the order given.
      {{"schedule", "-f", "x.yaml", "--bogus", "--other"},
       "error: unknown flag --bogus\nerror: unknown flag --other (did you mean --order?)\n"
       "Run 'gpusched schedule --help' for usage.\n"},
      {{"schedule", "-f", "x.yaml", "--bogus"}, "error: unknown flag --bogus\nRun 'gpusched schedule --help' for usage.\n"},
      {{"schedule", "-f", "x.yaml", "y.yaml"},
       "error: unexpected argument \"y.yaml\"\nRun 'gpusched schedule --help' for usage.\n"},
      {{"explain", "-f", "x.yaml", "a", "b"},
       "error: unexpected argument \"b\"\nRun 'gpusched explain --help' for usage.\n"},
      {{"bogus"},
       "error: unknown command \"bogus\" (commands: schedule, explain, simulate, experiment, serve, help, version)\n"
       "Run 'gpusched --help' for usage.\n"},
      {{"--bogus"}, "error: unknown flag --bogus\nRun 'gpusched --help' for usage.\n"},
      {{}, "error: a command is required (schedule, explain, simulate, experiment, serve, help, version)\n"
           "Run 'gpusched --help' for usage.\n"},
      {{"help", "bogus"},
       "error: unknown command \"bogus\" (commands: schedule, explain, simulate, experiment, serve, help, version)\n"
       "Run 'gpusched --help' for usage.\n"},
      // Flags that would change nothing are refused, never ignored.
      {{"schedule", "-f", kExamples + "seed", "--explain"},
       "error: --explain adds every pod's per-node breakdown to -o json; for one pod as a table, run 'gpusched "
       "explain -f ... POD'\n"},
      {{"schedule", "-f", kExamples + "seed", "--quiet", "-o", "json"},
       "error: --quiet shortens the table; -o json always holds everything\n"},
  };
  for (const auto& c : cases) {
    std::string joined;
    for (const auto& a : c.args) joined += a + " ";
    SCOPED_TRACE(joined);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

// A newcomer's slips (issue 29): each message names what was typed, says
// what is wrong and, when a known name is near, which one was meant.
TEST(CliTest, SlipsAreNamedWithWhatWasMeant) {
  const std::string seed = kExamples + "seed";
  const std::string kUsage = "Run 'gpusched schedule --help' for usage.\n";
  const std::string kCommands = "commands: schedule, explain, simulate, experiment, serve, help, version";
  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      // An unknown flag's value is its own, not an unexpected argument.
      {"flag one letter off, with its value", {"schedule", "-f", seed, "--polcy", "best-fit"},
       "error: unknown flag --polcy (did you mean --policy?)\n" + kUsage},
      {"flag=value", {"schedule", "-f", seed, "--polcy=best-fit"},
       "error: unknown flag --polcy (did you mean --policy?)\n" + kUsage},
      {"flag prefix", {"schedule", "-f", seed, "--out", "json"},
       "error: unknown flag --out (did you mean --output?)\n" + kUsage},
      {"single-dash long flag", {"schedule", "-f", seed, "-policy", "best-fit"},
       "error: unknown flag -policy (did you mean --policy?)\n" + kUsage},
      {"unknown short flag: no guess", {"schedule", "-f", seed, "-x"}, "error: unknown flag -x\n" + kUsage},
      {"flag near nothing, with a value", {"schedule", "-f", seed, "--bogus", "y.yaml"},
       "error: unknown flag --bogus\n" + kUsage},
      // Unknown flags come first, alone: one may have let explain's POD take its value.
      {"flags and an argument", {"schedule", "-f", seed, "a.yaml", "--bogus", "--recursiv"},
       "error: unknown flag --bogus\nerror: unknown flag --recursiv (did you mean --recursive?)\n" + kUsage},
      {"explain's flags", {"explain", "-f", seed, "--namespce", "ml", "p"},
       "error: unknown flag --namespce (did you mean --namespace?)\nRun 'gpusched explain --help' for usage.\n"},
      {"top-level flag", {"--verison"},
       "error: unknown flag --verison (did you mean --version?)\nRun 'gpusched --help' for usage.\n"},
      // A path where -f was meant.
      {"path without -f", {"schedule", seed},
       "error: unexpected argument \"" + seed + "\" (did you mean -f " + seed + "?)\n" + kUsage},
      {"second path after one -f", {"schedule", "-f", seed + "/nodes.yaml", seed + "/pods.yaml"},
       "error: unexpected argument \"" + seed + "/pods.yaml\" (did you mean -f " + seed + "/pods.yaml?)\n" + kUsage},
      {"word without -f", {"schedule", "nothere"},
       "error: unexpected argument \"nothere\"\nerror: --filename is required: give the input with -f FILE, -f "
       "DIRECTORY or -f - (stdin)\n" + kUsage},
      {"simulate path without -f", {"simulate", seed},
       "error: unexpected argument \"" + seed + "\" (did you mean -f " + seed + "?)\n"
       "Run 'gpusched simulate --help' for usage.\n"},
      {"explain path taken for the pod", {"explain", seed, "training-job-c"},
       "error: --filename is required, and \"" + seed + "\" is a path, not a pod (did you mean -f " + seed +
           "?)\nRun 'gpusched explain --help' for usage.\n"},
      {"explain pod without -f", {"explain", "training-job-c"},
       "error: --filename is required: give the input with -f FILE, -f DIRECTORY or -f - (stdin)\nRun 'gpusched explain --help' for usage.\n"},
      // Commands.
      {"command one letter off", {"schedul", "-f", seed},
       "error: unknown command \"schedul\" (did you mean schedule? " + kCommands + ")\nRun 'gpusched --help' for usage.\n"},
      {"command prefix", {"sim"},
       "error: unknown command \"sim\" (did you mean simulate? " + kCommands + ")\nRun 'gpusched --help' for usage.\n"},
      {"help topic one letter off", {"help", "explian"},
       "error: unknown command \"explian\" (did you mean explain? " + kCommands + ")\nRun 'gpusched --help' for usage.\n"},
      // Pod names in explain.
      {"pod one letter off", {"explain", "-f", seed, "training-job-f"},
       "error: pod \"training-job-f\" is not in the input (did you mean training-job-a, training-job-c or "
       "training-job-e?)\n"},
      {"pod prefix", {"explain", "-f", seed, "inference"},
       "error: pod \"inference\" is not in the input (did you mean inference-svc-b or inference-svc-d?)\n"},
      {"pod in a namespace", {"explain", "-f", seed, "default/training-jb-a"},
       "error: pod \"default/training-jb-a\" is not in the input (did you mean default/training-job-a, "
       "default/training-job-c or default/training-job-e?)\n"},
      {"pod far from every name", {"explain", "-f", seed, "nobody"}, "error: pod \"nobody\" is not in the input\n"},
      // A flag at the end without its value: the flag, and what it takes.
      {"-f without its value", {"schedule", "-f"},
       "error: --filename needs a value after it: a file, a directory or - (stdin)\n" + kUsage},
      {"-o without its value", {"schedule", "-f", seed, "-o"},
       "error: --output needs a value after it: table or json\n" + kUsage},
      {"--config without its value", {"schedule", "-f", seed, "--config"},
       "error: --config needs a value after it: a KubeSchedulerConfiguration file\n" + kUsage},
      {"--seed without its value", {"schedule", "-f", seed, "--seed"},
       "error: --seed needs a value after it: a whole number\n" + kUsage},
      {"explain --nodes without its value", {"explain", "-f", seed, "--nodes"},
       "error: --nodes needs a value after it: a count or all\nRun 'gpusched explain --help' for usage.\n"},
      {"simulate --workload without its value", {"simulate", "-f", seed, "--workload"},
       "error: --workload needs a value after it: a trace pod list (*.csv), a SyntheticWorkload spec or pod "
       "manifests\nRun 'gpusched simulate --help' for usage.\n"},
      {"simulate --end without its value", {"simulate", "-f", seed, "--end"},
       "error: --end needs a value after it: a number of seconds\nRun 'gpusched simulate --help' for usage.\n"},
      {"experiment --seeds without its value", {"experiment", "--seeds"},
       "error: --seeds needs a value after it: a range like 42-51 or a list like 1,2,3\n"
       "Run 'gpusched experiment --help' for usage.\n"},
      {"experiment --nodes without its value", {"experiment", "--nodes"},
       "error: --nodes needs a value after it: the path of a trace node list CSV\n"
       "Run 'gpusched experiment --help' for usage.\n"},
      {"serve --listen without its value", {"serve", "--listen"},
       "error: --listen needs a value after it: ADDR:PORT, e.g. 127.0.0.1:8888\nRun 'gpusched serve --help' for "
       "usage.\n"},
      // A flag where -f's path goes: kubectl's text, and what happened.
      {"-f followed by a flag", {"schedule", "-f", "-q"},
       "error: the path \"-q\" does not exist (\"-q\" looks like a flag: -f takes the path right after it)\n"},
      // --version after a command: where the version is.
      {"schedule --version", {"schedule", "--version"},
       "error: unknown flag --version for schedule: the version is 'gpusched version' (or 'gpusched --version')\n" +
           kUsage},
      {"schedule -f --version", {"schedule", "-f", seed, "--version"},
       "error: unknown flag --version for schedule: the version is 'gpusched version' (or 'gpusched --version')\n" +
           kUsage},
      {"explain --version", {"explain", "--version"},
       "error: unknown flag --version for explain: the version is 'gpusched version' (or 'gpusched --version')\n"
       "Run 'gpusched explain --help' for usage.\n"},
      // --config a directory or a missing file: the flag, and what it takes.
      {"--config a directory", {"schedule", "-f", seed, "--config", kExamples + "config"},
       "error: \"" + kExamples + "config\" is a directory, not a file; --config takes a KubeSchedulerConfiguration "
       "file\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

// The help's examples and hints spell the program as it was run: pasted,
// they run (gpusched is seldom on PATH).
TEST(CliTest, HelpAndHintsNameTheProgramAsRun) {
  auto run = [](const std::string& program, std::vector<std::string> args) {
    args.insert(args.begin(), program);
    std::ostringstream out, err;
    const int code = RunCli(args, out, err);
    return CliRun{code, out.str(), err.str()};
  };
  CliRun h = run("./build/gpusched", {"help", "schedule"});
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("Usage: ./build/gpusched schedule "), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("\nExamples:\n  ./build/gpusched schedule -f examples/seed/\n"
                       "  kubectl get nodes,pods -A -o json | ./build/gpusched schedule -f - --quiet\n"),
            std::string::npos)
      << h.out;
  EXPECT_EQ(h.out.find("gpusched schedule -f cluster/ -R"), h.out.find("./build/gpusched schedule -f cluster/ -R") + 8);
  for (const char* command : {"explain", "simulate", "experiment", "serve"}) {
    CliRun c = run("./build/gpusched", {command, "--help"});
    EXPECT_NE(c.out.find(std::string("\nExamples:\n  ./build/gpusched ") + command), std::string::npos) << c.out;
  }
  EXPECT_NE(run("./build/gpusched", {"--help"}).out.find("'./build/gpusched help COMMAND' (or './build/gpusched "
                                                          "COMMAND --help')"),
            std::string::npos);
  struct Case {
    std::string program;
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {"./build/gpusched", {"schedule", "-f", "x.yaml", "--bogus"},
       "error: unknown flag --bogus\nRun './build/gpusched schedule --help' for usage.\n"},
      {"/opt/gpu sched/gpusched", {"bogus"},
       "error: unknown command \"bogus\" (commands: schedule, explain, simulate, experiment, serve, help, version)\n"
       "Run ''/opt/gpu sched/gpusched' --help' for usage.\n"},
      {"", {"--bogus"}, "error: unknown flag --bogus\nRun 'gpusched --help' for usage.\n"},
      {"./build/gpusched", {"schedule", "-f", kExamples + "seed", "--explain"},
       "error: --explain adds every pod's per-node breakdown to -o json; for one pod as a table, run "
       "'./build/gpusched explain -f ... POD'\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.program);
    CliRun r = run(c.program, c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, c.err);
  }
}

TEST(CliTest, HelpForEachCommandEndsWithExamplesAndExitCodes) {
  CliRun top = Cli({"help"});
  EXPECT_EQ(top.code, 0);
  EXPECT_EQ(top.out, Cli({"--help"}).out);
  EXPECT_NE(top.out.find("\n  explain "), std::string::npos) << top.out;
  for (const char* command : {"schedule", "explain", "simulate", "experiment"}) {
    SCOPED_TRACE(command);
    CliRun h = Cli({"help", command});
    EXPECT_EQ(h.code, 0);
    EXPECT_EQ(h.out, Cli({command, "--help"}).out);
    const size_t examples = h.out.find("\nExamples:\n  gpusched ");
    const size_t codes = h.out.find("\nExit codes:\n  0  ");
    ASSERT_NE(examples, std::string::npos) << h.out;
    ASSERT_NE(codes, std::string::npos) << h.out;
    EXPECT_LT(examples, codes);
    EXPECT_NE(h.out.find("\n  2  usage error", codes), std::string::npos);
    EXPECT_TRUE(h.out.ends_with("\n"));
  }
}

TEST(CliTest, DirectoryWithoutManifestsIsAnError) {
  const std::string dir = ::testing::TempDir() + "/no-manifests";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/sub");
  std::ofstream(dir + "/notes.txt") << "not a manifest\n";
  CliRun r = Cli({"schedule", "-f", dir});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: the directory \"" + dir + "\" holds no manifests (no *.yaml, *.yml or *.json file)\n");
  std::ofstream(dir + "/sub/nodes.yaml") << "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n";
  r = Cli({"simulate", "-f", dir});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: the directory \"" + dir +
                       "\" holds no manifests (no *.yaml, *.yml or *.json file); its subdirectories do: add -R to read "
                       "them\n");
  r = Cli({"schedule", "-f", dir, "-R"});
  EXPECT_EQ(r.code, 0) << r.err;
}

// Nothing to read is not "no pods to schedule": most often the command
// before the pipe failed (kubectl could not authenticate) or the file is
// empty; kubectl itself refuses "no objects passed".
TEST(CliTest, EmptyInputIsAnErrorThatSaysWhy) {
  const std::string dir = ::testing::TempDir() + "/empty-input";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/empty.json");
  std::ofstream(dir + "/blank.yaml") << "---\n# nothing here\n";
  std::ofstream(dir + "/list.json") << R"({"kind": "List", "apiVersion": "v1", "items": []})";
  const std::string kFileHint =
      " (an empty file, or an empty List); pass Nodes and Pods, e.g. from `kubectl get nodes,pods -A -o json`\n";
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"schedule", "-f", dir + "/empty.json"},
       "error: no objects passed: \"" + dir + "/empty.json\" holds no object" + kFileHint},
      {{"simulate", "-f", dir + "/list.json"},
       "error: no objects passed: \"" + dir + "/list.json\" holds no object" + kFileHint},
      {{"explain", "-f", dir + "/empty.json", "-f", dir + "/blank.yaml", "-f", dir + "/list.json", "p"},
       "error: no objects passed: \"" + dir + "/empty.json\", \"" + dir + "/blank.yaml\" and \"" + dir +
           "/list.json\" hold no object" + kFileHint},
      {{"schedule", "-f", dir},
       "error: no objects passed: \"" + dir + "/blank.yaml\", \"" + dir + "/empty.json\" and \"" + dir +
           "/list.json\" hold no object" + kFileHint},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args[2]);
    CliRun r = Cli(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }

  std::istringstream nothing("");
  std::streambuf* saved = std::cin.rdbuf(nothing.rdbuf());
  CliRun r = Cli({"schedule", "-f", "-"});
  std::cin.rdbuf(saved);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "error: no objects passed: standard input holds no object (when it comes from a pipe, the command "
            "before it failed or found nothing: run it alone to see its output)\n");

  // Objects, but no Node and no Pod: a warning, and the run goes on.
  std::ofstream(dir + "/svc.yaml") << "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n---\n"
                                      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n";
  r = Cli({"schedule", "-f", dir + "/svc.yaml"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.err.find("\nwarning: the input holds no Node and no Pod (2 objects read): nothing to schedule and "
                       "nowhere to schedule it; pass Nodes and Pods, e.g. from `kubectl get nodes,pods -A -o json`\n"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace gpusched
