#include "gpusched/model/dra/consumed_capacity.h"

namespace gpusched::dra {

void AddCapacity(ConsumedCapacity& to, const ConsumedCapacity& added) {
  for (const auto& [name, q] : added) {
    auto it = to.find(name);
    if (it == to.end()) {
      to.emplace(name, q);
    } else {
      it->second.Add(q);
    }
  }
}

void SubCapacity(ConsumedCapacity& from, const ConsumedCapacity& subtracted) {
  for (const auto& [name, q] : subtracted) {
    auto it = from.find(name);
    if (it != from.end()) it->second.Sub(q);
  }
}

bool CapacityEmpty(const ConsumedCapacity& c) {
  for (const auto& [name, q] : c) {
    if (!q.IsZero()) return false;
  }
  return true;
}

}  // namespace gpusched::dra
