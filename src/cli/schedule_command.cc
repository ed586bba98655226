// `gpusched schedule` and `gpusched explain`: load manifests (and a
// KubeSchedulerConfiguration), schedule the pods in one batch, print the
// report or one pod's explanation. `explain` records the per-node detail of
// its one pod only, so it costs what `schedule` costs.
#include <CLI/CLI.hpp>

#include <algorithm>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/flag_checks.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/cli/pod_lookup.h"
#include "gpusched/cli/run_flags.h"
#include "gpusched/report/controller_explain.h"
#include "gpusched/report/explain_writer.h"
#include "gpusched/report/json_writer.h"
#include "gpusched/report/table_writer.h"
#include "gpusched/run/batch_run.h"

namespace gpusched {
namespace {

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

// The input and the settings both commands take.
void AddInputFlags(CLI::App* cmd, ScheduleFlags& f, Command command) {
  // One value per -f, as kubectl takes it: `-f a b` leaves b unexpected.
  cmd->add_option("-f,--filename", f.files, "File, directory or - (stdin) with Node/Pod/List/workload manifests")
      ->required()
      ->allow_extra_args(false);
  cmd->add_flag("-R,--recursive", f.recursive, "Read directories recursively");
  AddSettingFlags(cmd, f.run, command,
                  {Setting::kConfig, Setting::kPolicy, Setting::kOrder, Setting::kSeed, Setting::kSchedulerName,
                   Setting::kFeatureGates});
}

// A flag that would change nothing is refused, never ignored: the error, or "".
std::string OutputFlagsError(const ScheduleFlags& flags) {
  if (flags.output != "table" && flags.output != "json")
    return "error: " + UnknownNameText("--output", flags.output, {"table", "json"}).Render() + "\n";
  if (flags.explain && flags.output != "json")
    return "error: --explain adds every pod's per-node breakdown to -o json; for one pod as a table, run '" +
           flags.program + " explain -f ... POD'\n";
  if (flags.quiet && flags.output != "table") return "error: --quiet shortens the table; -o json always holds everything\n";
  return "";
}

// What `explain` names: one input pod, or a controller standing for its pods.
struct Subject {
  std::optional<size_t> pod, controller;
};

// Finds the subject before anything is scheduled; returns the exit code
// when the command ends here (a rejected object, no such pod, ...).
std::optional<int> FindSubject(const ScheduleFlags& flags, BatchRun& run, Subject& subject, std::ostream& out,
                               std::ostream& err) {
  const Manifests& m = run.manifests();
  ExplainTarget target = FindExplainTarget(PodQuery{flags.explain_pod, flags.namespace_}, run.pods(), m.rejected);
  if (target.kind == ExplainTarget::Kind::kNotFound) {
    // Not a pod: a controller's name stands for its pods.
    std::vector<size_t> found = FindControllers(m.controller_pods, flags.explain_pod);
    if (!flags.namespace_.empty())
      std::erase_if(found, [&](size_t i) { return m.controller_pods[i].ns != flags.namespace_; });
    if (found.size() > 1) {
      err << "error: \"" << flags.explain_pod << "\" names several controllers:";
      for (size_t i : found) err << " " << ControllerDisplayName(m.controller_pods[i]);
      err << "; name one as KIND/NAME or KIND/NAMESPACE/NAME\n";
      return kExitUsage;
    }
    if (found.size() == 1) {
      subject.controller = found.front();
      return std::nullopt;
    }
  }
  switch (target.kind) {
    case ExplainTarget::Kind::kPod:
      subject.pod = target.pods.front();
      return std::nullopt;
    case ExplainTarget::Kind::kRejected:
      out << "rejected, not scheduled: " << target.rejected->ToString() << "\n";
      return kExitRejected;
    case ExplainTarget::Kind::kAmbiguous:
    case ExplainTarget::Kind::kNotFound:
    case ExplainTarget::Kind::kInvalid:
      break;
  }
  err << target.error << "\n";
  return kExitUsage;
}

// The report, or the explanation of the subject.
int WriteOutput(const ScheduleFlags& flags, BatchRun& run, const RunSettings& settings, const Subject& subject,
                std::ostream& out, std::ostream& err) {
  const Manifests& m = run.manifests();
  const BatchResult& result = run.result();
  RunReport report{run.cluster(), run.pods(), result, m.rejected, m.warnings, settings.policies.front(),
                   QueueOrderName(settings.order)};
  report.gangs = &m.gangs;
  report.gang_serving = &settings.gang_serving;
  if (flags.explain) report.unimplemented = run.schedulers().unimplemented;
  const int code = m.rejected.empty() && result.refused.empty() ? kExitOk : kExitRejected;
  if (subject.controller) {
    WriteControllerExplain(out, report, m.controller_pods[*subject.controller]);
  } else if (subject.pod) {
    ExplainOptions eo;
    eo.max_nodes = ParseCountOrAll(flags.nodes);
    WriteExplain(out, report, *subject.pod, eo);
  } else if (flags.output == "json") {
    // The table lists rejected objects itself; with JSON on stdout, a
    // person still sees them on stderr.
    for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
    WriteJson(out, report);
  } else {
    if (flags.quiet) {
      for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
      for (const auto& f : result.refused) err << "error: " << DisplayName(*run.pods()[f.pod]) << ": " << f.error << "\n";
    }
    WriteTable(out, report, TableOptions{flags.quiet});
  }
  return code;
}

}  // namespace

CLI::App* AddScheduleCommand(CLI::App& app, ScheduleFlags& f) {
  CLI::App* cmd = app.add_subcommand("schedule", "Schedule pods from manifests onto nodes from manifests");
  AddInputFlags(cmd, f, Command::kSchedule);
  AddSettingFlags(cmd, f.run, Command::kSchedule, {Setting::kPreemptGangs});
  cmd->add_option("-o,--output", f.output, "Output format: table, json")->capture_default_str();
  cmd->add_flag("--explain", f.explain, "Add every pod's per-node filter and score breakdown (-o json only)");
  cmd->add_flag("-q,--quiet", f.quiet, "Print only the summary and the pending pods grouped by reason (table)");
  cmd->footer(WithProgram(kScheduleFooter, app.get_name()));
  f.program = app.get_name();
  return cmd;
}

CLI::App* AddExplainCommand(CLI::App& app, ScheduleFlags& f) {
  CLI::App* cmd =
      app.add_subcommand("explain", "Explain, node by node, where one pod goes and why (or a controller's pods)");
  AddInputFlags(cmd, f, Command::kExplain);
  cmd->add_option("-n,--namespace", f.namespace_, "The pod's namespace (needed when several hold its name)");
  cmd->add_option("--nodes", f.nodes, "Rows of the node table, best first: a count or all")
      ->check(CountOrAll())
      ->capture_default_str();
  cmd->add_option("POD", f.explain_pod,
                  "The pod (name or namespace/name) or a controller (deployment/NAME, sts/NAME, job/NAME, ..., or "
                  "its name)")
      ->required();
  cmd->footer(WithProgram(kExplainFooter, app.get_name()));
  f.program = app.get_name();
  return cmd;
}

int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err) {
  const Command command = flags.explain_pod.empty() ? Command::kSchedule : Command::kExplain;
  if (std::string wrong = OutputFlagsError(flags); !wrong.empty()) {
    err << wrong;
    return kExitUsage;
  }
  std::vector<std::string> warnings;
  RunResult<RunSettings> settings = ResolveSettings(flags.run, command, &warnings);
  PrintWarnings(err, warnings);
  if (!settings.ok()) return PrintRunError(err, settings.error());
  if (Status st = CheckManifestDirectories(flags.files, flags.recursive); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  BatchRun run;
  if (Status st = run.Load(flags.files, flags.recursive); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  PrintWarnings(err, run.manifests().warnings);
  Subject subject;
  if (command == Command::kExplain)
    if (std::optional<int> code = FindSubject(flags, run, subject, out, err)) return *code;
  if (Status st = run.Schedule(*settings, BatchDetail{flags.explain, subject.pod}); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  return WriteOutput(flags, run, *settings, subject, out, err);
}

}  // namespace gpusched
