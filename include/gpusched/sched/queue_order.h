// Queue orders for a batch of pods: fifo (input order, the seed's) and
// largest-first (by GPU request, descending, stable), the seed's "try it
// yourself" fix for fragmentation.
#ifndef GPUSCHED_SCHED_QUEUE_ORDER_H_
#define GPUSCHED_SCHED_QUEUE_ORDER_H_

#include <optional>
#include <string_view>
#include <vector>

#include "gpusched/sched/pod_info.h"

namespace gpusched {

enum class QueueOrder { kFifo, kLargestFirst };

std::optional<QueueOrder> ParseQueueOrder(std::string_view name);
const char* QueueOrderName(QueueOrder o);

// Returns indices into `pods` in the order they are to be scheduled.
std::vector<size_t> OrderQueue(const std::vector<PodInfo>& pods, QueueOrder order);

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_QUEUE_ORDER_H_
