// InputError: one object (or document) of the user's input that gpusched
// refused, naming the object, the file and the line, with a message that
// reads as kubectl would print it. These end up in the "rejected" list.
#ifndef GPUSCHED_UTIL_INPUT_ERROR_H_
#define GPUSCHED_UTIL_INPUT_ERROR_H_

#include <string>
#include <utility>

namespace gpusched {

struct InputError {
  InputError() = default;
  InputError(std::string object, std::string file, int line, std::string message, std::string advice = "")
      : object(std::move(object)),
        file(std::move(file)),
        line(line),
        message(std::move(message)),
        advice(std::move(advice)) {}

  std::string object;  // "Pod/default/x", "Node/n1", or "" for an unparseable document
  std::string file;
  int line = 0;        // 1-based; 0 when unknown
  std::string message;  // as the API server (or kubectl) says it, when it has something to say
  // gpusched's own words after the message, "" when it has none: what the
  // user most likely meant and how to write it (a fractional GPU request).
  std::string advice;

  // "file:line: message", then the advice on the lines after it.
  std::string ToString() const {
    return file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + message + (advice.empty() ? "" : "\n" + advice);
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_INPUT_ERROR_H_
