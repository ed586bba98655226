// PodClass: pods the scheduler cannot tell apart when a pod fits nowhere.
// Two pods of one class get the same filter verdict on every node, hence the
// same FitError (with DefaultPreemption's message), the same unschedulable
// plugins and the same Diagnosis, and the same answer from every queueing
// hint — on a given cluster. The caches that share those answers
// (Scheduler's failures, DiagnosisCache, the simulator's pod classes) key
// on it.
//
// The class holds everything of a pod that the filters, the preemption dry
// run, the diagnosis and the hints read: the effective requests, the GPU
// request (count, share, models), priority and preemptionPolicy,
// schedulerName (the profile), and the placement constraints (nodeName,
// nodeSelector, required node affinity, tolerations). What only scoring
// reads (preferred affinity, the non-zero requests) is left out: a pod that
// fits is always scheduled on its own. A filter, a diagnosis case
// (diagnosis_parts::DiagnoseNodeSet) or a queueing hint that reads anything
// else of a pod — scheduling gates, resource claims... — must add it here
// (SameClass, ClassHash and PodClassKey's copy), or the caches would share
// one pod's answer with another that deserves a different one.
#ifndef GPUSCHED_SCHED_API_POD_CLASS_H_
#define GPUSCHED_SCHED_API_POD_CLASS_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// True when a and b are of one class.
bool SameClass(const PodInfo& a, const PodInfo& b);
// A hash consistent with SameClass.
size_t ClassHash(const PodInfo& pod);

// A pod's class held on its own: a PodInfo whose Pod is a copy of just the
// fields SameClass reads, so that a cache may outlive the pods it saw.
class PodClassKey {
 public:
  explicit PodClassKey(const PodInfo& pod);
  PodClassKey(const PodClassKey& o) : pod_(o.pod_), info_(o.info_) { info_.pod = &pod_; }
  PodClassKey& operator=(const PodClassKey&) = delete;
  const PodInfo& info() const { return info_; }
  bool Matches(const PodInfo& pod) const { return SameClass(info_, pod); }

 private:
  Pod pod_;
  PodInfo info_;
};

// Numbers the classes it is shown, 0, 1, 2... in order of first sight.
class PodClassTable {
 public:
  uint32_t Intern(const PodInfo& pod);
  size_t size() const { return keys_.size(); }
  // The first pod of the class, as its PodClassKey holds it.
  const PodInfo& Representative(uint32_t id) const { return keys_[id].info(); }

 private:
  std::unordered_multimap<size_t, uint32_t> by_hash_;
  std::deque<PodClassKey> keys_;  // a deque: the keys' addresses must not move
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_POD_CLASS_H_
