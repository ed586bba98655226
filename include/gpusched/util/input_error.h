// InputError: one object (or document) of the user's input that gpusched
// refused, naming the object, the file and the line, with a message that
// reads as kubectl would print it. These end up in the "rejected" list.
#ifndef GPUSCHED_UTIL_INPUT_ERROR_H_
#define GPUSCHED_UTIL_INPUT_ERROR_H_

#include <string>

namespace gpusched {

struct InputError {
  std::string object;  // "Pod/default/x", "Node/n1", or "" for an unparseable document
  std::string file;
  int line = 0;        // 1-based; 0 when unknown
  std::string message;

  // "file:line: message"
  std::string ToString() const {
    return file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + message;
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_INPUT_ERROR_H_
