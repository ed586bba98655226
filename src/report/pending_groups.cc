#include "gpusched/report/pending_groups.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "gpusched/report/diagnosis_text.h"
#include "gpusched/report/request_text.h"
#include "gpusched/sched/plugins/filter_chain.h"

namespace gpusched {
namespace {

// nvidia.com/gpu, the Alibaba and HAMi spellings, and MIG slices
// (nvidia.com/mig-1g.5gb) are all GPUs to a reader.
bool LooksLikeGpu(std::string_view resource) {
  return resource.find("gpu") != std::string_view::npos || resource.starts_with("nvidia.com/mig-");
}

// The message with its node counts blanked ("0/1000 nodes are available:
// 1000 Insufficient nvidia.com/gpu, 16 Insufficient cpu." -> "#/# nodes are
// available: # Insufficient nvidia.com/gpu, # Insufficient cpu."): pods that
// failed for the same reasons on a few more or fewer nodes group together.
// Only whole numbers are blanked, never digits inside a name (mig-1g.5gb).
std::string WithoutCounts(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size();) {
    const bool starts = (i == 0 || message[i - 1] == ' ' || message[i - 1] == '/') && std::isdigit(static_cast<unsigned char>(message[i]));
    if (starts) {
      size_t j = i;
      while (j < message.size() && std::isdigit(static_cast<unsigned char>(message[j]))) ++j;
      if (j == message.size() || message[j] == ' ' || message[j] == '/') {
        out += '#';
        i = j;
        continue;
      }
    }
    out += message[i++];
  }
  return out;
}

}  // namespace

bool WaitsForGpus(const BatchResult::Pending& p) {
  // The diagnosis names the resource the pod cannot get; the seed's heading
  // ("no node had enough free GPUs") is true when that resource is a GPU.
  using K = Diagnosis::Kind;
  const K k = p.diagnosis.kind;
  if (k != K::kWaitingForRoom && k != K::kFragmented && k != K::kTooLarge && k != K::kNotAdvertised) return false;
  return LooksLikeGpu(p.diagnosis.resource);
}

std::vector<PendingGroup> GroupPending(const RunReport& r) {
  const auto& pending = r.result.pending;
  std::vector<PendingGroup> groups;
  std::map<std::tuple<std::string, bool, std::string, std::string>, size_t> index;
  for (size_t i = 0; i < pending.size(); ++i) {
    const BatchResult::Pending& p = pending[i];
    std::tuple<std::string, bool, std::string, std::string> key{DiagnosisKindName(p.diagnosis.kind),
                                                                p.diagnosis.forever, WithoutCounts(p.message),
                                                                DescribeRequests(*r.pods[p.pod], r.result.pod_infos[p.pod].requests,
                                                                                 r.result.pod_infos[p.pod].gpu)};
    auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back(PendingGroup{std::get<0>(key), std::get<1>(key), p.message, std::get<3>(key), {}});
    groups[it->second].pending.push_back(i);
  }
  // Stable: groups were made in the order their first pod was considered.
  std::stable_sort(groups.begin(), groups.end(),
                   [](const PendingGroup& a, const PendingGroup& b) { return a.pending.size() > b.pending.size(); });
  return groups;
}

std::string FoldNames(const std::vector<std::string>& names, size_t shown) {
  // Folding one name into "and 1 more" saves nothing.
  const size_t listed = names.size() <= shown + 1 ? names.size() : shown;
  std::string s;
  for (size_t i = 0; i < listed; ++i) s += (i ? ", " : "") + names[i];
  if (listed < names.size()) s += " and " + std::to_string(names.size() - listed) + " more";
  return s;
}

void WritePendingGroups(std::ostream& out, const RunReport& r) {
  const std::vector<PendingGroup> groups = GroupPending(r);
  if (groups.empty()) return;
  out << "why pending, by reason (" << Plural(static_cast<int64_t>(r.result.pending.size()), "pod") << " in "
      << Plural(static_cast<int64_t>(groups.size()), "group") << "):\n";
  for (const PendingGroup& g : groups) {
    const auto& pending = r.result.pending;
    const size_t n = g.pending.size();
    out << "  " << Plural(static_cast<int64_t>(n), "pod") << " asking " << g.shape << (n > 1 ? " each" : "") << ": "
        << (g.message.empty() ? "(not handled by this scheduler)" : g.message) << "\n";
    // Pods of a group differ at most in the figures of their message and
    // diagnosis (node counts, what was free when each was considered): the
    // first one's are shown, and said to be its when others differ.
    const BatchResult::Pending& first = pending[g.pending.front()];
    bool same = true;
    for (size_t i : g.pending)
      same &= pending[i].diagnosis.text == first.diagnosis.text && pending[i].diagnosis.advice == first.diagnosis.advice &&
              pending[i].message == first.message;
    out << "    " << (same ? "" : "(figures as for " + DisplayName(*r.pods[first.pod]) + ", the first; they vary) ")
        << DiagnosisText(first.diagnosis) << "\n";
    std::vector<std::string> names;
    names.reserve(n);
    for (size_t i : g.pending) names.push_back(DisplayName(*r.pods[pending[i].pod]));
    out << "    " << (n == 1 ? "pod: " : "pods: ") << FoldNames(names) << "\n";
  }
}

}  // namespace gpusched
