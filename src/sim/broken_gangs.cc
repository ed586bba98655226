#include "gpusched/sim/broken_gangs.h"

#include <algorithm>

#include "gpusched/model/gpu_request.h"

namespace gpusched {

BrokenGangs::BrokenGangs(const PreemptionGangs& gangs, size_t num_pods)
    : gangs_(gangs), state_(gangs.size()), milli_(num_pods, -1) {}

void BrokenGangs::Accrue(State& s, double now) {
  if (s.broken && now > s.since) idle_milli_seconds_ += static_cast<double>(s.running_milli) * (now - s.since);
  s.since = now;
}

void BrokenGangs::Started(size_t id, int64_t gpu_milli, double now) {
  const int32_t g = gangs_.GangOf(id);
  if (g < 0 || id >= milli_.size() || milli_[id] >= 0) return;
  State& s = state_[static_cast<size_t>(g)];
  Accrue(s, now);
  milli_[id] = gpu_milli;
  s.running_count.Add(gangs_.SubgroupOf(id));
  s.running_milli += gpu_milli;
  if (s.broken && GangReady(gangs_.gang(g), s.running_count)) s.broken = false;  // recovered
}

void BrokenGangs::Stopped(size_t id, double now) {
  const int32_t g = gangs_.GangOf(id);
  if (g < 0 || id >= milli_.size() || milli_[id] < 0) return;
  State& s = state_[static_cast<size_t>(g)];
  Accrue(s, now);
  s.running_count.Add(gangs_.SubgroupOf(id), -1);
  s.running_milli -= milli_[id];
  milli_[id] = -1;
}

void BrokenGangs::Preempted(const std::vector<size_t>& terminated, double now) {
  std::vector<int32_t> seen;
  for (size_t id : terminated) {
    const int32_t g = gangs_.GangOf(id);
    if (g < 0 || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
    seen.push_back(g);
    State& s = state_[static_cast<size_t>(g)];
    GangCount after = s.running_count;
    for (size_t v : terminated)
      if (gangs_.GangOf(v) == g && milli_[v] >= 0) after.Add(gangs_.SubgroupOf(v), -1);
    if (GangReady(gangs_.gang(g), s.running_count) && !GangReady(gangs_.gang(g), after)) {
      ++broken_;
      Accrue(s, now);
      s.broken = true;
      for (size_t v : terminated)
        if (gangs_.GangOf(v) == g && milli_[v] >= 0) lost_with_gang_.insert(v);
    }
  }
  for (size_t id : terminated) Stopped(id, now);
}

void BrokenGangs::Lost(size_t id, double gpu_seconds) {
  if (lost_with_gang_.erase(id) > 0) lost_gpu_seconds_ += gpu_seconds;
}

BrokenGangs::Metrics BrokenGangs::Result(double end) const {
  Metrics m;
  m.gangs_broken = broken_;
  m.gpu_hours_lost = lost_gpu_seconds_ / 3600;
  double idle = idle_milli_seconds_;
  for (const State& s : state_)
    if (s.broken && end > s.since) idle += static_cast<double>(s.running_milli) * (end - s.since);
  m.idle_gpu_hours = idle / kGpuMilli / 3600;
  return m;
}

}  // namespace gpusched
