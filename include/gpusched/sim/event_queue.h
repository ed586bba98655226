// EventQueue: the simulator's clock. A binary min-heap of timed events,
// ordered by time and then by a sequence number handed out at Push, so that
// events at the same simulated time come out in the order they were pushed:
// the run never depends on heap internals or on floating-point ties, and the
// same input gives the same event order on every platform. Push and Pop are
// O(log n).
#ifndef GPUSCHED_SIM_EVENT_QUEUE_H_
#define GPUSCHED_SIM_EVENT_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace gpusched {

// A time that never comes: no event, no expiry.
inline constexpr double kNever = std::numeric_limits<double>::infinity();

enum class EventKind : uint8_t {
  kPodArrival,          // payload: pod index (the simulator streams these from a sorted list)
  kPodFinish,           // payload: pod index (stale when the pod was evicted meanwhile)
  kBackoffFlush,        // flushBackoffQCompleted: pods whose backoff expired go to activeQ
  kNodeAdd,             // payload: index into the simulator's node-event list
  kNodeRemove,          // payload: likewise
  kUnschedulableFlush,  // flushUnschedulablePodsLeftover
  kPermitTimeout,       // payload: a gang's index in GangPermit (stale when it started meanwhile)
};

const char* EventKindName(EventKind k);

struct Event {
  double time = 0;
  uint64_t seq = 0;  // assigned by Push, unique, increasing
  uint64_t payload = 0;
  EventKind kind = EventKind::kPodArrival;
};

class EventQueue {
 public:
  // Adds an event and returns its sequence number. `time` must not be NaN
  // (the caller filters invalid times; a NaN would break the heap order).
  uint64_t Push(double time, EventKind kind, uint64_t payload = 0);
  // The earliest event (lowest time, then lowest seq). Not empty() required.
  const Event& Top() const { return heap_.front(); }
  Event Pop();
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  void Reserve(size_t n) { heap_.reserve(n); }

 private:
  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_EVENT_QUEUE_H_
