// Consumed capacity (DRAConsumableCapacity: what shares of a device take
// of its capacities, k8s.io/dynamic-resource-allocation structured's
// ConsumedCapacity) and its arithmetic, exact as Quantity is. Shared by the
// cluster's bookkeeping (allocated_devices.h) and the allocator's search.
#ifndef GPUSCHED_MODEL_DRA_CONSUMED_CAPACITY_H_
#define GPUSCHED_MODEL_DRA_CONSUMED_CAPACITY_H_

#include <map>
#include <string>

#include "gpusched/model/quantity.h"

namespace gpusched::dra {

// Capacity by name (schedulerapi.ConsumedCapacity).
using ConsumedCapacity = std::map<std::string, Quantity, std::less<>>;

// ConsumedCapacity.Add / Sub (Sub drops nothing; ConsumedCapacityCollection.Remove
// erases a device whose capacities are all zero).
void AddCapacity(ConsumedCapacity& to, const ConsumedCapacity& added);
void SubCapacity(ConsumedCapacity& from, const ConsumedCapacity& subtracted);
bool CapacityEmpty(const ConsumedCapacity& c);

}  // namespace gpusched::dra

#endif  // GPUSCHED_MODEL_DRA_CONSUMED_CAPACITY_H_
