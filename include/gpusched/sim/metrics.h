// SimMetrics: the simulator's cluster-level measurements, kept incrementally
// so that a million-pod run on 10,000 nodes never re-scans the nodes. The
// simulator calls NodeChanged for the one node a bind, unbind, add or remove
// touched; that node's GPU milli (total, used) and fragmentation are re-read
// and the running totals adjusted by the difference. Sample then costs O(1).
//
// It also keeps
//   - the SimSample series, one per distinct event time, thinned on the fly
//     to at most max_samples (every k-th sample, k doubling whenever the
//     buffer fills, plus the last one), so memory stays bounded however long
//     the run;
//   - time-weighted means of the allocation and fragmentation percentages,
//     integrated over every sample (not just the kept ones);
//   - a log of per-node GPU changes, from which NodeSnapshots at any times are
//     replayed after the run. Replaying lets the default snapshot times depend
//     on when the run ends, which is not known while it runs.
#ifndef GPUSCHED_SIM_METRICS_H_
#define GPUSCHED_SIM_METRICS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/dra/dra_node_gpus.h"
#include "gpusched/sim/sim_result.h"

namespace gpusched {

// Fragmentation of one node in milli-GPU (FGD's measure, supplied by the
// caller); an empty function means 0 everywhere.
using NodeFragFn = std::function<double(const ClusterState&, size_t node)>;

class SimMetrics {
 public:
  // Reads every node of `cluster` once. max_samples 0 keeps every sample.
  SimMetrics(const ClusterState& cluster, NodeFragFn frag, size_t max_samples);

  // Node `node` was bound to, unbound from, added or removed at `now`.
  void NodeChanged(const ClusterState& cluster, size_t node, double now);
  // A pod arrived for the first time (evicted pods re-entering do not count).
  void PodArrived(int64_t gpu_milli) { arrived_gpu_milli_ += gpu_milli; }

  // The cluster after everything at `now` (a time later than any before).
  void Sample(double now, int64_t pending, int64_t running);

  // The kept samples, the last one included.
  std::vector<SimSample> Series() const;
  // Time-weighted means over [first sample, end]; the last sample's value
  // holds until `end`. 0 without samples.
  double MeanGpuAllocPct(double end) const { return Mean(alloc_integral_, &SimSample::gpu_alloc_pct, end); }
  double MeanFragPct(double end) const { return Mean(frag_integral_, &SimSample::frag_pct, end); }
  std::optional<double> last_sample_time() const;
  size_t samples_taken() const { return taken_; }

  // Per-node GPU occupancy at each of `times` (ascending): the state after
  // every change at or before that time, over `num_nodes` node slots.
  std::vector<NodeSnapshot> Snapshots(const std::vector<double>& times, size_t num_nodes) const;
  // Frees the per-node change log (tens of MB in a million-pod run) once
  // the snapshots are taken, before the per-pod results are built; Snapshots
  // then sees no change after the start.
  void ReleaseChangeLog() { std::vector<Change>().swap(log_); }

  int64_t gpu_milli_total() const { return total_milli_; }
  int64_t gpu_milli_used() const { return used_milli_; }
  double frag_milli() const { return frag_milli_ > 0 ? frag_milli_ : 0; }
  int64_t arrived_gpu_milli() const { return arrived_gpu_milli_; }

 private:
  struct NodeCache {
    int32_t total = 0;  // milli, 0 when absent
    int32_t used = 0;
    double frag = 0;
  };
  struct Change {
    double time;
    uint32_t node;
    int32_t used;
    int32_t total;
  };

  NodeFragFn frag_fn_;
  // GPUs through DRA (ResourceSlices), counted with the device plugin's.
  DraNodeGpus dra_gpus_;
  size_t max_samples_;
  std::vector<NodeCache> nodes_;
  std::vector<NodeCache> initial_;
  std::vector<Change> log_;
  int64_t total_milli_ = 0;
  int64_t used_milli_ = 0;
  double frag_milli_ = 0;
  int64_t arrived_gpu_milli_ = 0;

  // Thinning: kept_ holds samples number 0, stride_, 2*stride_, ...
  std::vector<SimSample> kept_;
  size_t stride_ = 1;
  size_t taken_ = 0;
  std::optional<SimSample> first_, last_;
  double alloc_integral_ = 0;  // percent-seconds up to last_->time
  double frag_integral_ = 0;

  NodeCache Read(const ClusterState& cluster, size_t node) const;
  double Mean(double integral, double SimSample::*field, double end) const;
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_METRICS_H_
