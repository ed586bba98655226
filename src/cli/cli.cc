#include "gpusched/cli/cli.h"

#include <CLI/CLI.hpp>

#include "gpusched/sched/policy.h"
#include "gpusched/sched/queue_order.h"
#include "gpusched/sched/version.h"

namespace gpusched {
namespace {

void AddCommonFlags(CLI::App* cmd, ScheduleFlags& f) {
  std::string policies;
  for (const auto& p : PolicyNames()) policies += (policies.empty() ? "" : ", ") + p;
  cmd->add_option("-f,--filename", f.files, "File, directory or - (stdin) with Node/Pod/List/workload manifests")
      ->required();
  cmd->add_flag("-R,--recursive", f.recursive, "Read directories recursively");
  cmd->add_option("--config", f.config, "KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1)");
  cmd->add_option("--policy", f.policy,
                  "Node choice: " + policies + " (default: kube-default with --config, else first-fit)");
  cmd->add_option("--order", f.order,
                  std::string("Queue order: ") + kQueueOrderNames + " (default: priority for kube-default, else fifo)");
  cmd->add_option("--seed", f.seed, "Seed of the random generator (tie-breaking)")->capture_default_str();
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"gpusched: schedules GPU workloads the way Kubernetes does"};
  app.name(args.empty() ? "gpusched" : args[0]);
  app.require_subcommand(1);

  ScheduleFlags sf;
  CLI::App* schedule = app.add_subcommand("schedule", "Schedule pods from manifests onto nodes from manifests");
  AddCommonFlags(schedule, sf);
  schedule->add_option("-o,--output", sf.output, "Output format: table, json")->capture_default_str();
  schedule->add_flag("--explain", sf.explain, "Add every pod's per-node filter and score breakdown (with -o json)");

  ScheduleFlags ef;
  CLI::App* explain = app.add_subcommand("explain", "Explain, node by node, where one pod goes and why");
  AddCommonFlags(explain, ef);
  explain->add_option("pod", ef.explain_pod, "The pod: name or namespace/name")->required();

  CLI::App* version = app.add_subcommand("version", "Print the version and the Kubernetes release followed");

  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(rest.begin(), rest.end());  // CLI11 parses a reversed vector
  try {
    app.parse(rest);
  } catch (const CLI::CallForHelp&) {
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
  if (explain->parsed()) {
    ef.explain = true;
    return RunSchedule(ef, out, err);
  }
  return RunSchedule(sf, out, err);
}

}  // namespace gpusched
