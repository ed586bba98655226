// `gpusched simulate`: load a cluster and a workload, replay it over
// simulated time under one or more policies, print a summary per policy and
// write the time series, pod outcomes and HTML report on request.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iomanip>
#include <limits>
#include <sstream>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/flag_checks.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/cli/progress.h"
#include "gpusched/cli/run_flags.h"
#include "gpusched/util/plural.h"
#include "gpusched/report/diagnosis_text.h"
#include "gpusched/report/html_report.h"
#include "gpusched/report/sim_writers.h"
#include "gpusched/run/sim_run.h"

namespace gpusched {
namespace {

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

std::string FixedDecimals(double v, int decimals) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(decimals) << v;
  return o.str();
}

// Seconds as the most readable unit: 42s, 3.5m, 2.25h.
std::string Human(double s) {
  if (s < 120) return FixedDecimals(s, s < 10 ? 1 : 0) + "s";
  if (s < 7200) return FixedDecimals(s / 60, 1) + "m";
  return FixedDecimals(s / 3600, 2) + "h";
}

void WriteSummaryTable(std::ostream& out, const std::vector<SimResult>& runs) {
  out << "  POLICY            PODS  FINISHED  RUNNING  PENDING  REJECTED  GPU ALLOC  FRAG   WAIT p50/p90/p99        "
         "JCT p50/p99\n";
  for (const SimResult& r : runs) {
    const SimSummary& s = r.summary;
    out << "  " << std::left << std::setw(16) << r.policy << std::right << std::setw(6) << s.pods << std::setw(10)
        << s.finished << std::setw(9) << s.running << std::setw(9) << s.pending << std::setw(10) << s.rejected
        << std::setw(10) << FixedDecimals(s.mean_gpu_alloc_pct, 1) + "%" << std::setw(7)
        << FixedDecimals(s.mean_frag_pct, 1) + "%"
        << "   " << std::left << std::setw(24)
        << (Human(s.queueing_delay.p50) + "/" + Human(s.queueing_delay.p90) + "/" + Human(s.queueing_delay.p99))
        << (s.jct.count ? Human(s.jct.p50) + "/" + Human(s.jct.p99) : std::string("-")) << std::right << "\n";
  }
}

// What gangs cost in the run (docs/gangs.md).
void WriteGangLines(std::ostream& out, const SimResult& r) {
  const GangSimMetrics& g = r.summary.gangs;
  if (g.gangs == 0) return;
  out << "\ngangs with " << r.policy << ": " << Plural(g.gangs, "gang", "gangs") << ", " << g.enforced
      << " enforced by their scheduler\n";
  if (g.enforced > 0) {
    out << "  started " << Plural(g.started, "time", "times");
    if (g.started > 0)
      out << ", wait from first member reserved to start p50/p99/max " << Human(g.wait.p50) << "/" << Human(g.wait.p99)
          << "/" << Human(g.wait.max);
    out << "; " << FixedDecimals(g.waiting_gpu_seconds, 0) << " GPU-seconds held by members waiting on Permit\n";
    out << "  " << Plural(g.timeouts, "Permit timeout", "Permit timeouts") << " ("
        << Plural(g.gangs_timed_out, "gang", "gangs") << ", " << Plural(g.retries, "retry", "retries") << ")";
    if (g.session_rejections > 0) out << ", " << Plural(g.session_rejections, "session", "sessions") << " discarded below minMember";
    if (g.optimistic_rejections > 0)
      out << ", " << Plural(g.optimistic_rejections, "optimistic rejection", "optimistic rejections") << " in PostFilter";
    out << "\n";
  }
  if (g.enforced < g.gangs)
    out << "  placed one by one: " << Plural(g.partial_groups, "group", "groups")
        << " ran partially (members running, never minCount at once), holding "
        << FixedDecimals(g.partial_gpu_hours, 2) << " GPU-hours\n";
}

// What preemption cost in each run (docs/preemption.md).
void WritePreemptionLines(std::ostream& out, const std::vector<SimResult>& runs, PreemptGangs preempt_gangs) {
  for (const SimResult& r : runs) {
    const SimSummary& s = r.summary;
    if (s.preemptions == 0) continue;
    out << "\npreemption with " << r.policy << ": " << Plural(s.preemptions, "preemption", "preemptions") << " evicted "
        << Plural(s.victims, "pod", "pods") << " (by priority:";
    for (const auto& [prio, n] : s.victims_by_priority) out << " " << prio << "=" << n;
    out << "), " << FixedDecimals(s.gpu_hours_lost, 2) << " GPU-hours of work lost; "
        << Plural(s.preempted, "bare pod", "bare pods") << " gone, the others recreated by their controllers\n";
    // --preempt-gangs (docs/preemption.md): what the evictions cost gangs.
    if (s.gangs_broken > 0)
      out << "  gangs broken by preemption (--preempt-gangs " << PreemptGangsName(preempt_gangs)
          << "): " << Plural(s.gangs_broken, "gang", "gangs") << " left below minCount, "
          << FixedDecimals(s.broken_gang_gpu_hours_lost, 2) << " GPU-hours of their work lost, "
          << FixedDecimals(s.broken_gang_idle_gpu_hours, 2)
          << " GPU-hours held idle by their members still running\n";
  }
}

// The first five pods each run left pending, and why.
void WritePendingLines(std::ostream& out, const std::vector<SimResult>& runs) {
  for (const SimResult& r : runs) {
    size_t shown = 0;
    for (const PodOutcome& p : r.pods) {
      if (p.state != PodOutcome::State::kPending) continue;
      if (shown == 0) out << "\npending at the end with " << r.policy << ":\n";
      if (++shown > 5) continue;
      out << "  " << p.name << ": " << p.reason << AdviceText(p.advice) << "\n";
    }
    if (shown > 5) out << "  ... and " << shown - 5 << " more (see pods.csv with -o)\n";
  }
}

void WriteSummary(std::ostream& out, const SimInputs& in, const RunSettings& settings,
                  const std::vector<SimResult>& runs) {
  out << "simulated " << Plural(static_cast<int64_t>(in.workload.pods.size()), "pod") << " on "
      << Plural(static_cast<int64_t>(in.initial_nodes.size()), "node");
  if (!in.workload.node_events.empty()) out << " (+" << Plural(static_cast<int64_t>(in.workload.node_events.size()), "node event") << ")";
  out << ", queue order " << QueueOrderName(settings.order) << ", seed " << settings.seed << "\n\n";
  WriteSummaryTable(out, runs);
  out << "\n  GPU ALLOC and FRAG are time-weighted means over the run; FRAG is FGD's fragmentation (free GPU share\n"
         "  no typical pod of this workload could use) as a % of GPU capacity; WAIT is arrival to first bind.\n";
  WritePreemptionLines(out, runs, settings.preempt_gangs);
  for (const SimResult& r : runs) WriteGangLines(out, r);
  WritePendingLines(out, runs);
}

// -o DIR and --report FILE; returns the exit code when one cannot be written.
std::optional<int> WriteSimulateFiles(const SimulateFlags& flags, const SimInputs& in, uint64_t seed,
                              const std::vector<SimResult>& runs, std::ostream& out, std::ostream& err) {
  if (!flags.output_dir.empty()) {
    Status st = WriteSimOutputs(flags.output_dir, runs);
    if (!st.ok()) {
      err << "error: --output-dir: " << st.message() << "\n";
      return kExitUsage;
    }
    out << "\nwrote " << (std::filesystem::path(flags.output_dir) / "summary.json").string()
        << " and per-policy timeseries.csv, pods.csv\n";
  }
  if (!flags.report.empty()) {
    ReportOptions ro;
    ro.title = "gpusched simulation";
    ro.subtitle = Plural(static_cast<int64_t>(in.workload.pods.size()), "pod") + " on " +
                  Plural(static_cast<int64_t>(in.initial_nodes.size()), "node") + ", seed " + std::to_string(seed);
    if (Status st = WriteOutputFile("--report", flags.report, RenderHtmlReport(runs, ro)); !st.ok()) {
      err << st.message() << "\n";
      return kExitUsage;
    }
    out << "wrote " << flags.report << "\n";
  }
  return std::nullopt;
}

}  // namespace

CLI::App* AddSimulateCommand(CLI::App& app, SimulateFlags& f) {
  CLI::App* cmd = app.add_subcommand("simulate", "Replay a workload over simulated time under one or more policies");
  cmd->add_option("-f,--filename", f.files,
                  "Cluster: Node manifests (file, directory or -) and/or a trace node list (*.csv); pods in them join "
                  "the workload")
      ->required()
      ->allow_extra_args(false);
  cmd->add_flag("-R,--recursive", f.recursive, "Read directories recursively");
  cmd->add_option("--workload", f.workload,
                  "Workload: a trace pod list (*.csv), a SyntheticWorkload spec (YAML) or pod manifests with "
                  "gpusched.io/arrival-time and gpusched.io/duration");
  AddSettingFlags(cmd, f.run, Command::kSimulate, {Setting::kConfig, Setting::kPolicy, Setting::kOrder, Setting::kSeed});
  cmd->add_option("-o,--output-dir", f.output_dir, "Write summary.json and per-policy timeseries.csv, pods.csv");
  cmd->add_option("--report", f.report, "Write a self-contained HTML report");
  cmd->add_option("--end", f.end_time, "Stop at this simulated time (seconds)")
      ->check(Number(0, std::numeric_limits<double>::infinity(), "a number of seconds"));
  AddSettingFlags(cmd, f.run, Command::kSimulate,
                  {Setting::kFeatureGates, Setting::kPreemptGangs, Setting::kSchedulerName});
  cmd->footer(WithProgram(kSimulateFooter, app.get_name()));
  return cmd;
}

int RunSimulate(const SimulateFlags& flags, std::ostream& out, std::ostream& err) {
  std::vector<std::string> warnings;
  RunResult<RunSettings> settings = ResolveSettings(flags.run, Command::kSimulate, &warnings);
  PrintWarnings(err, warnings);
  if (!settings.ok()) return PrintRunError(err, settings.error());
  for (const Status& st : {CheckManifestDirectories(flags.files, flags.recursive),
                           CheckInputPath("--workload", flags.workload,
                                          "a trace pod list (*.csv), a SyntheticWorkload spec or pod manifests"),
                           CheckManifestDirectories({flags.workload}, flags.recursive),
                           CheckOutputDirectory("--output-dir", flags.output_dir),
                           CheckOutputFile("--report", flags.report, flags.output_dir)}) {
    if (!st.ok()) {
      err << st.message() << "\n";
      return kExitUsage;
    }
  }
  SimRun run(*settings);
  Status st = run.Load(flags.files, flags.recursive, flags.workload);
  const SimInputs& in = run.inputs();
  PrintWarnings(err, in.workload.warnings);
  if (!st.ok()) {
    err << (st.message().starts_with("error: ") ? "" : "error: ") << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& e : in.rejected) err << "error: " << e.ToString() << "\n";
  for (const auto& e : in.workload.rejected) err << "error: " << e.ToString() << "\n";

  std::vector<SimResult> runs;
  for (const std::string& policy : settings->policies) {
    ProgressBar bar(err, "simulating " + policy, ProgressBar::StderrIsTerminal());
    Result<SimResult> r = run.Simulate(policy, flags.end_time >= 0 ? std::optional(flags.end_time) : std::nullopt,
                                       [&bar](double f) { bar.Update(f); });
    bar.Done();
    if (!r.ok()) {
      err << r.status().message() << "\n";
      return kExitUsage;
    }
    runs.push_back(std::move(r).value());
  }
  WriteSummary(out, in, *settings, runs);
  if (std::optional<int> code = WriteSimulateFiles(flags, in, settings->seed, runs, out, err)) return *code;
  return in.rejected.empty() && in.workload.rejected.empty() ? kExitOk : kExitRejected;
}

}  // namespace gpusched
