#include "kai_job_groups.h"

#include <optional>
#include <unordered_map>

#include "gpusched/controllers/operator_expansion.h"
#include "gpusched/model/gang.h"

namespace gpusched {
namespace {

constexpr const char* kMinMemberAnnotation = "kai.scheduler/batch-min-member";
constexpr const char* kQueueLabel = "kai.scheduler/queue";

// strconv.ParseInt(s, 10, 32): an optional sign and decimal digits, within
// int32; nullopt for anything else.
std::optional<int32_t> ParseInt32(const std::string& s) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return std::nullopt;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
    if (v > int64_t{INT32_MAX} + 1) return std::nullopt;
  }
  if (negative) v = -v;
  if (v > INT32_MAX || v < INT32_MIN) return std::nullopt;
  return static_cast<int32_t>(v);
}

}  // namespace

std::vector<KaiJobGroup> PlanKaiJobGroups(ClusterObjects& m) {
  std::vector<KaiJobGroup> plans;
  for (const LoadedController& lc : m.controllers) {
    const Controller& c = lc.controller;
    // An owned Job's pods are grouped by its top owner's grouper (CronJob, JobSet, ...).
    if (c.kind != ControllerKind::kJob || c.controller_ref || c.tmpl.scheduler_name != kKaiSchedulerName) continue;
    const auto it = c.meta.annotations.find(kMinMemberAnnotation);
    if (it == c.meta.annotations.end()) continue;  // minMember 1
    const std::optional<int32_t> min = ParseInt32(it->second);
    if (!min) {
      m.warnings.push_back(lc.file + ":" + std::to_string(lc.line) + ": Job/" + c.ns() + "/" + c.name() +
                           ": metadata.annotations[" + kMinMemberAnnotation + "] \"" + it->second +
                           "\" is not an integer: KAI's pod-grouper fails on this Job (\"invalid min-member "
                           "annotation value\") and KAI never schedules its pods; gpusched places them one by one");
      continue;
    }
    if (*min <= 1) continue;
    KaiJobGroup g;
    g.ns = c.ns();
    g.job = c.name();
    g.name = "pg-" + c.name() + (c.meta.uid.empty() ? "" : "-" + c.meta.uid);
    if (auto q = c.meta.labels.find(kQueueLabel); q != c.meta.labels.end()) {
      g.queue = q->second;
    } else if (auto pq = c.tmpl.meta.labels.find(kQueueLabel); pq != c.tmpl.meta.labels.end()) {
      g.queue = pq->second;
    } else {
      g.queue = "default-queue";
    }
    g.min_count = *min;
    g.file = lc.file;
    g.line = lc.line;
    plans.push_back(std::move(g));
  }
  return plans;
}

void DeclareKaiJobGroups(ClusterObjects& m, const std::vector<KaiJobGroup>& plans) {
  if (plans.empty()) return;
  std::unordered_map<std::string, size_t> pod_index;
  for (size_t i = 0; i < m.pods.size(); ++i) pod_index.emplace(m.pods[i].pod.ns() + "/" + m.pods[i].pod.name(), i);
  for (const KaiJobGroup& g : plans) {
    const ControllerPods* report = nullptr;
    for (const ControllerPods& r : m.controller_pods)
      if (r.kind == ControllerKind::kJob && r.ns == g.ns && r.name == g.job) report = &r;
    if (!report) continue;
    std::vector<size_t> members;
    bool linked = false;
    for (const auto* keys : {&report->had, &report->created})
      for (const std::string& key : *keys)
        if (auto it = pod_index.find(key); it != pod_index.end()) {
          members.push_back(it->second);
          linked = linked || m.pods[it->second].pod.meta.annotations.count(kKaiPodGroupAnnotation) > 0;
        }
    if (members.empty() || linked) continue;  // a live dump's pods name their PodGroup already
    for (size_t i : members) m.pods[i].pod.meta.annotations[kKaiPodGroupAnnotation] = g.name;
    PodGroupDecl d;
    d.api = GangApi::kKai;
    d.ns = g.ns;
    d.name = g.name;
    d.min_count = g.min_count;
    d.queue = g.queue;
    d.owner = "Job/" + g.ns + "/" + g.job;
    d.implied = true;
    d.file = g.file;
    d.line = g.line;
    m.pod_groups.push_back(std::move(d));
  }
}

}  // namespace gpusched
