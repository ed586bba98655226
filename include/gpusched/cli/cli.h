// The gpusched command line: parses flags and calls the library. Kept thin;
// in-process so tests can run commands and read their output and exit code.
#ifndef GPUSCHED_CLI_CLI_H_
#define GPUSCHED_CLI_CLI_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/run/run_settings.h"

namespace CLI {
class App;
}

namespace gpusched {

// Exit codes, as documented in the README and each command's --help.
inline constexpr int kExitOk = 0;        // every input object was valid
inline constexpr int kExitRejected = 1;  // some object was rejected (the rest was still scheduled)
inline constexpr int kExitUsage = 2;     // usage error, unreadable file or invalid --config

// args[0] is the program as run ("./build/gpusched"): the help's examples
// and the usage hints spell it so (shell-quoted when needed), so that they
// run when pasted; "gpusched" when it is empty.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// The same with the plugins of `plugins` (kube-scheduler's in-tree registry
// plus those a build or a test adds, PluginRegistry::With): the commands
// that read a configuration read it against them and run them.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const PluginRegistry& plugins);

// `text` (a help's examples, a hint) with the command lines' "gpusched "
// spelled `program ` instead: at a line's start, after a space or a quote.
std::string WithProgram(std::string_view text, const std::string& program);

// Each command's flags. The settings of a run (--policy, --order, --seed,
// --config, --feature-gates, --scheduler-name, --preempt-gangs) go to `run`,
// as given; the run layer resolves them and their defaults (run/defaults.h).
struct ScheduleFlags {
  std::vector<std::string> files;
  bool recursive = false;
  RunOptions run;
  std::string output = "table";
  bool explain = false;     // --explain (with -o json)
  bool quiet = false;       // --quiet: the summary and the pending groups only
  std::string explain_pod;  // `gpusched explain POD`: "name" or "namespace/name"
  std::string namespace_;   // `gpusched explain -n NAMESPACE`
  std::string nodes = "20";  // `gpusched explain --nodes N|all`: rows of the node table
  std::string program = "gpusched";  // as run (RunCli's args[0]), for the hints that name a command
};

// `schedule` and `explain` (RunSchedule runs both).
CLI::App* AddScheduleCommand(CLI::App& app, ScheduleFlags& flags);
CLI::App* AddExplainCommand(CLI::App& app, ScheduleFlags& flags);
int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err);

struct SimulateFlags {
  std::vector<std::string> files;  // the cluster (and pods); *.csv = trace node list
  bool recursive = false;
  std::string workload;            // trace pod list CSV, SyntheticWorkload YAML or manifests
  RunOptions run;                  // run.policy may list several policies
  std::string output_dir;          // -o DIR
  std::string report;              // --report FILE.html
  double end_time = -1;            // --end SECONDS; < 0 = run to completion
};

CLI::App* AddSimulateCommand(CLI::App& app, SimulateFlags& flags);
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

CLI::App* AddExperimentCommand(CLI::App& app, ExperimentFlags& flags);
int RunExperimentCommand(const ExperimentFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_CLI_H_
