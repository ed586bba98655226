// Simulation's side of gangs waiting on Permit (sim/simulation.h; the
// Permit stage itself is sim/gang_permit.h): a member reserved on its node,
// rejected back to the unschedulable pool (timeout, preemption, a session's
// end), and the sessions that end with the moment.
#include <memory>
#include <string>
#include <vector>

#include "simulation.h"

namespace gpusched {
namespace sim_internal {

// Member `id` of an enforced gang passed Filter: it is reserved (bound in
// cluster_, holding its resources) and waits on Permit, unless its gang is
// complete with it, which starts every waiting member.
void Simulation::Reserve(size_t id, const Attempt& d, const QueuedPod& qp, double now) {
  SimPod& p = pods_[id];
  nominated_.Remove(p.waiting->info.pod);  // assumed: the nomination is done with (as at a bind)
  p.phase = SimPod::Phase::kReserved;
  p.node = static_cast<int32_t>(d.node);
  p.waiting->popped = qp;
  Ran(id, d.node);
  NodeChanged(d.node, now);
  ++reserved_;
  GangPermit::Reserved r = permit_->Reserve(id, p.waiting->info.gpu.total_milli(), now);
  const int32_t gang = permit_->EnforcedGangOf(id);
  if (r.deadline) {
    events_.Push(*r.deadline, EventKind::kPermitTimeout, static_cast<uint64_t>(gang));
    ++live_timeouts_;
  }
  if (r.allow.empty()) {
    // GangScheduling's and Coscheduling's Permit activate the gang's
    // unscheduled pods (handle.Activate) before returning Wait, members
    // just rejected by a timeout included. Members rejected while this
    // moment's pods were tried (a session's end, Coscheduling's PostFilter,
    // preemption) are not: each pod is then rejected at most once a moment,
    // so the moment ends (upstream spends real time and backoff there).
    queue_.Activate([&](const QueuedPod& q) {
      return permit_->EnforcedGangOf(q.id) == gang && !rejected_scheduling_now_.count(q.id);
    });
  }
  for (size_t a : r.allow) {
    --reserved_;
    Run(a, now);
  }
}

// A member waiting on Permit is rejected at `now`: unreserved, and back in
// the unschedulable pool with `message` (upstream handleBindingCycleError:
// the rejection is Unschedulable; forgetting the assumed pod is an
// AssignedPodDelete event for the other pods).
void Simulation::RejectWaiting(size_t id, double now, const std::string& message) {
  SimPod& p = pods_[id];
  permit_->Unreserve(id, now);
  const auto node = static_cast<size_t>(p.node);
  cluster_.Unbind(node, id);
  Stopped(id, node);
  NodeChanged(node, now);
  --reserved_;
  p.phase = SimPod::Phase::kWaiting;
  auto f = std::make_shared<Failure>();
  f->message = message;
  p.waiting->last_failure = std::move(f);
  queue_.AddUnschedulable(*p.waiting->popped, now);
  p.waiting->popped.reset();
  rejected_now_.insert(id);
  if (scheduling_) rejected_scheduling_now_.insert(id);
  ++permit_rejections_;
  events_now_.assigned_pod_deleted = true;
  events_now_.pods_deleted.push_back(&workload_.pods[id].pod);
  busy_ = true;
}

void Simulation::RejectAll(const std::vector<size_t>& ids, double now, const std::string& message) {
  for (size_t id : ids) RejectWaiting(id, now, message);
}

bool Simulation::EndSessions(double now) {
  const std::vector<size_t> out = permit_->EndSession(now);
  if (out.empty()) return false;
  std::vector<std::string> messages;
  messages.reserve(out.size());
  for (size_t id : out) messages.push_back(permit_->SessionMessage(permit_->EnforcedGangOf(id)));
  for (size_t k = 0; k < out.size(); ++k) RejectWaiting(out[k], now, messages[k]);
  return true;
}

}  // namespace sim_internal
}  // namespace gpusched
