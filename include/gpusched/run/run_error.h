// RunError: why the settings of a run cannot be used, as a value. Its kind
// says what went wrong, `setting` which setting, and `message` the sentence,
// naming settings by reference (setting.h): Message() words it with the
// concepts ("unknown policy \"bestfit\" (known: first-fit, ...)"), cli with
// its flags. RunResult<T> is a T or a RunError, as util/status.h's Result<T>
// is a T or a Status.
#ifndef GPUSCHED_RUN_RUN_ERROR_H_
#define GPUSCHED_RUN_RUN_ERROR_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "gpusched/run/setting.h"
#include "gpusched/util/status.h"

namespace gpusched {

struct RunError {
  enum class Kind {
    kUnknownName,    // a name the setting does not know: a policy, a queue order, a feature gate, ...
    kInvalidValue,   // a value of the wrong form: a scheduler name that is not NAME=POLICY
    kConflict,       // a scheduler name given twice, or one a profile already serves
    kGateOff,        // the configuration enables a plugin whose feature gate is off
    kConfigInvalid,  // the configuration file cannot be read or is invalid (the loader's message)
  };
  Kind kind;
  Setting setting;
  SettingText message;  // no "error: " prefix, no final newline

  std::string Message(SettingNamer name = ConceptName) const { return message.Render(name); }
};

// The message of an engine Status (sched, io), without the "error: " the
// engine's messages start with: a RunError's message has no prefix.
std::string EngineMessage(const Status& status);

// Either a value or a RunError.
template <typename T>
class RunResult {
 public:
  RunResult(T value) : v_(std::move(value)) {}           // NOLINT: implicit by design
  RunResult(RunError error) : v_(std::move(error)) {}    // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  const RunError& error() const { assert(!ok()); return std::get<RunError>(v_); }
  const T& value() const& { assert(ok()); return std::get<T>(v_); }
  T& value() & { assert(ok()); return std::get<T>(v_); }
  T&& value() && { assert(ok()); return std::get<T>(std::move(v_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, RunError> v_;
};

}  // namespace gpusched

#endif  // GPUSCHED_RUN_RUN_ERROR_H_
