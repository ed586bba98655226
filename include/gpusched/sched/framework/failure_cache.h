// FailureCache: failures are deterministic, so a pod of the class
// (pod_class.h) of one that failed fails again, with the same Failure,
// while the cluster is unchanged (same ClusterState::serial and version).
// A simulation retries many such pods after every event and a batch holds
// many pods of one shape: each gets the shared Failure for a lookup
// (tests/sched/framework/failure_cache_test.cc).
//
// Safe (Usable) when the chain is declared: every filter reads of a pod
// only its class, so pods of one class meet the same verdicts.
#ifndef GPUSCHED_SCHED_FRAMEWORK_FAILURE_CACHE_H_
#define GPUSCHED_SCHED_FRAMEWORK_FAILURE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/fit_error.h"
#include "gpusched/sched/api/pod_class.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/framework/chain_traits.h"
#include "gpusched/sched/plugins/defaultpreemption/preemption.h"

namespace gpusched {

// Why a pod fits nowhere, made once and shared by every pod of its class
// that fails against the same cluster.
struct Failure {
  FitError fit_error;
  std::optional<PreemptionVerdict> preemption;  // when the profile preempts
  std::string message;  // fit_error.Error()
  // Bit k: filters()[k] failed some node (k >= 63 share bit 63), i.e.
  // upstream's Diagnosis.UnschedulablePlugins, which decide the queueing
  // hints that may requeue the pod. 0 when unknown (a failure not
  // explained, or no node at all).
  uint64_t rejectors = 0;
};

class FailureCache {
 public:
  static bool Usable(const ChainTraits& chain) { return chain.declared; }

  // Forgets every failure unless `cluster` is the one, unchanged, they
  // were met on. Call before Find and Keep.
  void Sync(const ClusterState& cluster);
  bool empty() const { return failures_.empty(); }
  // The failure kept for pod's class (`hash` = ClassHash(pod)), or nullptr.
  const std::shared_ptr<const Failure>* Find(const PodInfo& pod, size_t hash) const;
  // Keeps `failure` for pod's class; returns it.
  std::shared_ptr<const Failure> Keep(const PodInfo& pod, size_t hash, std::shared_ptr<const Failure> failure);

  static constexpr size_t kMaxFailures = 4096;

 private:
  uint64_t serial_ = 0;   // ClusterState::serial()
  uint64_t version_ = 0;  // ClusterState::version()
  struct Kept {
    PodClassKey key;
    std::shared_ptr<const Failure> failure;
  };
  std::unordered_multimap<size_t, Kept> failures_;  // by ClassHash
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_FAILURE_CACHE_H_
