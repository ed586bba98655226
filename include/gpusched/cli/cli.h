// The gpusched command line: parses flags and calls the library. Kept thin;
// in-process so tests can run commands and read their output and exit code.
#ifndef GPUSCHED_CLI_CLI_H_
#define GPUSCHED_CLI_CLI_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace gpusched {

// Exit codes, as documented in the README and each command's --help.
inline constexpr int kExitOk = 0;        // every input object was valid
inline constexpr int kExitRejected = 1;  // some object was rejected (the rest was still scheduled)
inline constexpr int kExitUsage = 2;     // usage error, unreadable file or invalid --config

// args[0] is the program name.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct ScheduleFlags {
  std::vector<std::string> files;
  bool recursive = false;
  std::string config;  // KubeSchedulerConfiguration file
  std::string policy;  // "" = kube-default with --config, first-fit without
  std::string order;   // "" = priority for kube-default, fifo otherwise
  std::string output = "table";
  uint64_t seed = 1;
  bool explain = false;     // --explain (with -o json)
  bool quiet = false;       // --quiet: the summary and the pending groups only
  std::string explain_pod;  // `gpusched explain POD`: "name" or "namespace/name"
  std::string namespace_;   // `gpusched explain -n NAMESPACE`
  std::string nodes = "20";  // `gpusched explain --nodes N|all`: rows of the node table
  // --scheduler-name NAME=POLICY (repeatable): a gpusched policy serves the
  // pods of a scheduler gpusched does not run (ParseSchedulerNameFlag).
  std::vector<std::string> scheduler_names;
  // --feature-gates: GangScheduling=true|false, GenericWorkload=true|false.
  std::string feature_gates;
  // --preempt-gangs upstream|whole (sched/framework/gang_preemption.h).
  std::string preempt_gangs = "upstream";
};

int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err);

struct SimulateFlags {
  std::vector<std::string> files;  // the cluster (and pods); *.csv = trace node list
  bool recursive = false;
  std::string workload;            // trace pod list CSV, SyntheticWorkload YAML or manifests
  std::string config;
  std::string policies;            // comma-separated; "" = kube-default
  std::string order;               // "" = priority
  uint64_t seed = 1;
  bool seed_given = false;
  std::string output_dir;          // -o DIR
  std::string report;              // --report FILE.html
  double end_time = -1;            // --end SECONDS; < 0 = run to completion
  // --feature-gates, as kube-scheduler takes it; only SchedulerPopFromBackoffQ
  // (default true since v1.33) changes what the simulator does.
  std::string feature_gates;
  std::vector<std::string> scheduler_names;  // --scheduler-name NAME=POLICY
  std::string preempt_gangs = "upstream";    // --preempt-gangs upstream|whole
};

int RunSimulate(const SimulateFlags& flags, std::ostream& out, std::ostream& err);

struct ExperimentFlags {
  std::string data_dir;            // holds openb_node_list_gpu_node.csv and openb_pod_list_*.csv
  std::string trace = "default";   // a name (openb_pod_list_<name>.csv) or a CSV path
  std::string nodes;               // node list CSV; "" = <data_dir>/openb_node_list_gpu_node.csv
  std::string policies = "fgd,paper-best-fit,dot-product,gpu-packing,gpu-clustering,random";
  std::string seeds = "42-51";     // "a-b" or "a,b,c"
  double tune = 1.3;
  int threads = 0;
  std::string output_dir;
  std::string report;
};

int RunExperimentCommand(const ExperimentFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_CLI_H_
