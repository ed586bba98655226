// Helpers shared by the trace loader's tests (trace_loader_test.cc, on text
// in memory and temporary files; trace_loader_data_test.cc, on the shipped
// trace).
#ifndef GPUSCHED_TESTS_SIMINPUT_TRACE_TEST_UTIL_H_
#define GPUSCHED_TESTS_SIMINPUT_TRACE_TEST_UTIL_H_

#include <map>
#include <string>
#include <vector>

#include "gpusched/model/resources.h"
#include "gpusched/util/input_error.h"

namespace gpusched::trace_test {

inline const std::string kTraceDir = GPUSCHED_SOURCE_DIR "/data/alibaba-gpu-2023/";

// "cpu=12 memory=16Gi nvidia.com/gpu=1": a ResourceList in canonical form.
inline std::string Render(const ResourceList& list) {
  std::string s;
  for (const auto& [name, q] : list) s += (s.empty() ? "" : " ") + name + "=" + q.String();
  return s;
}

inline std::string Render(const std::map<std::string, std::string, std::less<>>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

inline std::string Join(const std::vector<InputError>& errs) {
  std::string s;
  for (const auto& e : errs) s += e.ToString() + "\n";
  return s;
}

}  // namespace gpusched::trace_test

#endif  // GPUSCHED_TESTS_SIMINPUT_TRACE_TEST_UTIL_H_
