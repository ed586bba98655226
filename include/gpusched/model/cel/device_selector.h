// CEL device selectors (resource.k8s.io DeviceSelector.cel.expression), as
// k8s.io/dynamic-resource-allocation/cel/compile.go compiles and evaluates
// them: the variable `device` with fields `driver`, `attributes`
// (domain -> id -> value), `capacity` (domain -> id -> quantity) and, with
// DRAConsumableCapacity, `allowMultipleAllocations`; the Kubernetes CEL
// libraries (quantity, semver, strings, lists, regex with RE2's `matches`,
// cel.bind); the cost limit; cel-go's compile and runtime error texts.
//
// THIS HEADER IS THE CONTRACT between the CEL interpreter (model/cel/) and
// its users (the structured allocator, validation, explain). Written first,
// implemented by model/cel/*.cc.
#ifndef GPUSCHED_MODEL_CEL_DEVICE_SELECTOR_H_
#define GPUSCHED_MODEL_CEL_DEVICE_SELECTOR_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "gpusched/model/dra/resource_slice.h"
#include "gpusched/util/status.h"

namespace gpusched::cel {

struct CompileOptions {
  // DRAConsumableCapacity: `device.allowMultipleAllocations` is declared.
  bool consumable_capacity = false;
  // Upstream's CELSelectorExpressionMaxCost (1,000,000); the estimated cost
  // of a selector above it is a compile error.
  uint64_t max_cost = 1000000;
};

class Program;  // the checked expression (model/cel/ internals)

// A compiled selector. Copyable (shares the program); thread-safe to
// evaluate from several threads at once.
class DeviceSelector {
 public:
  // Compiles `expression` as upstream's compiler does for a stored
  // expression. Errors carry cel-go's text (e.g. "ERROR: <input>:1:8:
  // undeclared reference to 'x' (in container '')\n | ...\n | .......^").
  static Result<DeviceSelector> Compile(std::string_view expression, const CompileOptions& options = {});

  // Evaluates the selector for `device` of `driver`'s slice. An unknown
  // attribute domain reads as an empty map; an unknown id in it is the
  // runtime error "no such key: <id>". Errors carry cel-go's runtime text
  // (callers add "CEL runtime error: " as upstream's allocator does).
  Result<bool> Matches(const std::string& driver, const Device& device) const;

  const std::string& expression() const;
  // The estimated maximum cost upstream's checker computes.
  uint64_t max_cost() const;

 private:
  std::shared_ptr<const Program> program_;
};

// Compiled selectors by expression text (upstream cel.Cache): the allocator
// compiles each expression once however many devices and nodes it checks.
class SelectorCache {
 public:
  explicit SelectorCache(CompileOptions options = {}) : options_(options) {}
  Result<DeviceSelector> Get(const std::string& expression);

 private:
  CompileOptions options_;
  std::mutex mu_;
  std::map<std::string, Result<DeviceSelector>, std::less<>> compiled_;
};

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_DEVICE_SELECTOR_H_
