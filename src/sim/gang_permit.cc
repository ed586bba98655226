#include "gpusched/sim/gang_permit.h"

#include <algorithm>

#include "gpusched/config/plugin_names.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/sim/percentiles.h"

namespace gpusched {

GangPermit::GangPermit(const GangSet& gangs, const GangServing& serving, const std::vector<const Pod*>& pods) {
  members_.resize(pods.size());
  if (gangs.gangs.empty()) return;
  std::vector<int32_t> state_of(gangs.gangs.size(), -1);
  auto state_for = [&](const Gang* g) {
    const auto k = static_cast<size_t>(g - gangs.gangs.data());
    if (state_of[k] < 0) {
      state_of[k] = static_cast<int32_t>(gangs_.size());
      gangs_.push_back(State{});
      gangs_.back().gang = g;
    }
    return state_of[k];
  };
  std::string key;
  for (size_t i = 0; i < pods.size(); ++i) {
    const Pod& pod = *pods[i];
    key.assign(pod.ns()).append("/").append(pod.name());
    if (const Gang* g = EnforcedGang(pod, key, gangs, serving)) {
      Member& m = members_[i];
      m.gang = state_for(g);
      m.enforced = true;
      m.subgroup = SubgroupLabel(pod, g->api);
      State& s = gangs_[static_cast<size_t>(m.gang)];
      if (!s.enforcement) {
        ++enforced_gangs_;
        const GangEnforcement* e = EnforcementFor(pod, serving);
        s.enforcement = e;
        s.session = e->enforcer == "Volcano" || e->enforcer == "KAI";
        // GangScheduling: the Workload API's fixed deadline; Coscheduling:
        // the PodGroup's scheduleTimeoutSeconds, else the args'.
        // A zero or negative timeout is no timeout of its own (Coscheduling's
        // GetWaitTimeDuration falls back to the args' then).
        s.timeout = g->timeout_seconds && *g->timeout_seconds > 0 ? *g->timeout_seconds
                    : e->permit_timeout_seconds > 0 ? e->permit_timeout_seconds
                    : e->enforcer == names::kGangScheduling ? kWorkloadGangTimeoutSeconds
                                                      : kCoschedulingDefaultTimeoutSeconds;
      }
      enforcing_ = true;
      continue;
    }
    if (const Gang* g = ReportedGang(pod, key, gangs, serving)) {
      members_[i].gang = state_for(g);
      members_[i].subgroup = SubgroupLabel(pod, g->api);
    }
  }
}

int32_t GangPermit::EnforcedGangOf(size_t id) const {
  return id < members_.size() && members_[id].enforced ? members_[id].gang : -1;
}

bool GangPermit::Waiting(size_t id) const { return id < members_.size() && members_[id].waiting; }

GangPermit::Reserved GangPermit::Reserve(size_t id, int64_t gpu_milli, double now) {
  Reserved r;
  Member& m = members_[id];
  State& g = gangs_[static_cast<size_t>(m.gang)];
  m.waiting = true;
  m.milli = gpu_milli;
  m.since = now;
  if (g.waiting.empty()) {
    if (g.first_reserved < 0) g.first_reserved = now;
    if (g.timed_out && !g.retrying) {
      // The first reservation after a timeout starts a new round.
      ++retries_;
      g.retrying = true;
    }
  }
  g.waiting.push_back(id);
  // Permit: |assumed ∪ assigned| >= minCount allows every waiting member;
  // a session commits the job once it is ready, its task / subgroup
  // minimums included.
  GangCount assigned = g.running_count;
  for (size_t w : g.waiting) assigned.Add(members_[w].subgroup);
  if (GangReady(*g.gang, assigned)) {
    if (!g.started || !GangReady(*g.gang, g.running_count)) waits_.push_back(now - g.first_reserved);
    r.allow = std::move(g.waiting);
    g.waiting.clear();
    for (size_t a : r.allow) CloseWait(members_[a], now);
    g.deadline = kNoDeadline;
    g.first_reserved = -1;
    g.retrying = false;
    return r;
  }
  if (!g.session && g.deadline == kNoDeadline) {
    g.deadline = now + g.timeout;
    r.deadline = g.deadline;
  }
  return r;
}

void GangPermit::CloseWait(Member& m, double now) {
  m.waiting = false;
  waiting_gpu_seconds_ += (now - m.since) * static_cast<double>(m.milli) / kGpuMilli;
}

std::vector<size_t> GangPermit::Expire(int32_t gang, double now) {
  State& g = gangs_[static_cast<size_t>(gang)];
  if (g.deadline != now || g.waiting.empty()) return {};
  ++timeouts_;
  g.timed_out = true;
  g.retrying = false;
  g.deadline = kNoDeadline;
  return g.waiting;  // the caller unreserves each
}

std::vector<size_t> GangPermit::EndSession(double /*now*/) {
  std::vector<size_t> out;
  for (State& g : gangs_) {
    if (!g.session || g.waiting.empty()) continue;
    ++session_rejections_;
    out.insert(out.end(), g.waiting.begin(), g.waiting.end());
  }
  return out;
}

std::vector<size_t> GangPermit::FilterFailed(size_t id) {
  const Member& m = members_[id];
  if (!m.enforced) return {};
  State& g = gangs_[static_cast<size_t>(m.gang)];
  if (g.enforcement->enforcer != names::kCoscheduling || g.waiting.empty()) return {};
  // Coscheduling's PostFilter (pkg/coscheduling/coscheduling.go): the
  // assigned pods (bound or assumed) of the group; reject when the unassigned
  // share of minMember exceeds podGroupRejectPercentage.
  const int64_t assigned = g.running_count.total + static_cast<int64_t>(g.waiting.size());
  if (assigned >= g.gang->min_count) return {};
  const double unassigned =
      static_cast<double>(g.gang->min_count - assigned) / static_cast<double>(g.gang->min_count);
  if (unassigned <= g.enforcement->reject_threshold) return {};
  ++optimistic_rejections_;
  return g.waiting;
}

void GangPermit::Unreserve(size_t id, double now) {
  Member& m = members_[id];
  if (!m.waiting) return;
  CloseWait(m, now);
  State& g = gangs_[static_cast<size_t>(m.gang)];
  std::erase(g.waiting, id);
  if (g.waiting.empty()) g.deadline = kNoDeadline;
}

void GangPermit::AccruePartial(State& g, double now) {
  // A group counts as having run partially only for a stretch of time: its
  // members bound one after the other in one scheduling moment (all at
  // `now`) never ran below minCount.
  if (g.partial_since >= 0 && now > g.partial_since) {
    partial_gpu_seconds_ += (now - g.partial_since) * static_cast<double>(g.running_milli) / kGpuMilli;
    g.ever_partial = true;
  }
  g.partial_since = !g.started && g.running_count.total > 0 ? now : -1;
}

void GangPermit::Started(size_t id, int64_t gpu_milli, double now) {
  Member& m = members_[id];
  if (m.gang < 0 || m.running) return;
  State& g = gangs_[static_cast<size_t>(m.gang)];
  const bool enforced = g.enforcement != nullptr;
  if (!enforced) AccruePartial(g, now);
  m.running = true;
  m.milli = gpu_milli;
  g.running_count.Add(m.subgroup);
  g.running_milli += gpu_milli;
  if (GangReady(*g.gang, g.running_count)) g.started = true;
  if (!enforced) AccruePartial(g, now);
}

void GangPermit::Stopped(size_t id, double now) {
  Member& m = members_[id];
  if (m.gang < 0 || !m.running) return;
  State& g = gangs_[static_cast<size_t>(m.gang)];
  const bool enforced = g.enforcement != nullptr;
  if (!enforced) AccruePartial(g, now);
  m.running = false;
  g.running_count.Add(m.subgroup, -1);
  g.running_milli -= m.milli;
  if (!enforced) AccruePartial(g, now);
}

std::string GangPermit::TimeoutMessage(int32_t gang) const {
  const State& g = gangs_[static_cast<size_t>(gang)];
  // framework runtime waiting_pods_map.go: the timer's rejection.
  return "rejected due to timeout after waiting " + GoSeconds(g.timeout) + " at plugin " + g.enforcement->enforcer;
}

std::string GangPermit::SessionMessage(int32_t gang) const {
  const State& g = gangs_[static_cast<size_t>(gang)];
  const auto fit = static_cast<int64_t>(g.waiting.size());
  const auto members = static_cast<int64_t>(g.gang->members.size());
  const int64_t running = g.running_count.total;
  if (g.enforcement->enforcer == "Volcano") return VolcanoMessage(*g.gang, fit, members - running, running);
  GangCount placed = g.running_count;
  for (size_t w : g.waiting) placed.Add(members_[w].subgroup);
  return KaiMessage(*g.gang, placed, members);
}

std::string GangPermit::WaitingReason(size_t id) const {
  const Member& m = members_[id];
  const State& g = gangs_[static_cast<size_t>(m.gang)];
  return "waiting on Permit for gang " + g.gang->key + " (" + g.enforcement->enforcer + "): " +
         std::to_string(g.waiting.size() + static_cast<size_t>(g.running_count.total)) + " of minCount " +
         std::to_string(g.gang->min_count) + " members waiting or running, reserved on its node since " +
         GoSeconds(m.since) + " of simulated time";
}

GangSimMetrics GangPermit::Metrics(double end) const {
  GangSimMetrics out;
  out.gangs = static_cast<int64_t>(gangs_.size());
  double waiting = waiting_gpu_seconds_, partial = partial_gpu_seconds_;
  for (const State& g : gangs_) {
    if (g.enforcement) {
      ++out.enforced;
      if (g.timed_out) ++out.gangs_timed_out;
      for (size_t id : g.waiting)
        waiting += (end - members_[id].since) * static_cast<double>(members_[id].milli) / kGpuMilli;
    } else {
      const bool open = g.partial_since >= 0 && end > g.partial_since;
      if (g.ever_partial || open) ++out.partial_groups;
      if (open) partial += (end - g.partial_since) * static_cast<double>(g.running_milli) / kGpuMilli;
    }
  }
  out.started = static_cast<int64_t>(waits_.size());
  out.wait = ComputePercentiles(waits_);
  out.waiting_gpu_seconds = waiting;
  out.timeouts = timeouts_;
  out.retries = retries_;
  out.session_rejections = session_rejections_;
  out.optimistic_rejections = optimistic_rejections_;
  out.partial_gpu_hours = partial / 3600;
  return out;
}

std::string GangPermit::CheckInvariants() const {
  for (const State& g : gangs_) {
    if (!g.enforcement || g.running_count.total == 0 || g.started) continue;
    return "gang " + g.gang->key + " runs " + std::to_string(g.running_count.total) + " members below minCount " +
           std::to_string(g.gang->min_count) + " under " + g.enforcement->enforcer;
  }
  return "";
}

}  // namespace gpusched
