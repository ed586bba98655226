#include "gpusched/cli/cli.h"
#include "gpusched/cli/serve_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <limits>

#include "gpusched/cli/flag_checks.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/queue_order.h"
#include "gpusched/sched/api/version.h"

namespace gpusched {
namespace {

constexpr const char* kCommands = "schedule, explain, simulate, experiment, serve, help, version";

// The end of each command's --help: examples, then its exit codes.
constexpr const char* kScheduleFooter = R"(
Examples:
  gpusched schedule -f examples/seed/
  kubectl get nodes,pods -A -o json | gpusched schedule -f - --quiet
  gpusched schedule -f cluster/ -R --config scheduler.yaml -o json

Exit codes:
  0  every input object was valid (pending pods are not an error)
  1  some object was rejected; everything valid was still scheduled and reported
  2  usage error, unreadable input or invalid --config)";

constexpr const char* kExplainFooter = R"(
Examples:
  gpusched explain -f examples/seed/ training-job-c
  kubectl get nodes,pods -A -o json | gpusched explain -f - -n ml trainer-0
  gpusched explain -f cluster/ --policy kube-default --nodes all ml/trainer-0

Exit codes:
  0  the pod was explained (placed or pending)
  1  the pod, or another input object, was rejected as invalid input
  2  usage error, unreadable input, a pod not in the input, or a name in several namespaces)";

constexpr const char* kSimulateFooter = R"(
Examples:
  gpusched simulate -f examples/simulate/cluster.yaml --workload examples/simulate/synthetic.yaml \
      --policy kube-default,best-fit,fgd --report report.html
  gpusched simulate -f data/alibaba-gpu-2023/openb_node_list_gpu_node.csv \
      --workload data/alibaba-gpu-2023/openb_pod_list_default.csv --policy fgd -o out/

Exit codes:
  0  every input object was valid
  1  some object or trace row was rejected; the rest was simulated
  2  usage error, unreadable input or invalid --config)";

constexpr const char* kExperimentFooter = R"(
Examples:
  gpusched experiment
  gpusched experiment --trace multigpu50 --policies fgd,paper-best-fit --seeds 42-44 -o out --report exp.html

Exit codes:
  0  every trace row was valid
  1  some trace row was rejected; the rest was used
  2  usage error or unreadable trace)";

constexpr const char* kAppFooter = R"(
'gpusched help COMMAND' (or 'gpusched COMMAND --help') shows a command's flags, examples and exit codes.)";

// --scheduler-name NAME=POLICY, repeatable, one value per occurrence (so
// that `explain`'s POD argument is never taken for one).
void AddSchedulerNameFlag(CLI::App* cmd, std::vector<std::string>& names) {
  cmd->add_option("--scheduler-name", names,
                  "Serve the pods of another scheduler (spec.schedulerName NAME, e.g. kai-scheduler) with a gpusched "
                  "policy: NAME=POLICY; repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void AddCommonFlags(CLI::App* cmd, ScheduleFlags& f) {
  std::string policies;
  for (const auto& p : PolicyNames()) policies += (policies.empty() ? "" : ", ") + p;
  // One value per -f, as kubectl takes it: `-f a b` leaves b unexpected.
  cmd->add_option("-f,--filename", f.files, "File, directory or - (stdin) with Node/Pod/List/workload manifests")
      ->required()
      ->allow_extra_args(false);
  cmd->add_flag("-R,--recursive", f.recursive, "Read directories recursively");
  cmd->add_option("--config", f.config, "KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1)");
  cmd->add_option("--policy", f.policy,
                  "Node choice: " + policies + " (default: kube-default with --config, else first-fit)");
  cmd->add_option("--order", f.order,
                  std::string("Queue order: ") + kQueueOrderNames + " (default: priority for kube-default, else fifo)");
  cmd->add_option("--seed", f.seed, "Seed of the random generator (tie-breaking)")
      ->check(WholeNumber(0, std::numeric_limits<uint64_t>::max()))
      ->capture_default_str();
  AddSchedulerNameFlag(cmd, f.scheduler_names);
}

// --preempt-gangs (sched/framework/gang_preemption.h).
void AddPreemptGangsFlag(CLI::App* cmd, std::string& value) {
  cmd->add_option("--preempt-gangs", value,
                  "What DefaultPreemption does to a victim's gang: upstream (evicts the victims only, as "
                  "kube-scheduler) or whole (a gang left below minCount loses every member, as KAI/Volcano)")
      ->capture_default_str();
}

// "--bogus --other" for flags, as given; positional leftovers are arguments.
std::string UnexpectedMessage(const std::vector<std::string>& extras) {
  bool all_flags = true;
  std::string list;
  for (const auto& e : extras) {
    all_flags &= e.starts_with("-");
    list += (list.empty() ? "" : " ") + e;
  }
  const bool one = extras.size() == 1;
  return std::string("error: ") + (all_flags ? (one ? "unknown flag: " : "unknown flags: ")
                                             : (one ? "unexpected argument: " : "unexpected arguments: ")) +
         list;
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"gpusched: schedules GPU workloads the way Kubernetes does"};
  app.name(args.empty() ? "gpusched" : args[0]);
  app.require_subcommand(0, 1);
  app.allow_extras();
  app.footer(kAppFooter);

  ScheduleFlags sf;
  CLI::App* schedule = app.add_subcommand("schedule", "Schedule pods from manifests onto nodes from manifests");
  AddCommonFlags(schedule, sf);
  schedule->add_option("-o,--output", sf.output, "Output format: table, json")->capture_default_str();
  schedule->add_flag("--explain", sf.explain, "Add every pod's per-node filter and score breakdown (-o json only)");
  schedule->add_flag("-q,--quiet", sf.quiet, "Print only the summary and the pending pods grouped by reason (table)");
  schedule->add_option("--feature-gates", sf.feature_gates,
                       "kube-scheduler feature gates, e.g. GangScheduling=true (alpha in v1.35, for a --config "
                       "profile enabling GangScheduling)");
  AddPreemptGangsFlag(schedule, sf.preempt_gangs);
  schedule->footer(kScheduleFooter);

  ScheduleFlags ef;
  CLI::App* explain = app.add_subcommand("explain", "Explain, node by node, where one pod goes and why (or a controller's pods)");
  AddCommonFlags(explain, ef);
  explain->add_option("-n,--namespace", ef.namespace_, "The pod's namespace (needed when several hold its name)");
  explain->add_option("--feature-gates", ef.feature_gates,
                      "kube-scheduler feature gates, e.g. GangScheduling=true (as for schedule)");
  explain->add_option("--nodes", ef.nodes, "Rows of the node table, best first: a count or all")
      ->check(CountOrAll())
      ->capture_default_str();
  explain->add_option("POD", ef.explain_pod,
                      "The pod (name or namespace/name) or a controller (deployment/NAME, sts/NAME, job/NAME, ..., or "
                      "its name)")
      ->required();
  explain->footer(kExplainFooter);

  SimulateFlags mf;
  CLI::App* simulate = app.add_subcommand("simulate", "Replay a workload over simulated time under one or more policies");
  simulate->add_option("-f,--filename", mf.files,
                       "Cluster: Node manifests (file, directory or -) and/or a trace node list (*.csv); pods in "
                       "them join the workload")
      ->required()
      ->allow_extra_args(false);
  simulate->add_flag("-R,--recursive", mf.recursive, "Read directories recursively");
  simulate->add_option("--workload", mf.workload,
                       "Workload: a trace pod list (*.csv), a SyntheticWorkload spec (YAML) or pod manifests with "
                       "gpusched.io/arrival-time and gpusched.io/duration");
  simulate->add_option("--config", mf.config, "KubeSchedulerConfiguration file (profile, backoff)");
  simulate->add_option("--policy", mf.policies, "Policy, or several separated by commas (default: kube-default)");
  simulate->add_option("--order", mf.order,
                       std::string("Queue order: ") + kQueueOrderNames + " (default: priority, kube-scheduler's)");
  auto* seed_opt = simulate->add_option("--seed", mf.seed, "Seed (tie-breaking, synthetic workloads)")
                       ->check(WholeNumber(0, std::numeric_limits<uint64_t>::max()));
  simulate->add_option("-o,--output-dir", mf.output_dir, "Write summary.json and per-policy timeseries.csv, pods.csv");
  simulate->add_option("--report", mf.report, "Write a self-contained HTML report");
  simulate->add_option("--end", mf.end_time, "Stop at this simulated time (seconds)")
      ->check(Number(0, std::numeric_limits<double>::infinity(), "a number of seconds"));
  simulate->add_option("--feature-gates", mf.feature_gates,
                       "kube-scheduler feature gates, e.g. SchedulerPopFromBackoffQ=false (the v1.32 queue), "
                       "SchedulerQueueingHints=false (every event requeues every pod)");
  AddPreemptGangsFlag(simulate, mf.preempt_gangs);
  simulate->footer(kSimulateFooter);
  AddSchedulerNameFlag(simulate, mf.scheduler_names);

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
      ->check(Number(0, 10, "a multiple of GPU capacity", "(0: off)"))
      ->capture_default_str();
  experiment->add_option("-j,--jobs", xf.threads, "Parallel runs (default: one per core)")
      ->check(WholeNumber(1, 256));
  experiment->add_option("-o,--output-dir", xf.output_dir, "Write experiment.csv and runs.csv");
  experiment->add_option("--report", xf.report, "Write the chart as a self-contained HTML report");
  experiment->footer(kExperimentFooter);

  ServeFlags vf;
  CLI::App* serve = AddServeCommand(app, vf);

  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Show the help of gpusched or of one command");
  help->add_option("COMMAND", help_topic, "The command");

  CLI::App* version = app.add_subcommand("version", "Print the version and the Kubernetes release followed");

  const std::vector<CLI::App*> commands = {schedule, explain, simulate, experiment, serve, help, version};
  for (CLI::App* c : commands) c->allow_extras();
  // Errors point to the command's own --help.
  auto usage_hint = [&] {
    for (CLI::App* c : commands)
      if (c->parsed()) return "Run 'gpusched " + c->get_name() + " --help' for usage.\n";
    return std::string("Run 'gpusched --help' for usage.\n");
  };

  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(rest.begin(), rest.end());  // CLI11 parses a reversed vector
  try {
    app.parse(rest);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the parsed command's help, when there is one
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return kExitOk;
    }
    err << "error: " << e.what() << "\n" << usage_hint();
    return kExitUsage;
  }
  // Leftover arguments, in the order given.
  std::vector<std::string> extras = app.remaining(true);
  CLI::App* chosen = nullptr;
  for (CLI::App* c : commands)
    if (c->parsed()) chosen = c;
  if (!chosen) {
    if (!extras.empty() && !extras.front().starts_with("-")) {
      err << "error: unknown command \"" << extras.front() << "\" (commands: " << kCommands << ")\n"
          << usage_hint();
    } else if (!extras.empty()) {
      err << UnexpectedMessage(extras) << "\n" << usage_hint();
    } else {
      err << "error: a command is required (" << kCommands << ")\n" << usage_hint();
    }
    return kExitUsage;
  }
  if (!extras.empty()) {
    err << UnexpectedMessage(extras) << "\n" << usage_hint();
    return kExitUsage;
  }
  if (help->parsed()) {
    if (help_topic.empty()) {
      // app.help() would show the help of the command parsed: `help` itself.
      out << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return kExitOk;
    }
    for (CLI::App* c : commands) {
      if (c->get_name() == help_topic) {
        out << c->help(app.get_name());
        return kExitOk;
      }
    }
    err << "error: unknown command \"" << help_topic << "\" (commands: " << kCommands << ")\n"
        << "Run 'gpusched --help' for usage.\n";
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
  if (serve->parsed()) return RunServe(vf, out, err);
  if (explain->parsed()) return RunSchedule(ef, out, err);
  return RunSchedule(sf, out, err);
}

}  // namespace gpusched
