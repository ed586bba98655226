#include "gpusched/sim/scheduling_queue.h"

#include <algorithm>
#include <cmath>

#include "gpusched/sim/event_queue.h"

namespace gpusched {

SchedulingQueue::SchedulingQueue(SchedulingQueueOptions options) : options_(options) {}

// The QueueSort Less. kPriority is PrioritySort (plugins/queuesort/
// priority_sort.go): higher priority, then earlier Timestamp. The others are
// gpusched's orders, on the same Timestamp. Ties left by upstream's Less (the
// heap would break them arbitrarily) go to the lower pod index.
bool SchedulingQueue::ActiveLess(const QueuedPod& a, const QueuedPod& b) const {
  switch (options_.order) {
    case QueueOrder::kPriority:
      if (a.priority != b.priority) return a.priority > b.priority;
      break;
    case QueueOrder::kLargestFirst:
      if (a.gpu_milli != b.gpu_milli) return a.gpu_milli > b.gpu_milli;
      break;
    case QueueOrder::kSmallestFirst:
      if (a.gpu_milli != b.gpu_milli) return a.gpu_milli < b.gpu_milli;
      break;
    case QueueOrder::kFifo:
      break;
  }
  if (a.timestamp != b.timestamp) return a.timestamp < b.timestamp;
  return a.id < b.id;
}

// lessBackoffCompletedWithPriority: expiry, then the activeQ order (upstream
// uses the second key only with the gate; without it the order within one
// expiry is never observable, since a flush moves them all to activeQ).
bool SchedulingQueue::BackoffLess(const QueuedPod& a, const QueuedPod& b) const {
  if (a.backoff_expiration != b.backoff_expiration) return a.backoff_expiration < b.backoff_expiration;
  return ActiveLess(a, b);
}

// std::*_heap keep the greatest element at the front, so the heaps compare
// with "comes out later".
void SchedulingQueue::PushActive(QueuedPod p) {
  active_.push_back(p);
  std::push_heap(active_.begin(), active_.end(), [this](const QueuedPod& x, const QueuedPod& y) { return ActiveLess(y, x); });
}

void SchedulingQueue::PushBackoff(QueuedPod p, std::vector<QueuedPod>& heap) {
  p.backoff_expiration = BackoffExpiration(p);
  heap.push_back(p);
  std::push_heap(heap.begin(), heap.end(), [this](const QueuedPod& x, const QueuedPod& y) { return BackoffLess(y, x); });
}

QueuedPod SchedulingQueue::PopHeap(std::vector<QueuedPod>& heap, bool backoff) {
  if (backoff) {
    std::pop_heap(heap.begin(), heap.end(), [this](const QueuedPod& x, const QueuedPod& y) { return BackoffLess(y, x); });
  } else {
    std::pop_heap(heap.begin(), heap.end(), [this](const QueuedPod& x, const QueuedPod& y) { return ActiveLess(y, x); });
  }
  QueuedPod p = heap.back();
  heap.pop_back();
  return p;
}

void SchedulingQueue::Add(size_t id, int32_t priority, int64_t gpu_milli, double now) {
  QueuedPod p;
  p.id = id;
  p.priority = priority;
  p.gpu_milli = gpu_milli;
  p.timestamp = now;
  PushActive(p);
}

std::optional<QueuedPod> SchedulingQueue::Pop() {
  QueuedPod p;
  if (!active_.empty()) {
    p = PopHeap(active_, false);
  } else if (options_.pop_from_backoff_q && !backoff_.empty()) {
    // activeQueue.unlockedPop -> backoffQPopper.popBackoff: an idle scheduler
    // does not sit out a backoff. (podErrorBackoffQ is not popped so.)
    p = PopHeap(backoff_, true);
  } else {
    return std::nullopt;
  }
  ++p.attempts;  // unlockedMoveEntityToInFlight: IncAttempts
  return p;
}

void SchedulingQueue::AddUnschedulable(QueuedPod pod, double now, bool error) {
  // "Refresh the timestamp since the pod is re-added." The new Timestamp and
  // failure counts give a new backoff expiry.
  pod.timestamp = now;
  if (error) {
    // No rejector plugin: determineSchedulingHintForInFlightPod says
    // queueAfterBackoff, into podErrorBackoffQ (backoffQueue.add).
    ++pod.consecutive_errors;
    PushBackoff(pod, error_backoff_);
    return;
  }
  ++pod.unschedulable_count;
  pod.consecutive_errors = 0;
  unschedulable_.push_back(pod);
}

double SchedulingQueue::BackoffDuration(int32_t failures) const {
  if (failures <= 0) return 0;
  double d = options_.initial_backoff;
  for (int32_t i = 1; i < failures; ++i) {
    if (d > options_.max_backoff - d) return options_.max_backoff;
    d += d;
  }
  return std::min(d, options_.max_backoff);
}

double SchedulingQueue::BackoffExpiration(const QueuedPod& pod) const {
  // A pod never tried, or max backoff 0, has no backoff at all.
  const int32_t count = pod.consecutive_errors > 0 ? pod.consecutive_errors : pod.unschedulable_count;
  if (count == 0 || options_.max_backoff <= 0) return -kNever;
  const double t = pod.timestamp + BackoffDuration(count);
  // alignToWindow: Truncate to backoffQOrderingWindowDuration (1 s).
  return options_.pop_from_backoff_q ? std::floor(t) : t;
}

bool SchedulingQueue::IsBackingOff(const QueuedPod& pod, double now) const {
  const double b = BackoffExpiration(pod);
  if (b == -kNever) return false;
  // With the gate, a pod whose expiry is in the current window is still
  // backing off ("Don't use After, because in case of windows equality we
  // want to return true"); without it, BackoffExpiration.After(now).
  return options_.pop_from_backoff_q ? !(b < std::floor(now)) : b > now;
}

void SchedulingQueue::Requeue(QueuedPod p, double now) {
  if (IsBackingOff(p, now)) {
    PushBackoff(p, backoff_);
  } else {
    PushActive(p);
  }
}

void SchedulingQueue::MoveAllToActiveOrBackoffQueue(double now) {
  std::deque<QueuedPod> pods;
  pods.swap(unschedulable_);
  for (const QueuedPod& p : pods) Requeue(p, now);
}

void SchedulingQueue::MoveToActiveOrBackoffQueue(double now, const std::function<bool(const QueuedPod&)>& worth) {
  // The pods left keep their order (failure order, for the leftover flush).
  std::deque<QueuedPod> stay;
  for (const QueuedPod& p : unschedulable_) {
    if (worth(p)) {
      Requeue(p, now);
    } else {
      stay.push_back(p);
    }
  }
  unschedulable_.swap(stay);
}

size_t SchedulingQueue::Activate(const std::function<bool(const QueuedPod&)>& which) {
  size_t moved = 0;
  std::deque<QueuedPod> stay;
  for (const QueuedPod& p : unschedulable_) {
    if (which(p)) {
      PushActive(p);
      ++moved;
    } else {
      stay.push_back(p);
    }
  }
  unschedulable_.swap(stay);
  for (std::vector<QueuedPod>* heap : {&backoff_, &error_backoff_}) {
    std::vector<QueuedPod> kept;
    for (const QueuedPod& p : *heap) {
      if (which(p)) {
        PushActive(p);
        ++moved;
      } else {
        kept.push_back(p);
      }
    }
    if (kept.size() == heap->size()) continue;
    heap->swap(kept);
    std::make_heap(heap->begin(), heap->end(),
                   [this](const QueuedPod& x, const QueuedPod& y) { return BackoffLess(y, x); });
  }
  return moved;
}

void SchedulingQueue::FlushBackoffQCompleted(double now) {
  // popAllBackoffCompleted: podBackoffQ, then podErrorBackoffQ.
  for (std::vector<QueuedPod>* heap : {&backoff_, &error_backoff_})
    while (!heap->empty() && !IsBackingOff(heap->front(), now)) PushActive(PopHeap(*heap, true));
}

void SchedulingQueue::FlushUnschedulablePodsLeftover(double now) {
  // currentTime.Sub(pInfo.Timestamp) > podMaxInUnschedulablePodsDuration;
  // the oldest pods are at the front.
  while (!unschedulable_.empty() && now - unschedulable_.front().timestamp > kPodMaxInUnschedulablePodsDuration) {
    QueuedPod p = unschedulable_.front();
    unschedulable_.pop_front();
    Requeue(p, now);
  }
}

double SchedulingQueue::NextBackoffFlush() const {
  if (backoff_.empty() && error_backoff_.empty()) return kNever;
  double b = kNever;
  if (!backoff_.empty()) b = backoff_.front().backoff_expiration;
  if (!error_backoff_.empty()) b = std::min(b, error_backoff_.front().backoff_expiration);
  return BackoffFlushTick(b);
}

double SchedulingQueue::BackoffFlushTick(double b) const {
  // Ticks fall on whole multiples of kBackoffFlushInterval. Without the gate
  // the first tick at or after b moves the pod (not After); with it, the
  // first tick in a later window than b.
  if (options_.pop_from_backoff_q) return (std::floor(b / kBackoffFlushInterval) + 1) * kBackoffFlushInterval;
  return std::ceil(b / kBackoffFlushInterval) * kBackoffFlushInterval;
}

double SchedulingQueue::NextUnschedulableFlush() const {
  if (unschedulable_.empty()) return kNever;
  return UnschedulableFlushTick(unschedulable_.front().timestamp);
}

double SchedulingQueue::UnschedulableFlushTick(double ts) {
  double t = (std::floor((ts + kPodMaxInUnschedulablePodsDuration) / kUnschedulableFlushInterval) + 1) *
             kUnschedulableFlushInterval;
  // Guard against rounding: the tick must satisfy the strict inequality.
  while (!(t - ts > kPodMaxInUnschedulablePodsDuration)) t += kUnschedulableFlushInterval;
  return t;
}

}  // namespace gpusched
