// Semver: a semantic version as github.com/blang/semver/v4 parses and
// orders it (the type behind CEL's semver() in
// k8s.io/apiserver/pkg/cel/library/semverlib.go and behind DRA version
// attributes, dynamic-resource-allocation/cel/compile.go getAttributeValue).
#ifndef GPUSCHED_MODEL_CEL_SEMVER_H_
#define GPUSCHED_MODEL_CEL_SEMVER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/util/status.h"

namespace gpusched::cel {

struct Semver {
  // A pre-release part is numeric (compared as a number) or alphanumeric.
  struct PreRelease {
    std::string text;
    bool numeric = false;
    uint64_t number = 0;
  };
  uint64_t major = 0;
  uint64_t minor = 0;
  uint64_t patch = 0;
  std::vector<PreRelease> pre;
  std::vector<std::string> build;  // ignored by Compare, as in blang

  // blang semver.Parse: strict "MAJOR.MINOR.PATCH[-PRE][+BUILD]". Errors
  // carry blang's messages ("No Major.Minor.Patch elements found", ...).
  static Result<Semver> Parse(std::string_view s);
  // semverlib.go normalizeAndParse: drops a leading "v", leading zeros, and
  // fills up "1" / "1.2" with ".0".
  static Result<Semver> ParseNormalized(std::string_view s);

  // -1, 0 or 1 (blang Version.Compare: build metadata is ignored).
  int Compare(const Semver& o) const;
  std::string String() const;
};

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_SEMVER_H_
