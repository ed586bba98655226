// `gpusched simulate`: load a cluster and a workload, replay it over
// simulated time under one or more policies, print a summary per policy and
// write the time series, pod outcomes and HTML report on request.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/cli/progress.h"
#include "gpusched/report/html_report.h"
#include "gpusched/report/sim_writers.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/framework/gang_serving.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sim/simulator.h"
#include "gpusched/siminput/sim_inputs.h"

namespace gpusched {
namespace {

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

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

// Issue 16: what gangs cost in the run (docs/gangs.md).
void WriteGangLines(std::ostream& out, const SimResult& r) {
  const GangSimMetrics& g = r.summary.gangs;
  if (g.gangs == 0) return;
  auto plural = [](int64_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  out << "\ngangs with " << r.policy << ": " << plural(g.gangs, "gang", "gangs") << ", " << g.enforced
      << " enforced by their scheduler\n";
  if (g.enforced > 0) {
    out << "  started " << plural(g.started, "time", "times");
    if (g.started > 0)
      out << ", wait from first member reserved to start p50/p99/max " << Human(g.wait.p50) << "/" << Human(g.wait.p99)
          << "/" << Human(g.wait.max);
    out << "; " << FixedDecimals(g.waiting_gpu_seconds, 0) << " GPU-seconds held by members waiting on Permit\n";
    out << "  " << plural(g.timeouts, "Permit timeout", "Permit timeouts") << " ("
        << plural(g.gangs_timed_out, "gang", "gangs") << ", " << plural(g.retries, "retry", "retries") << ")";
    if (g.session_rejections > 0) out << ", " << plural(g.session_rejections, "session", "sessions") << " discarded below minMember";
    if (g.optimistic_rejections > 0)
      out << ", " << plural(g.optimistic_rejections, "optimistic rejection", "optimistic rejections") << " in PostFilter";
    out << "\n";
  }
  if (g.enforced < g.gangs)
    out << "  placed one by one: " << plural(g.partial_groups, "group", "groups")
        << " ran partially (members running, never minCount at once), holding "
        << FixedDecimals(g.partial_gpu_hours, 2) << " GPU-hours\n";
}

}  // namespace

int RunSimulate(const SimulateFlags& flags, std::ostream& out, std::ostream& err) {
  std::vector<std::string> policies = SplitList(flags.policies.empty() ? "kube-default" : flags.policies);
  for (const auto& p : policies) {
    if (!IsKnownPolicy(p)) {
      err << UnknownPolicyMessage(p) << "\n";
      return kExitUsage;
    }
  }
  const std::string order_name = flags.order.empty() ? "priority" : flags.order;
  std::optional<QueueOrder> order = ParseQueueOrder(order_name);
  if (!order) {
    err << "error: unknown --order \"" << order_name << "\" (known: " << kQueueOrderNames << ")\n";
    return kExitUsage;
  }
  const std::optional<PreemptGangs> preempt_gangs = ParsePreemptGangs(flags.preempt_gangs);
  if (!preempt_gangs) {
    err << "error: unknown --preempt-gangs \"" << flags.preempt_gangs << "\" (known: " << kPreemptGangsNames
        << ")\n";
    return kExitUsage;
  }
  bool pop_from_backoff_q = true, queueing_hints = true;
  std::string gang_gates;  // GangScheduling, GenericWorkload: read as `schedule` reads them
  {
    std::stringstream gates(flags.feature_gates);
    for (std::string gate; std::getline(gates, gate, ',');) {
      if (gate == "SchedulerPopFromBackoffQ=true" || gate == "SchedulerPopFromBackoffQ=false") {
        pop_from_backoff_q = gate.ends_with("true");
      } else if (gate == "SchedulerQueueingHints=true" || gate == "SchedulerQueueingHints=false") {
        queueing_hints = gate.ends_with("true");
      } else if (gate.starts_with("GangScheduling=") || gate.starts_with("GenericWorkload=")) {
        gang_gates += gate + ",";
      } else if (!gate.empty()) {
        err << "error: unsupported --feature-gates entry \"" << gate
            << "\" (gpusched simulates only SchedulerPopFromBackoffQ=true|false and "
               "SchedulerQueueingHints=true|false), and reads GangScheduling=true|false and "
               "GenericWorkload=true|false for gangs\n";
        return kExitUsage;
      }
    }
  }
  if (Status st = CheckManifestDirectories(flags.files, flags.recursive); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  Result<std::vector<ExtraProfile>> parsed_extra = ParseSchedulerNameFlags(flags.scheduler_names);
  if (!parsed_extra.ok()) {
    err << parsed_extra.status().message() << "\n";
    return kExitUsage;
  }
  const std::vector<ExtraProfile> extra = std::move(parsed_extra).value();
  SimInputs in;
  Status st = LoadSimInputs(SimInputSpec{flags.files, flags.recursive, flags.workload, flags.config, flags.seed,
                                         flags.seed_given, &InTreePlugins()},
                            in);
  for (const auto& w : in.warnings) err << "warning: " << w << "\n";
  for (const auto& w : in.workload.warnings) err << "warning: " << w << "\n";
  if (!st.ok()) {
    err << (st.message().starts_with("error: ") ? "" : "error: ") << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& e : in.rejected) err << "error: " << e.ToString() << "\n";
  for (const auto& e : in.workload.rejected) err << "error: " << e.ToString() << "\n";
  const bool any_rejected = !in.rejected.empty() || !in.workload.rejected.empty();

  Result<ScheduleFeatureGates> gates = ParseScheduleFeatureGates(gang_gates);
  if (!gates.ok()) {
    err << gates.status().message() << "\n";
    return kExitUsage;
  }
  // Which profile enforces which gangs, exactly as `schedule` reads it.
  Result<GangServing> gang_serving = BuildGangServing(in.config, extra, *gates);
  if (!gang_serving.ok()) {
    err << gang_serving.status().message() << "\n";
    return kExitUsage;
  }

  // FGD's target workload: the pods of this workload (GetTypicalPods).
  std::vector<PodShape> shapes;
  shapes.reserve(in.workload.pods.size());
  for (size_t i = 0; i < in.workload.pods.size(); ++i)
    shapes.push_back(ShapeOf(PodInfo::Make(in.workload.pods[i].pod, i)));
  const TypicalPods typical = ComputeTypicalPods(shapes);

  std::vector<SimResult> runs;
  for (const std::string& policy : policies) {
    PolicyOptions popts;
    popts.typical = &typical;
    Result<SchedulerSet> set = BuildSchedulers(in.config, policy, flags.seed, popts, extra);
    if (!set.ok()) {
      err << set.status().message() << "\n";
      return kExitUsage;
    }
    SimOptions opts;
    opts.dra = &in.dra;
    opts.gangs = &in.gangs;
    opts.gang_serving = &*gang_serving;
    opts.preempt_gangs = *preempt_gangs;
    opts.policy = policy;
    opts.order = *order;
    opts.initial_backoff = static_cast<double>(in.config.pod_initial_backoff_seconds);
    opts.max_backoff = static_cast<double>(in.config.pod_max_backoff_seconds);
    opts.pop_from_backoff_q = pop_from_backoff_q;
    opts.queueing_hints = queueing_hints;
    opts.node_frag_milli = [&typical](const ClusterState& c, size_t i) { return NodeFragMilli(c.state(i), typical); };
    if (flags.end_time >= 0) opts.end_time = flags.end_time;
    ProgressBar bar(err, "simulating " + policy, ProgressBar::StderrIsTerminal());
    opts.progress = [&bar](double f) { bar.Update(f); };
    runs.push_back(Simulate(in.workload, in.initial_nodes, set->profiles, opts));
    bar.Done();
  }

  out << "simulated " << in.workload.pods.size() << " pods on " << in.initial_nodes.size() << " nodes";
  if (!in.workload.node_events.empty()) out << " (+" << in.workload.node_events.size() << " node events)";
  out << ", queue order " << QueueOrderName(*order) << ", seed " << flags.seed << "\n\n";
  WriteSummaryTable(out, runs);
  out << "\n  GPU ALLOC and FRAG are time-weighted means over the run; FRAG is FGD's fragmentation (free GPU share\n"
         "  no typical pod of this workload could use) as a % of GPU capacity; WAIT is arrival to first bind.\n";
  for (const SimResult& r : runs) {
    const SimSummary& s = r.summary;
    if (s.preemptions == 0) continue;
    auto plural = [](int64_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
    out << "\npreemption with " << r.policy << ": " << plural(s.preemptions, "preemption", "preemptions") << " evicted "
        << plural(s.victims, "pod", "pods") << " (by priority:";
    for (const auto& [prio, n] : s.victims_by_priority) out << " " << prio << "=" << n;
    out << "), " << FixedDecimals(s.gpu_hours_lost, 2) << " GPU-hours of work lost; "
        << plural(s.preempted, "bare pod", "bare pods") << " gone, the others recreated by their controllers\n";
    // --preempt-gangs (docs/preemption.md): what the evictions cost gangs.
    if (s.gangs_broken > 0)
      out << "  gangs broken by preemption (--preempt-gangs " << PreemptGangsName(*preempt_gangs)
          << "): " << plural(s.gangs_broken, "gang", "gangs") << " left below minCount, "
          << FixedDecimals(s.broken_gang_gpu_hours_lost, 2) << " GPU-hours of their work lost, "
          << FixedDecimals(s.broken_gang_idle_gpu_hours, 2)
          << " GPU-hours held idle by their members still running\n";
  }
  for (const SimResult& r : runs) WriteGangLines(out, r);
  for (const SimResult& r : runs) {
    size_t shown = 0;
    for (const PodOutcome& p : r.pods) {
      if (p.state != PodOutcome::State::kPending) continue;
      if (shown == 0) out << "\npending at the end with " << r.policy << ":\n";
      if (++shown > 5) continue;
      out << "  " << p.name << ": " << p.reason << "\n";
    }
    if (shown > 5) out << "  ... and " << shown - 5 << " more (see pods.csv with -o)\n";
  }
  if (!flags.output_dir.empty()) {
    Status st = WriteSimOutputs(flags.output_dir, runs);
    if (!st.ok()) {
      err << "error: " << st.message() << "\n";
      return kExitUsage;
    }
    out << "\nwrote " << flags.output_dir << "/summary.json and per-policy timeseries.csv, pods.csv\n";
  }
  if (!flags.report.empty()) {
    ReportOptions ro;
    ro.title = "gpusched simulation";
    ro.subtitle = std::to_string(in.workload.pods.size()) + " pods on " + std::to_string(in.initial_nodes.size()) +
                  " nodes, seed " + std::to_string(flags.seed);
    std::ofstream f(flags.report, std::ios::binary);
    f << RenderHtmlReport(runs, ro);
    if (!f) {
      err << "error: cannot write \"" << flags.report << "\"\n";
      return kExitUsage;
    }
    out << "wrote " << flags.report << "\n";
  }
  return any_rejected ? kExitRejected : kExitOk;
}

}  // namespace gpusched
