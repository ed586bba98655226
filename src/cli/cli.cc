#include "gpusched/cli/cli.h"

#include <CLI/CLI.hpp>

#include "gpusched/sched/policy.h"
#include "gpusched/sched/version.h"

namespace gpusched {

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"gpusched: schedules GPU workloads the way Kubernetes does"};
  app.name(args.empty() ? "gpusched" : args[0]);
  app.require_subcommand(1);

  ScheduleFlags sf;
  CLI::App* schedule = app.add_subcommand("schedule", "Schedule pods from manifests onto nodes from manifests");
  schedule->add_option("-f,--filename", sf.files, "File, directory or - (stdin) with Node/Pod/List/workload manifests")
      ->required();
  schedule->add_flag("-R,--recursive", sf.recursive, "Read directories recursively");
  std::string policies;
  for (const auto& p : PolicyNames()) policies += (policies.empty() ? "" : ", ") + p;
  schedule->add_option("--policy", sf.policy, "Node choice policy: " + policies)->capture_default_str();
  schedule->add_option("--order", sf.order, "Queue order: fifo, largest-first")->capture_default_str();
  schedule->add_option("-o,--output", sf.output, "Output format: table, json")->capture_default_str();
  schedule->add_option("--seed", sf.seed, "Seed of the random generator (tie-breaking)")->capture_default_str();

  CLI::App* version = app.add_subcommand("version", "Print the version and the Kubernetes release followed");

  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(rest.begin(), rest.end());  // CLI11 parses a reversed vector
  try {
    app.parse(rest);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return kExitOk;
    }
    err << "error: " << e.what() << "\n" << "Run 'gpusched --help' for usage.\n";
    return kExitUsage;
  }
  if (version->parsed()) {
    out << "gpusched 0.1.0 (kube-scheduler behaviour of Kubernetes " << kTargetKubernetesVersion << ")\n";
    return kExitOk;
  }
  return RunSchedule(sf, out, err);
}

}  // namespace gpusched
