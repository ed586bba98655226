// Builders shared by the scheduler tests: pods and node states from plain
// numbers, in the spirit of upstream's newResourcePod/makeAllocatableResources.
#ifndef GPUSCHED_TESTS_SCHED_TEST_UTIL_H_
#define GPUSCHED_TESTS_SCHED_TEST_UTIL_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/gang.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/model/resources.h"

namespace gpusched::testing {

// framework.Resource-like literal.
struct Res {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral = 0;
  std::map<std::string, int64_t> scalars;
};

inline ResourceList ToList(const Res& r) {
  ResourceList l;
  if (r.milli_cpu) l["cpu"] = Quantity::FromMilli(r.milli_cpu);
  if (r.memory) l["memory"] = Quantity::FromInt(r.memory, Quantity::Format::kBinarySI);
  if (r.ephemeral) l["ephemeral-storage"] = Quantity::FromInt(r.ephemeral, Quantity::Format::kBinarySI);
  for (const auto& [n, v] : r.scalars) l[n] = Quantity::FromInt(v);
  return l;
}

inline Resources ToResources(const Res& r) { return Resources::FromList(ToList(r)); }

// A pod whose containers request `containers` and whose init containers request `init`.
inline Pod ResourcePod(const std::vector<Res>& containers, const std::vector<Res>& init = {},
                       const Res& overhead = {}) {
  Pod p;
  p.meta.name = "p";
  p.meta.namespace_ = "default";
  int i = 0;
  for (const auto& r : containers) p.containers.push_back(Container{"c" + std::to_string(i++), "img", ToList(r), {}, "", {}});
  for (const auto& r : init) p.init_containers.push_back(Container{"i" + std::to_string(i++), "img", ToList(r), {}, "", {}});
  p.overhead = ToList(overhead);
  return p;
}

inline Node GpuNode(const std::string& name, int64_t gpus, int64_t milli_cpu = 32000, int64_t memory = 1LL << 37,
                    int64_t pods = 110) {
  Node n;
  n.meta.name = name;
  n.has_allocatable = true;
  n.allocatable["cpu"] = Quantity::FromMilli(milli_cpu);
  n.allocatable["memory"] = Quantity::FromInt(memory, Quantity::Format::kBinarySI);
  n.allocatable["pods"] = Quantity::FromInt(pods);
  if (gpus >= 0) n.allocatable["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  return n;
}

inline Pod GpuPod(const std::string& name, int64_t gpus, int64_t milli_cpu = 0) {
  Res r;
  r.milli_cpu = milli_cpu;
  if (gpus > 0) r.scalars["nvidia.com/gpu"] = gpus;
  Pod p = ResourcePod({r});
  p.meta.name = name;
  return p;
}

// A pod "train" (1 cpu, no GPU) with spec.resourceClaims, for the
// DynamicResources tests (plugins/ and framework/).
inline Pod ClaimPod(std::vector<PodResourceClaim> claims) {
  Pod p = GpuPod("train", 0, 1000);
  auto e = std::make_shared<PodSpecExtras>();
  e->resource_claims = std::move(claims);
  p.extras = std::move(e);
  return p;
}

// A gang an operator implies (kOperator, as a PyTorchJob's expansion makes
// it): `name` in namespace default with minimum `min_count`, its members by
// pod name in namespace default.
inline PodGroupDecl OperatorGroup(const std::string& name, int32_t min_count, const std::vector<std::string>& members) {
  PodGroupDecl d;
  d.api = GangApi::kOperator;
  d.ns = "default";
  d.name = name;
  d.min_count = min_count;
  d.implied = true;
  for (const std::string& m : members) d.members.push_back("default/" + m);
  return d;
}

// Leaves a reader current up to change log position `pos` too far behind
// to replay: binds one more pod (a whole GPU where one is free, else 100m
// cpu) on every `stride`-th present node, then binds and unbinds a pod on
// the last present node until the log no longer holds those binds either.
// A reader that skipped what the log lost would miss every one of them.
// Ids from `first_id` on.
inline void ChurnPastTheLog(ClusterState& c, uint64_t pos, uint64_t first_id = uint64_t{1} << 40, size_t stride = 2) {
  Res cpu;
  cpu.milli_cpu = 100;
  Res gpu = cpu;
  gpu.scalars["nvidia.com/gpu"] = 1;
  const Resources small = ToResources(cpu), whole = ToResources(gpu);
  uint64_t id = first_id;
  size_t last = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c.present(i)) continue;
    last = i;
    if (i % stride == 0) c.Bind(i, c.state(i).GpuFree() > 0 ? whole : small, small, id++);
  }
  const uint64_t lost = c.version() > pos ? c.version() - 1 : pos;  // the last of those binds, or `pos`
  while (c.change_log().Holds(lost)) {
    c.Bind(last, small, small, id);
    c.Unbind(last, id++);
  }
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SCHED_TEST_UTIL_H_
