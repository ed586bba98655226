// A claim's constraints while the allocator searches (v1.35's
// internal/experimental/allocator_experimental.go matchAttributeConstraint
// and internal/experimental/constraint.go distinctAttributeConstraint):
// Add is called for each device about to be allocated and says whether the
// device keeps the constraint satisfied; every successful Add is undone by
// one Remove with the same arguments when the search backtracks.
#ifndef GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_CONSTRAINTS_H_
#define GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_CONSTRAINTS_H_

#include <map>
#include <set>
#include <string>

#include "gpusched/model/dra/resource_slice.h"

namespace gpusched::dra {

// lookupAttribute: `name` is fully qualified ("domain/id"); a device's
// unqualified attribute is in its driver's domain. nullptr when absent.
const DeviceAttribute* LookupAttribute(const Device& device, const std::string& driver, const std::string& name);

class AttributeConstraint {
 public:
  enum class Kind { kMatch, kDistinct };
  // `requests`: the constraint's requests (empty: every request of the
  // claim); a name may be "<request>" or "<request>/<subrequest>".
  AttributeConstraint(Kind kind, std::set<std::string, std::less<>> requests, std::string attribute)
      : kind_(kind), requests_(std::move(requests)), attribute_(std::move(attribute)) {}

  // `request` is the request's name, `subrequest` the subrequest's ("" for none).
  bool Add(const std::string& request, const std::string& subrequest, const Device& device,
           const std::string& driver);
  void Remove(const std::string& request, const std::string& subrequest);

 private:
  bool Applies(const std::string& request, const std::string& subrequest) const;
  bool AddMatch(const DeviceAttribute& attr);
  bool AddDistinct(const std::string& request, const DeviceAttribute& attr);

  Kind kind_;
  std::set<std::string, std::less<>> requests_;
  std::string attribute_;
  int num_devices_ = 0;
  // matchAttribute: the value of the first device in the set.
  DeviceAttribute first_;
  // distinctAttribute: v1.35 keeps one value per *request name* (a map), so a
  // request's later device replaces its earlier one and is compared against
  // the other requests' values only; Remove forgets the request's value.
  std::map<std::string, DeviceAttribute, std::less<>> distinct_values_;
};

}  // namespace gpusched::dra

#endif  // GPUSCHED_SCHED_PLUGINS_DYNAMICRESOURCES_ALLOCATOR_CONSTRAINTS_H_
