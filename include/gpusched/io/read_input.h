// ReadInput: one whole manifest, configuration or workload file (or stdin,
// "-") read into memory for the YAML/JSON parsers, which need the text at
// once. A file larger than the limit is refused before it is read, and
// stdin as soon as it passes the limit: with the parsers' own limits (4 MiB
// per value, 200 levels of nesting), no input costs more memory than this.
#ifndef GPUSCHED_IO_READ_INPUT_H_
#define GPUSCHED_IO_READ_INPUT_H_

#include <cstdint>
#include <istream>
#include <string>

#include "gpusched/util/status.h"

namespace gpusched {

// `kubectl get nodes,pods -A -o yaml` for 10,000 nodes and 100,000 pods is a
// few hundred MB; a million-pod workload belongs in a trace CSV, which is
// streamed line by line.
inline constexpr uint64_t kMaxInputBytes = uint64_t{1} << 30;
// Bytes of room ReadInput leaves after the text it read (out.capacity() >=
// out.size() + kInputPadding), so that the JSON parser, which reads up to
// 64 bytes past a value, needs no copy of the input.
inline constexpr size_t kInputPadding = 64;

// Errors (no "error: " prefix; callers add their own): NotFound "the path
// \"path\" does not exist" (as the manifest loader words it for -f) or
// "cannot read \"path\"" when it cannot be opened, IOError the latter when a read fails,
// InvalidArgument when it is too large. `in` stands in for stdin (tests).
Status ReadInput(const std::string& path, std::string& out, uint64_t limit = kMaxInputBytes,
                 std::istream* in = nullptr);

}  // namespace gpusched

#endif  // GPUSCHED_IO_READ_INPUT_H_
