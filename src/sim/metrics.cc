#include "gpusched/sim/metrics.h"

#include <algorithm>

namespace gpusched {

SimMetrics::SimMetrics(const ClusterState& cluster, NodeFragFn frag, size_t max_samples)
    : frag_fn_(std::move(frag)), dra_gpus_(cluster.objects().dra), max_samples_(max_samples) {
  nodes_.resize(cluster.size());
  for (size_t i = 0; i < cluster.size(); ++i) {
    nodes_[i] = Read(cluster, i);
    total_milli_ += nodes_[i].total;
    used_milli_ += nodes_[i].used;
    frag_milli_ += nodes_[i].frag;
  }
  initial_ = nodes_;
}

SimMetrics::NodeCache SimMetrics::Read(const ClusterState& cluster, size_t node) const {
  NodeCache c;
  if (!cluster.present(node)) return c;
  const NodeState& s = cluster.state(node);
  c.total = static_cast<int32_t>(s.gpu_free_milli.size()) * kGpuMilli;
  c.used = c.total - static_cast<int32_t>(s.GpuFreeMilli());
  if (!dra_gpus_.empty()) {
    const DraNodeGpus::Milli dra = dra_gpus_.On(cluster.node(node).name(), cluster.dra_allocations().state());
    c.total += static_cast<int32_t>(dra.total);
    c.used += static_cast<int32_t>(dra.used);
  }
  if (frag_fn_) c.frag = frag_fn_(cluster, node);
  return c;
}

void SimMetrics::NodeChanged(const ClusterState& cluster, size_t node, double now) {
  if (node >= nodes_.size()) nodes_.resize(node + 1);  // an added node
  const NodeCache old = nodes_[node];
  const NodeCache cur = Read(cluster, node);
  nodes_[node] = cur;
  total_milli_ += cur.total - old.total;
  used_milli_ += cur.used - old.used;
  frag_milli_ += cur.frag - old.frag;
  if (cur.used != old.used || cur.total != old.total)
    log_.push_back(Change{now, static_cast<uint32_t>(node), cur.used, cur.total});
}

void SimMetrics::Sample(double now, int64_t pending, int64_t running) {
  SimSample s;
  s.time = now;
  s.gpu_milli_total = total_milli_;
  s.gpu_milli_used = used_milli_;
  s.arrived_gpu_milli = arrived_gpu_milli_;
  s.pending = pending;
  s.running = running;
  if (total_milli_ > 0) {
    const double total = static_cast<double>(total_milli_);
    s.gpu_alloc_pct = static_cast<double>(used_milli_) / total * 100;
    s.gpu_unalloc_pct = 100 - s.gpu_alloc_pct;
    s.frag_pct = frag_milli() / total * 100;
  }
  const int64_t idle = total_milli_ - used_milli_;
  if (idle > 0) s.frag_of_idle_pct = frag_milli() / static_cast<double>(idle) * 100;

  if (last_) {
    const double dt = now - last_->time;
    alloc_integral_ += last_->gpu_alloc_pct * dt;
    frag_integral_ += last_->frag_pct * dt;
  } else {
    first_ = s;
  }
  last_ = s;
  const size_t index = taken_++;
  if (max_samples_ == 0) {
    kept_.push_back(s);
    return;
  }
  // One slot is kept for the last sample, which Series() appends.
  const size_t cap = max_samples_ - 1;
  if (cap == 0 || index % stride_ != 0) return;
  kept_.push_back(s);
  if (kept_.size() > cap) {
    // Keep samples number 0, 2*stride_, 4*stride_, ...: every other one.
    size_t w = 0;
    for (size_t r = 0; r < kept_.size(); r += 2) kept_[w++] = kept_[r];
    kept_.resize(w);
    stride_ *= 2;
  }
}

std::vector<SimSample> SimMetrics::Series() const {
  std::vector<SimSample> out = kept_;
  if (last_ && max_samples_ != 0) {
    const bool last_kept = !kept_.empty() && (kept_.size() - 1) * stride_ == taken_ - 1;
    if (!last_kept) out.push_back(*last_);
  }
  return out;
}

std::optional<double> SimMetrics::last_sample_time() const {
  if (!last_) return std::nullopt;
  return last_->time;
}

double SimMetrics::Mean(double integral, double SimSample::*field, double end) const {
  if (!last_) return 0;
  const double span = end - first_->time;
  if (!(span > 0)) return (*last_).*field;
  return (integral + (*last_).*field * (end - last_->time)) / span;
}

std::vector<NodeSnapshot> SimMetrics::Snapshots(const std::vector<double>& times, size_t num_nodes) const {
  std::vector<NodeSnapshot> out;
  std::vector<int32_t> used(num_nodes, 0), total(num_nodes, 0);
  for (size_t i = 0; i < initial_.size() && i < num_nodes; ++i) {
    used[i] = initial_[i].used;
    total[i] = initial_[i].total;
  }
  size_t next = 0;
  for (double t : times) {
    for (; next < log_.size() && log_[next].time <= t; ++next) {
      const Change& c = log_[next];
      if (c.node >= num_nodes) continue;
      used[c.node] = c.used;
      total[c.node] = c.total;
    }
    out.push_back(NodeSnapshot{t, used, total});
  }
  return out;
}

}  // namespace gpusched
