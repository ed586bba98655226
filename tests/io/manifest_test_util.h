// Helpers shared by the manifest loader's tests (manifest_loader_test.cc, the
// ordinary rules; manifest_loader_hostile_test.cc, hostile input).
#ifndef GPUSCHED_TESTS_IO_MANIFEST_TEST_UTIL_H_
#define GPUSCHED_TESTS_IO_MANIFEST_TEST_UTIL_H_

#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"

namespace gpusched::manifest_test {

// `text` loaded as if read from `file`.
inline Manifests Load(const std::string& text, const std::string& file = "t.yaml") {
  Manifests m;
  LoadManifestText(text, file, m);
  return m;
}

// One line per entry, each ending in "\n".
inline std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

}  // namespace gpusched::manifest_test

#endif  // GPUSCHED_TESTS_IO_MANIFEST_TEST_UTIL_H_
