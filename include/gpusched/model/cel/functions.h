// Function declarations and implementations (one Overload per cel-go
// overload id): the standard library (cel-go checker/stdlib +
// interpreter/functions), the Kubernetes libraries the DRA environment
// enables (k8s.io/apiserver/pkg/cel/library: quantity, semver, regex,
// lists) and cel-go ext.Strings version 2. The checker resolves calls
// against the declarations; the interpreter dispatches on runtime values
// to the first overload whose parameters match.
#ifndef GPUSCHED_MODEL_CEL_FUNCTIONS_H_
#define GPUSCHED_MODEL_CEL_FUNCTIONS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

#include "gpusched/model/cel/types.h"
#include "gpusched/model/cel/value.h"

namespace gpusched::cel {

using Impl = Value (*)(const std::vector<Value>& args);

struct Overload {
  std::string id;
  std::string function;
  bool member = false;       // receiver style: params[0] is the receiver
  std::vector<Type> params;  // receiver first for member overloads
  Type result;
  Impl impl = nullptr;       // null for operators the interpreter evaluates itself
};

class FunctionRegistry {
 public:
  // The registry of the DRA selector environment (built once, immutable).
  static const FunctionRegistry& Get();

  // All overloads of `function` (global and member), or null.
  const std::vector<Overload>* Find(const std::string& function) const;

  void Add(Overload o);

 private:
  std::map<std::string, std::vector<Overload>, std::less<>> by_name_;
};

// Whether a runtime value fits a declared parameter type (dyn, any and type
// parameters take anything; lists and maps are matched by kind).
bool ValueMatches(const Type& t, const Value& v);

// Library registration (one file each).
void AddStandardFunctions(FunctionRegistry* r);
void AddStringFunctions(FunctionRegistry* r);
void AddKubernetesFunctions(FunctionRegistry* r);
void AddOptionalFunctions(FunctionRegistry* r);

// Helpers shared by the libraries.
Value NoSuchOverload();
// The compiled RE2 for `pattern` (check ok()), from a small process-wide
// cache: selectors match the same few constant patterns against every
// device. Thread-safe.
std::shared_ptr<const re2::RE2> CachedRegex(const std::string& pattern);
// Number of code points in a UTF-8 string.
int64_t CodePointCount(const std::string& s);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_FUNCTIONS_H_
