#include "gpusched/sim/class_queue.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <queue>

#include "gpusched/sim/event_queue.h"

namespace gpusched {
namespace {

// Two failures a pod cannot tell apart: the same message (its reason in the
// result) and the same rejectors (what the hints read).
bool Same(const std::shared_ptr<const Failure>& a, const std::shared_ptr<const Failure>& b) {
  return a == b || (a && b && a->rejectors == b->rejectors && a->message == b->message);
}

}  // namespace

ClassQueue::ClassQueue(SchedulingQueueOptions options) : formulas_(options) {
  if (!options.pop_from_backoff_q) std::abort();  // see the header: the order of a moment is fixed only with it
  // From sat_ failures on, the backoff is at its maximum and the exact
  // count no longer matters.
  while (sat_ < 64 && formulas_.BackoffDuration(sat_) < formulas_.BackoffDuration(sat_ + 1)) ++sat_;
}

ClassQueue::Slot& ClassQueue::SlotOf(size_t id) {
  if (id >= slots_.size()) slots_.resize(std::max(id + 1, slots_.size() * 2));
  return slots_[id];
}

QueuedPod ClassQueue::AsQueuedPod(const Cohort& c) const {
  QueuedPod p;
  p.priority = c.priority;
  p.gpu_milli = c.gpu_milli;
  p.timestamp = c.timestamp;
  p.unschedulable_count = c.count;
  p.consecutive_errors = c.errors;
  return p;
}

ClassQueue::Order ClassQueue::OrderOf(const Cohort& c, size_t id) const {
  // SchedulingQueue::ActiveLess and BackoffLess as one key.
  int64_t sort = 0;
  switch (formulas_.options().order) {
    case QueueOrder::kPriority: sort = -static_cast<int64_t>(c.priority); break;
    case QueueOrder::kLargestFirst: sort = -c.gpu_milli; break;
    case QueueOrder::kSmallestFirst: sort = c.gpu_milli; break;
    case QueueOrder::kFifo: break;
  }
  return Order{c.backoff_part, c.backoff_part ? c.expiry : 0.0, sort, c.timestamp, id};
}

ClassQueue::Cohort& ClassQueue::NewCohort(const Cohort& like) {
  cohorts_.push_back(like);
  Cohort& c = cohorts_.back();
  c.ids.clear();
  c.attempts = 0;
  c.indexed = false;
  c.self = std::prev(cohorts_.end());
  return c;
}

void ClassQueue::Erase(Cohort& c) {
  Unindex(c);
  cohorts_.erase(c.self);
}

void ClassQueue::Unindex(Cohort& c) {
  if (!c.indexed) return;
  index_.erase(KeyOf(c));
  c.indexed = false;
}

void ClassQueue::MoveIds(Cohort& from, Cohort& to, std::set<size_t>::iterator first,
                         std::set<size_t>::iterator last) {
  while (first != last) {
    auto next = std::next(first);
    Slot& s = slots_[*first];
    s.base += from.attempts - to.attempts;
    s.cohort = &to;
    to.ids.insert(from.ids.extract(first));
    first = next;
  }
}

// A cohort at rest joins the one with the same key, the smaller into the
// larger (so a pod moves O(log pods) times in all).
void ClassQueue::Index(Cohort& c) {
  auto [it, inserted] = index_.emplace(KeyOf(c), &c);
  if (inserted) {
    c.indexed = true;
    return;
  }
  Cohort* other = it->second;
  Cohort* big = other->ids.size() >= c.ids.size() ? other : &c;
  Cohort* small = big == other ? &c : other;
  MoveIds(*small, *big, small->ids.begin(), small->ids.end());
  if (small->indexed) {
    small->indexed = false;
    it->second = big;
    big->indexed = true;
  }
  cohorts_.erase(small->self);
}

void ClassQueue::Add(size_t id, uint32_t cls, int32_t priority, int64_t gpu_milli, double now) {
  // New pods of one class at one moment share a cohort.
  if (cls >= new_of_class_.size()) new_of_class_.resize(cls + 1, nullptr);
  Cohort*& c = new_of_class_[cls];
  if (!c || c->timestamp != now) {
    Cohort probe;
    probe.cls = cls;
    probe.timestamp = now;
    probe.priority = priority;
    probe.gpu_milli = gpu_milli;
    probe.where = Where::kMoving;
    c = &NewCohort(probe);
    moving_.push_back(c);
  }
  c->ids.insert(id);
  Slot& s = SlotOf(id);
  s.cohort = c;
  s.base = -c->attempts;
  ++size_;
}

// Into activeQ or backoffQ (requeuePodWithQueueingStrategy), or straight
// into activeQ (a flush of the backoff).
void ClassQueue::Move(Cohort& c, double now, bool to_active) {
  Unindex(c);
  c.where = Where::kMoving;
  const QueuedPod p = AsQueuedPod(c);
  c.expiry = formulas_.BackoffExpiration(p);
  c.backoff_part = !to_active && formulas_.IsBackingOff(p, now);
  moving_.push_back(&c);
}

void ClassQueue::Requeue(double now, const std::function<bool(size_t id, const Failure& failure)>& worth) {
  for (Cohort& c : cohorts_)
    if (c.where == Where::kPool && worth(*c.ids.begin(), *c.failure)) Move(c, now, false);
}

void ClassQueue::FlushUnschedulablePodsLeftover(double now) {
  for (Cohort& c : cohorts_)
    if (c.where == Where::kPool && now - c.timestamp > kPodMaxInUnschedulablePodsDuration) Move(c, now, false);
}

void ClassQueue::FlushBackoffQCompleted(double now) {
  for (Cohort& c : cohorts_)
    if (c.where == Where::kErrorBackoff && !formulas_.IsBackingOff(AsQueuedPod(c), now)) Move(c, now, true);
}

double ClassQueue::NextBackoffFlush() const {
  double b = kNever;
  for (const Cohort& c : cohorts_)
    if (c.where == Where::kErrorBackoff) b = std::min(b, formulas_.BackoffExpiration(AsQueuedPod(c)));
  return b == kNever ? kNever : formulas_.BackoffFlushTick(b);
}

double ClassQueue::NextUnschedulableFlush() const {
  double oldest = kNever;
  for (const Cohort& c : cohorts_)
    if (c.where == Where::kPool) oldest = std::min(oldest, c.timestamp);
  return oldest == kNever ? kNever : SchedulingQueue::UnschedulableFlushTick(oldest);
}

size_t ClassQueue::active_or_backoff_size() const {
  size_t n = 0;
  for (const Cohort* c : moving_) n += c->ids.size();
  return n;
}

int64_t ClassQueue::Attempts(size_t id) const {
  const Slot& s = slots_[id];
  return s.base + s.cohort->attempts;
}

const std::shared_ptr<const Failure>& ClassQueue::LastFailure(size_t id) const { return slots_[id].cohort->failure; }

int64_t ClassQueue::ScheduleAll(double now, const Hooks& hooks) {
  if (moving_.empty()) return 0;
  // One cursor per moving cohort: its next pod in the moment's order.
  struct Cursor {
    Cohort* cohort;
    std::set<size_t>::iterator next;
    bool closed = false;
    bool visiting = false;  // closed, but its pods go to Hooks::visit
  };
  std::vector<Cursor> cursors;
  cursors.reserve(moving_.size());
  for (Cohort* c : moving_)
    if (!c->ids.empty()) cursors.push_back({c, c->ids.begin()});
  auto later = [&](size_t a, size_t b) {
    return OrderOf(*cursors[a].cohort, *cursors[a].next) > OrderOf(*cursors[b].cohort, *cursors[b].next);
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t k = 0; k < cursors.size(); ++k) heap.push(k);
  // Classes that failed at this moment: their failure from each point on
  // (the point where it failed, then after each bind that changed it).
  struct Closed {
    uint32_t cls;
    std::shared_ptr<const Failure> current;
    std::vector<std::pair<Order, std::shared_ptr<const Failure>>> from;
  };
  std::vector<Closed> closed;  // few: a class closes once
  auto closed_of = [&closed](uint32_t cls) -> const Closed& {
    return *std::find_if(closed.begin(), closed.end(), [cls](const Closed& c) { return c.cls == cls; });
  };
  int64_t tried = 0;
  while (!heap.empty()) {
    const size_t k = heap.top();
    heap.pop();
    Cursor& cur = cursors[k];
    if (cur.visiting) {
      // A pod of a class that failed: it stays in its cohort.
      hooks.visit(*cur.next);
      if (++cur.next != cur.cohort->ids.end()) heap.push(k);
      continue;
    }
    if (cur.closed) continue;
    const size_t id = *cur.next;
    const Order at = OrderOf(*cur.cohort, id);
    Slot& slot = slots_[id];
    ++slot.base;
    ++tried;
    std::shared_ptr<const Failure> failure = hooks.attempt(id);
    if (failure) {
      // The class fails for the rest of the moment: its pods from here on
      // are left in their cohorts, counted as tried when the moment ends.
      --slot.base;
      const uint32_t cls = cur.cohort->cls;
      closed.push_back(Closed{cls, failure, {{at, failure}}});
      const bool visit = hooks.visit && hooks.visit_after_failure && hooks.visit_after_failure(*failure);
      for (Cursor& other : cursors) {
        if (other.cohort->cls != cls) continue;
        other.closed = true;
        // Cursors of the class's other cohorts are in the heap already
        // (each holds one entry); this one left it when popped.
        if (visit) other.visiting = true;
      }
      if (visit && ++cur.next != cur.cohort->ids.end()) heap.push(k);
      continue;
    }
    // Placed.
    slot.cohort = nullptr;
    --size_;
    cur.next = cur.cohort->ids.erase(cur.next);
    if (cur.next != cur.cohort->ids.end()) heap.push(k);
    // The bind may change the failure of a class closed earlier, for its
    // pods after this one.
    for (Closed& c : closed) {
      size_t after = std::numeric_limits<size_t>::max();
      for (const Cursor& other : cursors) {
        const Cohort& co = *other.cohort;
        if (co.cls == c.cls && !co.ids.empty() && OrderOf(co, *co.ids.rbegin()) > at) after = *co.ids.rbegin();
      }
      if (after == std::numeric_limits<size_t>::max()) continue;
      std::shared_ptr<const Failure> f = hooks.failure_now(after);
      if (!Same(f, c.current)) {
        c.from.emplace_back(at, f);
        c.current = std::move(f);
      }
    }
  }
  // The pods left in the moving cohorts are those of the failed classes:
  // they go to the pool (or the error backoff) with this moment's
  // Timestamp, split where their class's failure changed.
  std::vector<Cohort*> moved;
  moved.swap(moving_);
  for (Cohort* c : moved)
    if (c->cls < new_of_class_.size() && new_of_class_[c->cls] == c) new_of_class_[c->cls] = nullptr;
  int64_t left = 0;
  for (Cohort* c : moved) {
    Unindex(*c);
    if (c->ids.empty()) {
      cohorts_.erase(c->self);
      continue;
    }
    left += static_cast<int64_t>(c->ids.size());
    const Closed& cl = closed_of(c->cls);
    std::vector<std::pair<Cohort*, std::shared_ptr<const Failure>>> parts;
    for (size_t s = cl.from.size(); s-- > 1;) {
      // Pods after from[s].first (where a pod was placed) get from[s]'s
      // failure. Within a cohort the order is the ids'.
      const Order& bound = cl.from[s].first;
      const auto prefix = [](const Order& o) {
        return std::make_tuple(std::get<0>(o), std::get<1>(o), std::get<2>(o), std::get<3>(o));
      };
      const auto mine = prefix(OrderOf(*c, 0)), theirs = prefix(bound);
      auto first = mine < theirs   ? c->ids.end()
                   : mine > theirs ? c->ids.begin()
                                   : c->ids.upper_bound(std::get<4>(bound));
      if (first == c->ids.end()) continue;
      Cohort& tail = NewCohort(*c);
      MoveIds(*c, tail, first, c->ids.end());
      parts.emplace_back(&tail, cl.from[s].second);
    }
    parts.emplace_back(c, cl.from.front().second);
    for (auto& [part, failure] : parts) {
      if (part->ids.empty()) {
        cohorts_.erase(part->self);
        continue;
      }
      part->timestamp = now;
      part->attempts += 1;
      part->backoff_part = false;
      if (failure->fit_error.num_all_nodes == 0) {
        // ErrNoNodesAvailable: the error backoff, counted in consecutive errors.
        part->where = Where::kErrorBackoff;
        part->error = true;
        part->errors = std::min(part->errors + 1, sat_);
      } else {
        part->where = Where::kPool;
        part->error = false;
        part->errors = 0;
        part->count = std::min(part->count + 1, sat_);
      }
      part->failure = std::move(failure);
      Index(*part);
    }
  }
  // Each class's first failure was tried already; its other pods count now.
  return tried + left - static_cast<int64_t>(closed.size());
}

}  // namespace gpusched
