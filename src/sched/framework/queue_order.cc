#include "gpusched/sched/framework/queue_order.h"

#include <algorithm>
#include <numeric>

#include "gpusched/config/plugin_names.h"

namespace gpusched {

std::optional<QueueOrder> ParseQueueOrder(std::string_view name) {
  if (name == "fifo") return QueueOrder::kFifo;
  if (name == "largest-first") return QueueOrder::kLargestFirst;
  if (name == "smallest-first") return QueueOrder::kSmallestFirst;
  if (name == "priority" || name == names::kPrioritySort) return QueueOrder::kPriority;
  return std::nullopt;
}

const char* QueueOrderName(QueueOrder o) {
  switch (o) {
    case QueueOrder::kFifo: return "fifo";
    case QueueOrder::kLargestFirst: return "largest-first";
    case QueueOrder::kSmallestFirst: return "smallest-first";
    case QueueOrder::kPriority: return "priority";
  }
  return "";
}

std::vector<size_t> OrderQueue(const std::vector<PodInfo>& pods, QueueOrder order) {
  std::vector<const PodInfo*> p;
  p.reserve(pods.size());
  for (const PodInfo& info : pods) p.push_back(&info);
  return OrderQueue(p, order);
}

std::vector<size_t> OrderQueue(const std::vector<const PodInfo*>& pods, QueueOrder order) {
  std::vector<size_t> idx(pods.size());
  std::iota(idx.begin(), idx.end(), 0);
  switch (order) {
    case QueueOrder::kFifo:
      break;
    case QueueOrder::kLargestFirst:
      std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return pods[a]->gpus() > pods[b]->gpus(); });
      break;
    case QueueOrder::kSmallestFirst:
      std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return pods[a]->gpus() < pods[b]->gpus(); });
      break;
    case QueueOrder::kPriority:
      // Less(p1, p2) = p1 > p2 || (p1 == p2 && p1 arrived first); stable keeps arrival.
      std::stable_sort(idx.begin(), idx.end(),
                       [&](size_t a, size_t b) { return pods[a]->priority > pods[b]->priority; });
      break;
  }
  return idx;
}

}  // namespace gpusched
