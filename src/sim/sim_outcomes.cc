// Simulation::Result: the run's final state as a SimResult (every pod in
// exactly one outcome, the summary's figures).
#include <algorithm>
#include <charconv>
#include <tuple>

#include "gpusched/sim/percentiles.h"
#include "simulation.h"

namespace gpusched {
namespace sim_internal {

std::string FormatSeconds(double t) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, t);
  return std::string(buf, res.ptr);
}

SimResult Simulation::Result(double end) {
  SimResult r;
  r.policy = options_.policy.empty() && !profiles_.empty() ? std::string(profiles_.front().second->policy().Name())
                                                           : options_.policy;
  for (size_t i = 0; i < cluster_.size(); ++i) r.node_names.push_back(cluster_.node(i).name());
  r.series = metrics_.Series();

  std::vector<double> times = options_.snapshot_times;
  if (times.empty()) {
    const double start = std::min(first_time_.value_or(0), end);
    for (int k = 0; k < 4; ++k) times.push_back(start + (end - start) * k / 4);
    times.push_back(end);
  }
  std::sort(times.begin(), times.end());
  r.snapshots = metrics_.Snapshots(times, cluster_.size());
  metrics_.ReleaseChangeLog();

  SimSummary& s = r.summary;
  std::vector<double> delays, jcts;
  delays.reserve(pods_.size());
  jcts.reserve(pods_.size());
  r.pods.reserve(pods_.size() + workload_.rejected.size());
  for (size_t i = 0; i < pods_.size(); ++i) {
    const SimPod& p = pods_[i];
    const WorkloadPod& wp = workload_.pods[i];
    PodOutcome o;
    o.name.reserve(wp.pod.ns().size() + 1 + wp.pod.name().size());
    o.name.append(wp.pod.ns()).append("/").append(wp.pod.name());
    o.arrival = wp.arrival;
    o.start = p.start;
    o.finish = p.finish;
    if (p.node >= 0) o.node = cluster_.node(static_cast<size_t>(p.node)).name();
    o.attempts = p.attempts;
    o.evictions = p.evictions;
    switch (p.phase) {
      case SimPod::Phase::kFinished: o.state = PodOutcome::State::kFinished; ++s.finished; break;
      case SimPod::Phase::kRunning: o.state = PodOutcome::State::kRunning; ++s.running; break;
      case SimPod::Phase::kWaiting: {
        o.state = PodOutcome::State::kPending;
        const Failure* last = p.waiting->last_failure.get();
        if (classes_queue_) {
          o.attempts += static_cast<int32_t>(classes_queue_->Attempts(i));
          last = classes_queue_->LastFailure(i).get();
        }
        if (last) o.reason = last->message;
        ++s.pending;
        break;
      }
      case SimPod::Phase::kReserved:
        o.state = PodOutcome::State::kPending;
        o.reason = permit_->WaitingReason(i);
        ++s.pending;
        break;
      case SimPod::Phase::kHeld:
        o.state = PodOutcome::State::kPending;
        if (auto it = held_reasons_.find(i); it != held_reasons_.end()) std::tie(o.reason, o.advice) = it->second;
        ++s.pending;
        break;
      case SimPod::Phase::kNotArrived:
        o.state = PodOutcome::State::kPending;
        o.reason = "not arrived: it arrives at " + FormatSeconds(wp.arrival) + " s, after the end of the simulation (" +
                   FormatSeconds(end) + " s)";
        ++s.pending;
        break;
      case SimPod::Phase::kGone:
        o.state = PodOutcome::State::kPreempted;
        o.reason = "preempted; a bare pod is not recreated";
        ++s.preempted;
        break;
      case SimPod::Phase::kRejected:
        o.state = PodOutcome::State::kRejected;
        if (auto it = rejections_.find(i); it != rejections_.end()) o.reason = it->second;
        ++s.rejected;
        break;
    }
    if (p.start >= 0) delays.push_back(p.start - wp.arrival);
    if (o.state == PodOutcome::State::kFinished) jcts.push_back(p.finish - wp.arrival);
    r.pods.push_back(std::move(o));
  }
  for (const InputError& e : workload_.rejected) {
    PodOutcome o;
    if (e.object.rfind("Pod/", 0) == 0) {
      o.name = e.object.substr(4);
    } else if (!e.object.empty()) {
      o.name = e.object;
    } else {
      o.name = e.file + (e.line > 0 ? ":" + std::to_string(e.line) : "");
    }
    o.state = PodOutcome::State::kRejected;
    o.reason = e.message;
    ++s.rejected;
    r.pods.push_back(std::move(o));
  }
  s.policy = r.policy;
  s.pods = static_cast<int64_t>(r.pods.size());
  s.end_time = end;
  s.mean_gpu_alloc_pct = metrics_.MeanGpuAllocPct(end);
  s.mean_frag_pct = metrics_.MeanFragPct(end);
  s.queueing_delay = ComputePercentiles(std::move(delays));
  s.jct = ComputePercentiles(std::move(jcts));
  s.scheduling_attempts = attempts_;
  s.preemptions = preemptions_;
  s.victims = victims_;
  s.victims_by_priority.assign(victims_by_priority_.begin(), victims_by_priority_.end());
  s.gpu_hours_lost = gpu_seconds_lost_ / 3600;
  if (broken_gangs_) {
    const BrokenGangs::Metrics b = broken_gangs_->Result(end);
    s.gangs_broken = b.gangs_broken;
    s.broken_gang_gpu_hours_lost = b.gpu_hours_lost;
    s.broken_gang_idle_gpu_hours = b.idle_gpu_hours;
  }
  if (permit_) s.gangs = permit_->Metrics(end);
  return r;
}

}  // namespace sim_internal
}  // namespace gpusched
