// "Did you mean ...?" for a name typed wrong: a command, a flag, a flag's
// value, a pod. The rule is cobra's (kubectl's commands): a known name is
// near when it is at most 2 edits from what was typed, or starts with it.
// Here an edit is an insertion, a deletion, a substitution or a swap of two
// neighbouring characters (the optimal string alignment distance), ASCII
// case is ignored, and a short typed name allows fewer edits (half its
// length, rounded down: "ab" one, "x" none but its prefixes), so that two
// letters never suggest every two-letter name.
#ifndef GPUSCHED_UTIL_DID_YOU_MEAN_H_
#define GPUSCHED_UTIL_DID_YOU_MEAN_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

// Edits from `a` to `b` (optimal string alignment; ASCII case ignored).
size_t EditDistance(std::string_view a, std::string_view b);

// The names of `known` near `typed`, best first: by edits, then those
// `typed` only starts (by length), ties in byte order; each name once. An
// empty `typed`, and a name exactly equal to it, have none.
std::vector<std::string> NearNames(std::string_view typed, const std::vector<std::string>& known);

// "did you mean X?", "did you mean X or Y?", "did you mean X, Y or Z?";
// beyond `max` names, the first `max` and "or one of N more?"; "" for none.
std::string DidYouMean(const std::vector<std::string>& near, size_t max = 5);

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_DID_YOU_MEAN_H_
