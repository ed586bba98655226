#include "gpusched/cli/cli.h"

#include <CLI/CLI.hpp>

#include "gpusched/sched/policy_registry.h"
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

  SimulateFlags mf;
  CLI::App* simulate = app.add_subcommand("simulate", "Replay a workload over simulated time under one or more policies");
  simulate->add_option("-f,--filename", mf.files,
                       "Cluster: Node manifests (file, directory or -) and/or a trace node list (*.csv); pods in "
                       "them join the workload")
      ->required();
  simulate->add_flag("-R,--recursive", mf.recursive, "Read directories recursively");
  simulate->add_option("--workload", mf.workload,
                       "Workload: a trace pod list (*.csv), a SyntheticWorkload spec (YAML) or pod manifests with "
                       "gpusched.io/arrival-time and gpusched.io/duration");
  simulate->add_option("--config", mf.config, "KubeSchedulerConfiguration file (profile, backoff)");
  simulate->add_option("--policy", mf.policies, "Policy, or several separated by commas (default: kube-default)");
  simulate->add_option("--order", mf.order,
                       std::string("Queue order: ") + kQueueOrderNames + " (default: priority, kube-scheduler's)");
  auto* seed_opt = simulate->add_option("--seed", mf.seed, "Seed (tie-breaking, synthetic workloads)");
  simulate->add_option("-o,--output-dir", mf.output_dir, "Write summary.json and per-policy timeseries.csv, pods.csv");
  simulate->add_option("--report", mf.report, "Write a self-contained HTML report");
  simulate->add_option("--end", mf.end_time, "Stop at this simulated time (seconds)");
  simulate->add_option("--feature-gates", mf.feature_gates,
                       "kube-scheduler feature gates, e.g. SchedulerPopFromBackoffQ=false (the v1.32 queue), "
                       "SchedulerQueueingHints=false (every event requeues every pod)");

  ExperimentFlags xf;
  CLI::App* experiment = app.add_subcommand(
      "experiment", "Run the FGD paper's protocol on the Alibaba GPU trace: policies x seeds, in parallel");
  experiment->add_option("--data-dir", xf.data_dir, "Folder of the trace CSVs (default: the repository's data/)");
  experiment->add_option("--trace", xf.trace,
                         "Pod list: a name (default, gpushare40, multigpu50, ...) or a CSV path")
      ->capture_default_str();
  experiment->add_option("--nodes", xf.nodes, "Node list CSV (default: openb_node_list_gpu_node.csv)");
  experiment->add_option("--policies", xf.policies, "Comma-separated policies")->capture_default_str();
  experiment->add_option("--seeds", xf.seeds, "Seeds: a range a-b or a list")->capture_default_str();
  experiment->add_option("--tune", xf.tune, "Inflate the workload to this multiple of GPU capacity (0: off)")
      ->capture_default_str();
  experiment->add_option("-j,--jobs", xf.threads, "Parallel runs (default: one per core)");
  experiment->add_option("-o,--output-dir", xf.output_dir, "Write experiment.csv and runs.csv");
  experiment->add_option("--report", xf.report, "Write the chart as a self-contained HTML report");

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
  if (simulate->parsed()) {
    mf.seed_given = seed_opt->count() > 0;
    return RunSimulate(mf, out, err);
  }
  if (experiment->parsed()) return RunExperimentCommand(xf, out, err);
  if (explain->parsed()) {
    ef.explain = true;
    return RunSchedule(ef, out, err);
  }
  return RunSchedule(sf, out, err);
}

}  // namespace gpusched
