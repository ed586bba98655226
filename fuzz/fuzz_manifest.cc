// libFuzzer target: the manifest loader (YAML through libyaml with YAML 1.1
// resolution and merge keys, JSON through simdjson with Lists read item by
// item and streams of objects, strict decoding, multi-document, workloads),
// then scheduling what loaded, so that whatever a file holds either becomes
// objects that schedule or errors that name it.
#include <cstdint>
#include <string_view>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/policies/policy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpusched::Manifests m;
  gpusched::LoadManifestText(text, "fuzz.yaml", m);
  gpusched::ResolvePriorities(m);
  std::vector<gpusched::Node> nodes;
  for (auto& n : m.nodes) nodes.push_back(n.node);
  gpusched::ClusterState cluster(std::move(nodes));
  std::vector<const gpusched::Pod*> pods;
  for (const auto& p : m.pods) pods.push_back(&p.pod);
  gpusched::Scheduler scheduler(gpusched::DefaultFilters(), std::make_unique<gpusched::BestFitPolicy>(), 1);
  (void)gpusched::ScheduleBatch(pods, cluster, scheduler, gpusched::QueueOrder::kFifo);
  return 0;
}
