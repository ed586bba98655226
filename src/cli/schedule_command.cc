// `gpusched schedule` and `gpusched explain`: load manifests (and a
// KubeSchedulerConfiguration), schedule the pods in one batch, print the
// report or one pod's explanation. `explain` records the per-node detail of
// its one pod only, so it costs what `schedule` costs.
#include <algorithm>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/flag_checks.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/cli/pod_lookup.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/report/controller_explain.h"
#include "gpusched/report/explain_writer.h"
#include "gpusched/report/json_writer.h"
#include "gpusched/report/table_writer.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/framework/gang_serving.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/util/exit_memory.h"

namespace gpusched {
namespace {

// What a run builds that grows with the input; see util/exit_memory.h for why
// it is not destroyed when the process ends with the command.
struct RunHeap {
  std::unique_ptr<Manifests> manifests = std::make_unique<Manifests>();
  std::unique_ptr<std::vector<const Pod*>> pods = std::make_unique<std::vector<const Pod*>>();
  std::unique_ptr<std::vector<PodShape>> shapes = std::make_unique<std::vector<PodShape>>();
  std::unique_ptr<ClusterState> cluster;
  std::unique_ptr<BatchResult> result;
  std::vector<const PodDisruptionBudget*> pdbs;  // into *manifests; small
  ~RunHeap() {
    KeepUntilExit(std::move(result));
    KeepUntilExit(std::move(cluster));
    KeepUntilExit(std::move(shapes));
    KeepUntilExit(std::move(pods));
    KeepUntilExit(std::move(manifests));
  }
};

}  // namespace

int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err) {
  const bool explaining = !flags.explain_pod.empty();
  const std::string policy = !flags.policy.empty() ? flags.policy : (flags.config.empty() ? "first-fit" : "kube-default");
  const std::string order_name = !flags.order.empty() ? flags.order : (policy == "kube-default" ? "priority" : "fifo");
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
  if (flags.output != "table" && flags.output != "json") {
    err << "error: unknown --output \"" << flags.output << "\" (known: table, json)\n";
    return kExitUsage;
  }
  // A flag that would change nothing is refused, never ignored.
  if (flags.explain && flags.output != "json") {
    err << "error: --explain adds every pod's per-node breakdown to -o json; for one pod as a table, run "
           "'gpusched explain -f ... POD'\n";
    return kExitUsage;
  }
  if (flags.quiet && flags.output != "table") {
    err << "error: --quiet shortens the table; -o json always holds everything\n";
    return kExitUsage;
  }

  KubeSchedulerConfiguration config = DefaultSchedulerConfiguration();
  if (!flags.config.empty()) {
    std::vector<std::string> cfg_warnings;
    Result<KubeSchedulerConfiguration> loaded = LoadSchedulerConfigFile(flags.config, &cfg_warnings, InTreePlugins());
    for (const auto& w : cfg_warnings) err << "warning: " << w << "\n";
    if (!loaded.ok()) {
      err << "error: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    config = std::move(loaded).value();
  }
  if (!IsKnownPolicy(policy)) {
    err << UnknownPolicyMessage(policy) << "\n";
    return kExitUsage;
  }
  Result<std::vector<ExtraProfile>> parsed_extra = ParseSchedulerNameFlags(flags.scheduler_names);
  if (!parsed_extra.ok()) {
    err << parsed_extra.status().message() << "\n";
    return kExitUsage;
  }
  const std::vector<ExtraProfile> extra = std::move(parsed_extra).value();

  if (Status st = CheckManifestDirectories(flags.files, flags.recursive); !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  RunHeap heap;
  Manifests& m = *heap.manifests;
  Status st = LoadManifestPaths(flags.files, LoadOptions{flags.recursive}, m);
  if (!st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& w : m.warnings) err << "warning: " << w << "\n";

  std::vector<const Pod*>& pods = *heap.pods;
  pods.reserve(m.pods.size());
  for (const auto& p : m.pods) pods.push_back(&p.pod);

  // The pod (or controller) to explain is found before anything is scheduled.
  std::optional<size_t> explain_pod, explain_controller;
  if (explaining) {
    ExplainTarget target = FindExplainTarget(PodQuery{flags.explain_pod, flags.namespace_}, pods, m.rejected);
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
      if (found.size() == 1) explain_controller = found.front();
    }
    if (!explain_controller) {
      switch (target.kind) {
        case ExplainTarget::Kind::kPod:
          explain_pod = target.pods.front();
          break;
        case ExplainTarget::Kind::kRejected:
          out << "rejected, not scheduled: " << target.rejected->ToString() << "\n";
          return kExitRejected;
        case ExplainTarget::Kind::kAmbiguous:
        case ExplainTarget::Kind::kNotFound:
        case ExplainTarget::Kind::kInvalid:
          err << target.error << "\n";
          return kExitUsage;
      }
    }
  }

  // FGD's target workload: the pods given (GetTypicalPods).
  std::vector<PodShape>& shapes = *heap.shapes;
  shapes.reserve(m.pods.size());
  for (size_t i = 0; i < m.pods.size(); ++i) shapes.push_back(ShapeOf(PodInfo::Make(m.pods[i].pod, i)));
  const TypicalPods typical = ComputeTypicalPods(shapes);
  PolicyOptions popts;
  popts.typical = &typical;
  Result<SchedulerSet> schedulers = BuildSchedulers(config, policy, flags.seed, popts, extra);
  if (!schedulers.ok()) {
    err << schedulers.status().message() << "\n";
    return kExitUsage;
  }

  Result<ScheduleFeatureGates> gates = ParseScheduleFeatureGates(flags.feature_gates);
  if (!gates.ok()) {
    err << gates.status().message() << "\n";
    return kExitUsage;
  }
  Result<GangServing> gang_serving = BuildGangServing(config, extra, *gates);
  if (!gang_serving.ok()) {
    err << gang_serving.status().message() << "\n";
    return kExitUsage;
  }

  std::vector<Node> nodes;
  nodes.reserve(m.nodes.size());
  for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
  heap.cluster = std::make_unique<ClusterState>(std::move(nodes));
  ClusterState& cluster = *heap.cluster;

  BatchOptions batch_options;
  batch_options.order = *order;
  batch_options.explain = flags.explain;
  batch_options.explain_pod = explain_pod;
  batch_options.dra = &m.dra;
  batch_options.gangs = &m.gangs;
  batch_options.gang_serving = &*gang_serving;
  // ScheduleBatch reads the PDBs while it runs; they live in `heap` with
  // the manifests they point into.
  for (const LoadedPdb& p : m.pdbs) heap.pdbs.push_back(&p.pdb);
  batch_options.pdbs = &heap.pdbs;
  batch_options.controller_scales = &m.controller_scales;
  batch_options.preempt_gangs = *preempt_gangs;
  heap.result = std::make_unique<BatchResult>(ScheduleBatch(pods, cluster, schedulers->profiles, batch_options));
  const BatchResult& result = *heap.result;

  RunReport report{cluster, pods, result, m.rejected, m.warnings, policy, QueueOrderName(*order)};
  report.gangs = &m.gangs;
  report.gang_serving = &*gang_serving;
  if (flags.explain) report.unimplemented = schedulers->unimplemented;
  const bool any_rejected = !m.rejected.empty() || !result.refused.empty();

  if (explain_controller) {
    WriteControllerExplain(out, report, m.controller_pods[*explain_controller]);
    return any_rejected ? kExitRejected : kExitOk;
  }
  if (explain_pod) {
    ExplainOptions eo;
    eo.max_nodes = ParseCountOrAll(flags.nodes);
    WriteExplain(out, report, *explain_pod, eo);
    return any_rejected ? kExitRejected : kExitOk;
  }
  if (flags.output == "json" || flags.quiet) {
    // The full table lists rejected objects itself; with JSON or --quiet on
    // stdout, a person still sees them on stderr.
    for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
  }
  if (flags.quiet) {
    for (const auto& f : result.refused) err << "error: " << DisplayName(*pods[f.pod]) << ": " << f.error << "\n";
  }
  if (flags.output == "json") {
    WriteJson(out, report);
  } else {
    WriteTable(out, report, TableOptions{flags.quiet});
  }
  return any_rejected ? kExitRejected : kExitOk;
}

}  // namespace gpusched
