#include "gpusched/controllers/workload_names.h"

namespace gpusched {

uint64_t Fnv1a64(std::string_view s, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string SafeSuffix(uint64_t h, int n) {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string s;
  for (int i = 0; i < n; ++i) {
    s.push_back(kAlphabet[h % kAlphabet.size()]);
    h /= kAlphabet.size();
    if (h == 0) h = Fnv1a64(s);
  }
  return s;
}

std::string ExpandedPodName(std::string_view kind, std::string_view ns, std::string_view name, int64_t index) {
  std::string base = std::string(ns) + "/" + std::string(name);
  if (kind == "StatefulSet") return std::string(name) + "-" + std::to_string(index);
  std::string per_pod = SafeSuffix(Fnv1a64(base + "#" + std::to_string(index)), 5);
  if (kind == "Deployment") {
    // The pod-template-hash part: the same for every replica of one Deployment.
    return std::string(name) + "-" + SafeSuffix(Fnv1a64(base), 10) + "-" + per_pod;
  }
  return std::string(name) + "-" + per_pod;
}

std::string GeneratedPodTemplateHash(std::string_view ns, std::string_view deployment) {
  return SafeSuffix(Fnv1a64(std::string(ns) + "/" + std::string(deployment)), 10);
}

std::string GeneratedReplicaSetName(std::string_view ns, std::string_view deployment) {
  return std::string(deployment) + "-" + GeneratedPodTemplateHash(ns, deployment);
}

std::string IndexedJobPodName(std::string_view ns, std::string_view job, int64_t index, int attempt) {
  const std::string i = std::to_string(index);
  std::string key = std::string(ns) + "/" + std::string(job) + "#" + i;
  if (attempt > 0) key += "#" + std::to_string(attempt);
  return std::string(job) + "-" + i + "-" + SafeSuffix(Fnv1a64(key), 5);
}

std::string DaemonPodName(std::string_view ns, std::string_view daemonset, std::string_view node, int attempt) {
  std::string key = std::string(ns) + "/" + std::string(daemonset) + "@" + std::string(node);
  if (attempt > 0) key += "#" + std::to_string(attempt);
  return std::string(daemonset) + "-" + SafeSuffix(Fnv1a64(key), 5);
}

}  // namespace gpusched
