#include "gpusched/util/did_you_mean.h"

#include <algorithm>
#include <tuple>

#include "gpusched/util/ascii.h"

namespace gpusched {

size_t EditDistance(std::string_view a_in, std::string_view b_in) {
  const std::string a = AsciiLower(a_in), b = AsciiLower(b_in);
  const size_t n = a.size(), m = b.size();
  // Three rows: the one before the previous is for swaps.
  std::vector<size_t> before(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::vector<std::string> NearNames(std::string_view typed, const std::vector<std::string>& known) {
  if (typed.empty()) return {};
  const size_t most = std::min<size_t>(2, typed.size() / 2);
  const std::string lower = AsciiLower(typed);
  // (edits, or most + 1 for a prefix; the prefix's extra length; the name).
  std::vector<std::tuple<size_t, size_t, std::string>> found;
  for (const std::string& name : known) {
    if (name == typed) continue;
    const size_t d = EditDistance(typed, name);
    if (d <= most) {
      found.emplace_back(d, 0, name);
    } else if (AsciiLower(name).starts_with(lower)) {
      found.emplace_back(most + 1, name.size() - typed.size(), name);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& [d, extra, name] : found)
    if (out.empty() || out.back() != name) out.push_back(std::move(name));
  return out;
}

std::string DidYouMean(const std::vector<std::string>& near, size_t max) {
  if (near.empty() || max == 0) return "";
  const size_t shown = std::min(near.size(), max);
  std::string out = "did you mean ";
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += (i + 1 == shown && shown == near.size()) ? " or " : ", ";
    out += near[i];
  }
  if (shown < near.size()) out += " or one of " + std::to_string(near.size() - shown) + " more";
  return out + "?";
}

}  // namespace gpusched
