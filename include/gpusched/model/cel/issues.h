// Compile errors and their display, as cel-go common/errors.go prints them:
//   ERROR: <input>:LINE:COL: message
//    | source line
//    | ....^
// sorted by location; an error without a location prints as line -1,
// column 0 with no snippet.
#ifndef GPUSCHED_MODEL_CEL_ISSUES_H_
#define GPUSCHED_MODEL_CEL_ISSUES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::cel {

inline constexpr int32_t kNoLocation = -1;

struct Issue {
  int32_t offset = kNoLocation;  // byte offset into the source
  std::string message;
};

// cel-go Errors.ToDisplayString (at most 100 errors, then "N more errors
// were truncated").
std::string FormatIssues(std::string_view source, std::vector<Issue> issues);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_ISSUES_H_
