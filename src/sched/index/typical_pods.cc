// Pod shapes and the FGD target workload ("typical pods"), ported from the
// FGD simulator: utils.GetPodResource and utils.IsNodeAccessibleToPodByType
// (pkg/utils/utils.go), utils.GetTypicalPods and
// SortTargetPodInDecreasingCount (pkg/utils/frag.go), TargetPodList.Less and
// PodResource.Less (pkg/type/resource.go).
#include <algorithm>
#include <cmath>
#include <map>

#include "gpusched/model/pod_requests.h"
#include "gpusched/sched/index/frag.h"

namespace gpusched {

bool ShapeLess(const PodShape& a, const PodShape& b) {
  if (a.milli_cpu != b.milli_cpu) return a.milli_cpu < b.milli_cpu;
  if (a.milli_gpu != b.milli_gpu) return a.milli_gpu < b.milli_gpu;
  if (a.gpu_count != b.gpu_count) return a.gpu_count < b.gpu_count;
  return a.models < b.models;
}

PodShape ShapeOf(const PodInfo& pod) {
  PodShape s;
  if (pod.gpu.any()) {
    s.milli_gpu = pod.gpu.milli;
    s.gpu_count = pod.gpu.count;
  }
  if (pod.pod == nullptr) {
    s.milli_cpu = pod.non_zero_requests.milli_cpu;
    for (const auto& m : pod.gpu.models) s.models += (s.models.empty() ? "" : "|") + m;
    return s;
  }
  // GetNonzeroRequests per regular container: "override if un-set, but not
  // if explicitly set to zero".
  for (const Container& c : pod.pod->containers) {
    auto it = c.requests.find(kResourceCPU);
    s.milli_cpu += it == c.requests.end() ? kDefaultMilliCPURequest : it->second.MilliValue();
  }
  auto it = pod.pod->meta.annotations.find(kAnnotationGpuCardModel);
  if (it != pod.pod->meta.annotations.end()) s.models = it->second;
  return s;
}

bool PodHasNoRequests(const PodInfo& pod) {
  if (pod.pod == nullptr) return pod.requests == Resources{};
  for (const Container& c : pod.pod->containers)
    if (!c.requests.empty()) return false;
  for (const Container& c : pod.pod->init_containers)
    if (!c.requests.empty()) return false;
  return pod.pod->overhead.empty();
}

bool ModelListAllows(std::string_view models, std::string_view node_model) {
  if (models.empty()) return true;
  if (node_model.empty()) return false;  // a CPU node
  bool named_any = false;
  size_t start = 0;
  while (start <= models.size()) {
    size_t bar = models.find('|', start);
    if (bar == std::string_view::npos) bar = models.size();
    std::string_view m = models.substr(start, bar - start);
    if (!m.empty()) {
      named_any = true;
      if (m == node_model) return true;
    }
    start = bar + 1;
  }
  // Only empty entries: the pod does not actually ask for a model.
  return !named_any;
}

TypicalPods ComputeTypicalPods(const std::vector<PodShape>& all_pods, double popularity_threshold) {
  // Counts are float64 upstream (weighted counts; the weight is 1 here), so
  // every sum below is an exact integer and the divisions match upstream's.
  std::map<PodShape, double, decltype(&ShapeLess)> counts(&ShapeLess);
  for (const PodShape& s : all_pods) counts[s] += 1;
  const double total = static_cast<double>(all_pods.size());

  std::vector<TypicalPod> list;
  list.reserve(counts.size());
  for (const auto& [shape, n] : counts) list.push_back(TypicalPod{shape, n});
  // sort.Sort(sort.Reverse(pl)): count descending, then the larger shape
  // first. The order is total, so upstream's unstable sort is deterministic.
  std::sort(list.begin(), list.end(), [](const TypicalPod& a, const TypicalPod& b) {
    if (a.freq != b.freq) return a.freq > b.freq;
    return ShapeLess(b.shape, a.shape);
  });

  // Upstream falls back to its default of 60% for a threshold <= 0.
  double percent = popularity_threshold > 0 ? popularity_threshold * 100.0 : 60.0;
  if (std::abs(percent - std::round(percent)) < 1e-9) percent = std::round(percent);
  const double expected = percent * total / 100.0;
  // With a step of one, the loop takes one shape at a time until the
  // cumulative count reaches `expected` (upstream would spin forever past
  // the last shape when the threshold exceeds 100%; we stop there).
  size_t i = 0;
  double cum = 0;
  while (cum < expected && i < list.size()) {
    cum += list[i].freq;
    list[i].freq = list[i].freq / total;
    ++i;
  }
  TypicalPods out;
  if (i >= list.size()) {
    // Every shape is typical: upstream returns the list without renormalising.
    out.pods = std::move(list);
    return out;
  }
  list.resize(i);
  for (TypicalPod& tp : list) tp.freq /= cum / total;
  out.pods = std::move(list);
  return out;
}

}  // namespace gpusched
