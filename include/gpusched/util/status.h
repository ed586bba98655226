// Status and Result<T>: how gpusched reports *input* errors (a file that
// cannot be read, a manifest field that is invalid) as values rather than
// exceptions. Scheduling verdicts are a different thing: see
// gpusched/sched/api/status.h.
//
// Modelled on LevelDB's Status: cheap to copy when OK, carries a code and a
// human-readable message that already names file, object and field.
#ifndef GPUSCHED_UTIL_STATUS_H_
#define GPUSCHED_UTIL_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpusched {

class Status {
 public:
  enum class Code {
    kOk = 0,
    kInvalidArgument,  // bad value in otherwise well-formed input
    kParseError,       // the text cannot be parsed (YAML/JSON/CSV syntax)
    kNotFound,         // a file or object does not exist
    kIOError,          // the OS refused a read or write
    kUsage,            // command-line usage error
  };

  Status() = default;
  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) { return Status(Code::kInvalidArgument, std::move(msg)); }
  static Status ParseError(std::string msg) { return Status(Code::kParseError, std::move(msg)); }
  static Status NotFound(std::string msg) { return Status(Code::kNotFound, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(Code::kIOError, std::move(msg)); }
  static Status Usage(std::string msg) { return Status(Code::kUsage, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // The same error with `prefix` before its message ("error: ").
  Status Prefixed(std::string_view prefix) const {
    return ok() ? *this : Status(code_, std::string(prefix) + message_);
  }

  // "<message>" for errors, "OK" for success.
  std::string ToString() const { return ok() ? "OK" : message_; }

  bool operator==(const Status& o) const { return code_ == o.code_ && message_ == o.message_; }

 private:
  Status(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

// Either a value or a non-OK Status.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  const T& value() const& { assert(ok()); return *value_; }
  T& value() & { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_STATUS_H_
