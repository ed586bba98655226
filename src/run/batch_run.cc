#include "gpusched/run/batch_run.h"

#include "gpusched/sched/index/frag.h"
#include "gpusched/util/exit_memory.h"

namespace gpusched {

BatchRun::BatchRun()
    : manifests_(std::make_unique<Manifests>()),
      pods_(std::make_unique<std::vector<const Pod*>>()) {}

BatchRun::~BatchRun() {
  KeepUntilExit(std::move(result_));
  KeepUntilExit(std::move(cluster_));
  KeepUntilExit(std::move(pods_));
  KeepUntilExit(std::move(manifests_));
}

Status BatchRun::Load(const std::vector<std::string>& paths, bool recursive) {
  Status st = LoadManifestPaths(paths, LoadOptions{recursive}, *manifests_);
  if (!st.ok()) return st;
  pods_->reserve(manifests_->pods.size());
  for (const auto& p : manifests_->pods) pods_->push_back(&p.pod);
  return Status::Ok();
}

Status BatchRun::Schedule(const RunSettings& settings, const BatchDetail& detail) {
  Manifests& m = *manifests_;
  // FGD's target workload: the pods given (GetTypicalPods).
  const TypicalPods typical = TypicalPodsFor(settings, *pods_);
  Result<SchedulerSet> schedulers = SchedulersFor(settings, settings.policies.front(), typical);
  if (!schedulers.ok()) return schedulers.status();
  schedulers_ = std::move(schedulers).value();

  std::vector<Node> nodes;
  nodes.reserve(m.nodes.size());
  for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
  cluster_ = std::make_unique<ClusterState>(std::move(nodes));
  auto objects = std::make_shared<ApiObjects>(m.api_objects);
  objects->dra = m.dra;  // DynamicResources reads them with the cluster
  cluster_->set_objects(std::move(objects));

  BatchOptions options;
  options.order = settings.order;
  options.explain = detail.every_pod;
  options.explain_pod = detail.pod;
  options.dra = &cluster_->objects().dra;  // PreEnqueue reads the very objects the plugin does
  options.gangs = &m.gangs;
  options.gang_serving = &settings.gang_serving;
  // ScheduleBatch reads the PDBs while it runs; they live with the
  // manifests they point into.
  for (const LoadedPdb& p : m.pdbs) pdbs_.push_back(&p.pdb);
  options.pdbs = &pdbs_;
  options.controller_scales = &m.controller_scales;
  options.preempt_gangs = settings.preempt_gangs;
  result_ = std::make_unique<BatchResult>(ScheduleBatch(*pods_, *cluster_, schedulers_.profiles, options));
  return Status::Ok();
}

}  // namespace gpusched
