#include "gpusched/sched/queue_order.h"

#include <algorithm>
#include <numeric>

namespace gpusched {

std::optional<QueueOrder> ParseQueueOrder(std::string_view name) {
  if (name == "fifo") return QueueOrder::kFifo;
  if (name == "largest-first") return QueueOrder::kLargestFirst;
  return std::nullopt;
}

const char* QueueOrderName(QueueOrder o) { return o == QueueOrder::kFifo ? "fifo" : "largest-first"; }

std::vector<size_t> OrderQueue(const std::vector<PodInfo>& pods, QueueOrder order) {
  std::vector<size_t> idx(pods.size());
  std::iota(idx.begin(), idx.end(), 0);
  if (order == QueueOrder::kLargestFirst) {
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return pods[a].gpus() > pods[b].gpus(); });
  }
  return idx;
}

}  // namespace gpusched
