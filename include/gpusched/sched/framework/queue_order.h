// Queue orders for a batch of pods: the QueueSort extension point.
//   priority       kube-scheduler's PrioritySort (queuesort/priority_sort.go):
//                  higher spec.priority first, then earlier arrival
//   fifo           input order (the seed's)
//   largest-first  by GPU request, descending, stable (the seed's "try it yourself")
//   smallest-first by GPU request, ascending, stable
#ifndef GPUSCHED_SCHED_FRAMEWORK_QUEUE_ORDER_H_
#define GPUSCHED_SCHED_FRAMEWORK_QUEUE_ORDER_H_

#include <optional>
#include <string_view>
#include <vector>

#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

enum class QueueOrder { kFifo, kLargestFirst, kSmallestFirst, kPriority };

std::optional<QueueOrder> ParseQueueOrder(std::string_view name);
const char* QueueOrderName(QueueOrder o);
inline constexpr const char* kQueueOrderNames = "priority, fifo, largest-first, smallest-first";

// Returns indices into `pods` in the order they are to be scheduled. Arrival
// order is the order of `pods`.
std::vector<size_t> OrderQueue(const std::vector<PodInfo>& pods, QueueOrder order);
std::vector<size_t> OrderQueue(const std::vector<const PodInfo*>& pods, QueueOrder order);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_FRAMEWORK_QUEUE_ORDER_H_
