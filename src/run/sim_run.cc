#include "gpusched/run/sim_run.h"

namespace gpusched {

Status SimRun::Load(const std::vector<std::string>& cluster_paths, bool recursive, const std::string& workload) {
  // The configuration is the settings' (read once, by ResolveSettings).
  Status st = LoadSimInputs(SimInputSpec{cluster_paths, recursive, workload, settings_.seed, settings_.seed_given},
                            inputs_);
  if (!st.ok()) return st;
  std::vector<const Pod*> pods;
  pods.reserve(inputs_.workload.pods.size());
  for (const auto& p : inputs_.workload.pods) pods.push_back(&p.pod);
  // Every policy's fragmentation is measured against them (SimMetrics), not only FGD's choices.
  typical_ = TypicalPodsOf(pods);
  return Status::Ok();
}

Result<SimResult> SimRun::Simulate(std::string_view policy, std::optional<double> end_time,
                                   std::function<void(double fraction)> progress) const {
  Result<SchedulerSet> set = SchedulersFor(settings_, policy, typical_);
  if (!set.ok()) return set.status();
  SimOptions opts;
  auto objects = std::make_shared<ApiObjects>(inputs_.api_objects);
  objects->dra = inputs_.dra;  // DynamicResources reads them with the cluster
  // PreEnqueue reads the very objects the plugin does (one copy per run).
  opts.dra = &objects->dra;
  opts.objects = std::move(objects);
  opts.gangs = &inputs_.gangs;
  opts.gang_serving = &settings_.gang_serving;
  opts.preempt_gangs = settings_.preempt_gangs;
  opts.policy = std::string(policy);
  opts.order = settings_.order;
  opts.initial_backoff = static_cast<double>(settings_.config.pod_initial_backoff_seconds);
  opts.max_backoff = static_cast<double>(settings_.config.pod_max_backoff_seconds);
  opts.pop_from_backoff_q = settings_.gates.pop_from_backoff_q;
  opts.queueing_hints = settings_.gates.queueing_hints;
  const TypicalPods& typical = typical_;
  opts.node_frag_milli = [&typical](const ClusterState& c, size_t i) { return NodeFragMilli(c.state(i), typical); };
  opts.end_time = end_time;
  opts.progress = std::move(progress);
  return gpusched::Simulate(inputs_.workload, inputs_.initial_nodes, set->profiles, opts);
}

}  // namespace gpusched
