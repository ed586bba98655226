#include "gpusched/sim/event_queue.h"

#include <algorithm>

namespace gpusched {
namespace {

// std::*_heap build a max-heap, so "less" here means "comes out later".
bool Later(const Event& a, const Event& b) {
  if (a.time != b.time) return a.time > b.time;
  return a.seq > b.seq;
}

}  // namespace

const char* EventKindName(EventKind k) {
  switch (k) {
    case EventKind::kPodArrival: return "pod-arrival";
    case EventKind::kPodFinish: return "pod-finish";
    case EventKind::kBackoffFlush: return "backoff-flush";
    case EventKind::kNodeAdd: return "node-add";
    case EventKind::kNodeRemove: return "node-remove";
    case EventKind::kUnschedulableFlush: return "unschedulable-flush";
    case EventKind::kPermitTimeout: return "permit-timeout";
  }
  return "";
}

uint64_t EventQueue::Push(double time, EventKind kind, uint64_t payload) {
  const uint64_t seq = next_seq_++;
  heap_.push_back(Event{time, seq, payload, kind});
  std::push_heap(heap_.begin(), heap_.end(), Later);
  return seq;
}

Event EventQueue::Pop() {
  std::pop_heap(heap_.begin(), heap_.end(), Later);
  Event e = heap_.back();
  heap_.pop_back();
  return e;
}

}  // namespace gpusched
