#include "gpusched/controllers/controller_expansion.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_set>

#include "gpusched/controllers/controller_ownership.h"
#include "gpusched/controllers/daemon_pods.h"
#include "gpusched/controllers/deployment_sync.h"
#include "gpusched/controllers/template_key.h"
#include "gpusched/controllers/workload_names.h"

namespace gpusched {
namespace {

// Past this many pods for one controller, gpusched refuses to expand it.
constexpr int64_t kMaxReplicas = 1'000'000;

std::string ObjectId(const Controller& c) {
  return std::string(KindName(c.kind)) + "/" + c.ns() + "/" + c.name();
}

// strconv.Atoi of an annotation, as getIntFromAnnotation reads it.
std::optional<int64_t> IntAnnotation(const ObjectMeta& m, const char* key) {
  auto it = m.annotations.find(key);
  if (it == m.annotations.end()) return std::nullopt;
  const std::string& s = it->second;
  int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  if (b == e || ec != std::errc() || p != e) return std::nullopt;
  return v;
}

// "1,3-5" (a Job's status.completedIndexes) into `out`, below `limit`.
void ParseIndexes(const std::string& text, int64_t limit, std::set<int64_t>& out) {
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const std::string part = text.substr(pos, comma - pos);
    pos = comma + 1;
    const size_t dash = part.find('-');
    int64_t a = 0, b = 0;
    auto num = [](std::string_view s, int64_t& v) {
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      return !s.empty() && ec == std::errc() && p == s.data() + s.size() && v >= 0;
    };
    const std::string_view sv(part);
    if (dash == std::string::npos ? !num(sv, a) : !(num(sv.substr(0, dash), a) && num(sv.substr(dash + 1), b)))
      continue;
    if (dash == std::string::npos) b = a;
    for (int64_t i = a; i <= b && i < limit; ++i) out.insert(i);
  }
}

// The completion index an Indexed Job's pod carries, if valid.
std::optional<int64_t> CompletionIndex(const Pod& p) {
  auto it = p.meta.annotations.find(kJobCompletionIndexAnnotation);
  if (it == p.meta.annotations.end()) return std::nullopt;
  int64_t v = 0;
  const std::string& s = it->second;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

class Expander {
 public:
  explicit Expander(ClusterObjects& m) : m_(m) {}

  void Run() {
    // Duplicates are refused in input order, as the API server refuses the
    // second create.
    std::unordered_set<std::string> seen;
    for (LoadedController& lc : m_.controllers) {
      const Controller& c = lc.controller;
      if (!seen.insert(ObjectId(c)).second) {
        m_.rejected.push_back(InputError{ObjectId(c), lc.file, lc.line,
                                         std::string(ResourceName(c.kind)) + " \"" + c.name() + "\" already exists"});
        continue;
      }
      live_.push_back(&lc);
    }
    std::vector<const Controller*> cs;
    for (const LoadedController* lc : live_) cs.push_back(&lc->controller);
    for (const LoadedPod& lp : m_.pods) pods_.push_back(&lp);
    for (const LoadedPod& lp : m_.terminal_pods) pods_.push_back(&lp);
    std::vector<const Pod*> pods;
    for (const LoadedPod* lp : pods_) pods.push_back(&lp->pod);
    own_ = ResolveOwnership(cs, pods);
    for (const auto& [p, text] : own_.notes)
      m_.warnings.push_back(pods_[p]->file + ":" + std::to_string(pods_[p]->line) + ": Pod/" + pods_[p]->pod.ns() +
                            "/" + pods_[p]->pod.name() + ": " + text);
    rss_of_.resize(live_.size());
    for (size_t i = 0; i < live_.size(); ++i)
      if (own_.deployment_of[i]) rss_of_[*own_.deployment_of[i]].push_back(i);
    owned_.resize(live_.size());
    for (size_t p = 0; p < pods_.size(); ++p)
      if (own_.owner_of[p]) owned_[*own_.owner_of[p]].push_back(p);
    // Names taken: m_.pod_keys holds the active pods'; the terminated ones
    // and the created ones are kept aside.
    for (const LoadedPod& lp : m_.terminal_pods) taken_.insert(lp.pod.ns() + "/" + lp.pod.name());

    reports_.resize(live_.size());
    for (size_t i = 0; i < live_.size(); ++i) {
      const Controller& c = live_[i]->controller;
      ControllerPods& r = reports_[i];
      r.kind = c.kind;
      r.ns = c.ns();
      r.name = c.name();
      r.file = live_[i]->file;
      r.line = live_[i]->line;
      for (size_t p : owned_[i]) {
        const Pod& pod = pods_[p]->pod;
        if (IsTerminated(pod)) {
          r.had_terminated.emplace_back(pod.ns() + "/" + pod.name(), pod.phase);
        } else {
          r.had.push_back(pod.ns() + "/" + pod.name());
        }
      }
    }
    for (size_t i = 0; i < live_.size(); ++i) {
      switch (live_[i]->controller.kind) {
        case ControllerKind::kDeployment: Deployment(i); break;
        case ControllerKind::kReplicaSet:
          if (!own_.deployment_of[i]) ReplicaSet(i);
          break;
        case ControllerKind::kStatefulSet: StatefulSet(i); break;
        case ControllerKind::kJob: Job(i); break;
        case ControllerKind::kDaemonSet: DaemonSet(i); break;
        case ControllerKind::kCronJob: CronJob(i); break;
      }
    }
    m_.pods.reserve(m_.pods.size() + created_.size());
    for (LoadedPod& lp : created_) {
      m_.pod_keys.insert(lp.pod.ns() + "/" + lp.pod.name());
      m_.pods.push_back(std::move(lp));
    }
    for (PersistentVolumeClaim& claim : created_claims_) m_.created_claims.push_back(std::move(claim));
    for (ControllerPods& r : reports_) {
      // By name, whatever the order of the files they came from.
      std::sort(r.had.begin(), r.had.end());
      std::sort(r.had_terminated.begin(), r.had_terminated.end());
      m_.controller_pods.push_back(std::move(r));
    }
  }

 private:
  const Controller& C(size_t i) const { return live_[i]->controller; }

  bool Taken(const std::string& key) const { return m_.pod_keys.count(key) || taken_.count(key); }

  void Warn(size_t i, const std::string& text) {
    m_.warnings.push_back(live_[i]->file + ":" + std::to_string(live_[i]->line) + ": " + ObjectId(C(i)) + ": " + text);
  }

  // Pods of controller i that are not terminated.
  std::vector<const Pod*> ActivePods(size_t i) const {
    std::vector<const Pod*> out;
    for (size_t p : owned_[i])
      if (!IsTerminated(pods_[p]->pod)) out.push_back(&pods_[p]->pod);
    return out;
  }

  bool Expandable(size_t i, int64_t n) {
    if (n <= kMaxReplicas) return true;
    const LoadedController& lc = *live_[i];
    m_.rejected.push_back(InputError{ObjectId(C(i)), lc.file, lc.line,
                                     std::string(KindName(C(i).kind)) + " " + C(i).name() + ": " + std::to_string(n) +
                                         " replicas is more than gpusched expands (" + std::to_string(kMaxReplicas) +
                                         ")"});
    return false;
  }

  // A pod of controller `top` (reported there and at `direct` too) named
  // `name`, from `tmpl`, whose controller reference is `direct`.
  void Create(size_t top, size_t direct, const Pod& tmpl, const std::string& name) {
    const Controller& d = C(direct);
    Pod p = tmpl;
    p.meta.name = name;
    p.meta.generate_name.clear();
    p.meta.namespace_ = d.ns();
    p.owner = std::string(KindName(C(top).kind)) + "/" + C(top).name();
    p.controller_ref = OwnerReference{d.api_version, std::string(KindName(d.kind)), d.name(), d.meta.uid};
    ApplyMatchLabelKeys(p);  // the API server merges matchLabelKeys into the created pod's spread selectors
    MergeAffinityLabelKeys(p);  // as the API server does when the controller creates it
    const std::string key = p.ns() + "/" + p.name();
    taken_.insert(key);
    reports_[top].created.push_back(key);
    if (direct != top) reports_[direct].created.push_back(key);
    created_.push_back(LoadedPod{std::move(p), live_[top]->file, live_[top]->line});
  }

  // `n` pods named by `name_at(index)`, skipping names already taken.
  template <typename NameAt>
  void CreateNamed(size_t top, size_t direct, const Pod& tmpl, int64_t n, NameAt name_at) {
    for (int64_t index = 0; n > 0; ++index) {
      std::string name = name_at(index);
      if (Taken(C(direct).ns() + "/" + name)) continue;
      Create(top, direct, tmpl, name);
      --n;
    }
  }

  void ZeroReplicas(size_t i) { Warn(i, "0 replicas: no pods"); }

  void ReplicaSet(size_t i) {
    const Controller& c = C(i);
    const int64_t have = static_cast<int64_t>(ActivePods(i).size());
    const int64_t n = std::max<int64_t>(0, c.replicas - have);
    reports_[i].summary = std::to_string(c.replicas) + " replicas wanted, " + std::to_string(have) + " present: creates " +
                          std::to_string(n);
    if (c.replicas == 0) ZeroReplicas(i);
    if (!Expandable(i, n)) return;
    CreateNamed(i, i, c.tmpl, n, [&](int64_t k) { return ExpandedPodName("ReplicaSet", c.ns(), c.name(), k); });
  }

  void Deployment(size_t di) {
    const Controller& d = C(di);
    // Its ReplicaSets, oldest first; pods of ReplicaSets not in the input.
    std::vector<size_t> rss = rss_of_[di];
    std::sort(rss.begin(), rss.end(), [&](size_t a, size_t b) {
      if (C(a).creation_timestamp != C(b).creation_timestamp) return C(a).creation_timestamp < C(b).creation_timestamp;
      return C(a).name() < C(b).name();
    });
    const int64_t loose = static_cast<int64_t>(ActivePods(di).size());
    // FindNewReplicaSet: the oldest whose template equals the Deployment's;
    // among those, the revision the Deployment records.
    const std::string want = TemplateKey(d.tmpl);
    const auto revision = d.meta.annotations.find(kRevisionAnnotation);
    std::optional<size_t> new_rs;
    for (size_t k = 0; k < rss.size(); ++k) {
      if (TemplateKey(C(rss[k]).tmpl) != want) continue;
      if (!new_rs) new_rs = k;
      auto r = C(rss[k]).meta.annotations.find(kRevisionAnnotation);
      if (revision != d.meta.annotations.end() && r != C(rss[k]).meta.annotations.end() && r->second == revision->second) {
        new_rs = k;
        break;
      }
    }
    std::vector<RsState> states;
    bool old_pods_running = false;
    for (size_t k = 0; k < rss.size(); ++k) {
      const Controller& rs = C(rss[k]);
      states.push_back(RsState{rs.name(), rs.creation_timestamp, rs.replicas, rs.status_replicas,
                               rs.status_available_replicas, IntAnnotation(rs.meta, kDesiredReplicasAnnotation),
                               IntAnnotation(rs.meta, kMaxReplicasAnnotation)});
      if (k != new_rs && !ActivePods(rss[k]).empty()) old_pods_running = true;
    }
    const DeploymentState ds{d.replicas, d.recreate, d.max_surge, d.max_unavailable, d.paused, d.status_replicas};
    const DeploymentSyncResult sync = SyncDeployment(ds, states, new_rs, old_pods_running);

    std::string detail;
    for (size_t k = 0; k < rss.size(); ++k) {
      const size_t ri = rss[k];
      // The Deployment has the pods of all its ReplicaSets.
      ControllerPods& dr = reports_[di];
      dr.had.insert(dr.had.end(), reports_[ri].had.begin(), reports_[ri].had.end());
      dr.had_terminated.insert(dr.had_terminated.end(), reports_[ri].had_terminated.begin(),
                               reports_[ri].had_terminated.end());
      int64_t have = static_cast<int64_t>(ActivePods(ri).size());
      if (new_rs == k) have += loose;
      const int64_t n = std::max<int64_t>(0, sync.replicas[k] - have);
      const std::string role = new_rs == k ? "new" : "old";
      reports_[ri].summary = "owned by Deployment " + d.name() + " (its " + role + " ReplicaSet); after the Deployment's sync " +
                             std::to_string(sync.replicas[k]) + " replicas, " + std::to_string(have) +
                             " present: creates " + std::to_string(n);
      detail += "; ReplicaSet " + C(ri).name() + " (" + role + "): " + std::to_string(sync.replicas[k]) + " replicas, " +
                std::to_string(have) + " present, creates " + std::to_string(n);
      if (!Expandable(di, n)) continue;
      const Controller& rs = C(ri);
      CreateNamed(di, ri, rs.tmpl, n, [&](int64_t i) { return ExpandedPodName("ReplicaSet", rs.ns(), rs.name(), i); });
    }
    if (sync.create_new) {
      const int64_t n = std::max<int64_t>(0, sync.new_replicas - loose);
      detail += "; new ReplicaSet " + GeneratedReplicaSetName(d.ns(), d.name()) + " (not in the input): " +
                std::to_string(sync.new_replicas) + " replicas, " + std::to_string(loose) + " present, creates " +
                std::to_string(n);
      if (Expandable(di, n)) {
        Pod tmpl = d.tmpl;
        tmpl.meta.labels[kPodTemplateHashLabel] = GeneratedPodTemplateHash(d.ns(), d.name());
        CreateNamed(di, di, tmpl, n, [&](int64_t i) { return ExpandedPodName("Deployment", d.ns(), d.name(), i); });
      }
    }
    reports_[di].summary = std::to_string(d.replicas) + " replicas wanted (" +
                           (d.recreate ? std::string("Recreate")
                                       : "RollingUpdate, maxSurge " + Fmt(d.max_surge) + ", maxUnavailable " +
                                             Fmt(d.max_unavailable)) +
                           "); " + sync.how + detail;
    if (d.replicas == 0) ZeroReplicas(di);
    if (d.paused)
      Warn(di, "spec.paused is true: the Deployment controller only scales its ReplicaSets, it rolls nothing out" +
                   std::string(rss.empty() ? " and creates no ReplicaSet, so no pods" : ""));
  }

  static std::string Fmt(const IntOrPercent& v) { return std::to_string(v.value) + (v.percent ? "%" : ""); }

  void StatefulSet(size_t i) {
    const Controller& c = C(i);
    std::unordered_set<std::string> mine;
    for (const Pod* p : ActivePods(i)) mine.insert(p->name());
    int64_t present = 0;
    std::vector<int64_t> missing;
    for (int64_t ord = c.ordinals_start; ord < c.ordinals_start + c.replicas; ++ord) {
      const std::string name = c.name() + "-" + std::to_string(ord);
      if (mine.count(name)) {
        ++present;
        continue;
      }
      missing.push_back(ord);
    }
    reports_[i].summary = std::to_string(c.replicas) + " replicas (ordinals " + std::to_string(c.ordinals_start) + ".." +
                          std::to_string(c.ordinals_start + c.replicas - 1) + "), " + std::to_string(present) +
                          " present: creates " + std::to_string(missing.size());
    if (c.replicas == 0) ZeroReplicas(i);
    if (!Expandable(i, static_cast<int64_t>(missing.size()))) return;
    // A terminated pod of its own at that ordinal is replaced under the
    // same name; any other pod holding the name blocks the ordinal.
    std::unordered_set<std::string> own_terminated;
    for (size_t p : owned_[i])
      if (IsTerminated(pods_[p]->pod)) own_terminated.insert(pods_[p]->pod.name());
    for (int64_t ord : missing) {
      const std::string name = c.name() + "-" + std::to_string(ord);
      if (Taken(c.ns() + "/" + name) && !own_terminated.count(name)) {
        Warn(i, "pod " + name + " exists and does not belong to it: the StatefulSet cannot create its ordinal " +
                    std::to_string(ord));
        continue;
      }
      if (c.volume_claim_templates.empty()) {
        Create(i, i, c.tmpl, name);
      } else {
        Create(i, i, WithClaims(c, ord), name);
      }
    }
  }

  // updateStorage and getPersistentVolumeClaims (pkg/controller/statefulset/
  // stateful_set_utils.go): the pod's volumes are the claims' (by template
  // name, replacing a template volume of that name) and then its own; each
  // claim is the template named "<template>-<set>-<ordinal>" in the set's
  // namespace, with the set's selector matchLabels added to its labels.
  Pod WithClaims(const Controller& c, int64_t ord) {
    Pod p = c.tmpl;
    auto extras = std::make_shared<PodSpecExtras>(p.Extras());
    std::vector<PodVolume> volumes;
    std::unordered_set<std::string> claimed;
    for (const PersistentVolumeClaim& t : c.volume_claim_templates) {
      PersistentVolumeClaim claim = t;
      claim.meta.name = t.meta.name + "-" + c.name() + "-" + std::to_string(ord);
      claim.meta.namespace_ = c.ns();
      if (c.selector)
        for (const auto& [k, v] : c.selector->match_labels) claim.meta.labels[k] = v;
      PodVolume v;
      v.name = t.meta.name;
      v.kind = PodVolume::Kind::kClaim;
      v.claim_name = claim.meta.name;
      claimed.insert(v.name);
      volumes.push_back(std::move(v));
      created_claims_.push_back(std::move(claim));
    }
    for (const PodVolume& v : extras->volumes)
      if (!claimed.count(v.name)) volumes.push_back(v);
    for (size_t k = 0; k < volumes.size(); ++k) volumes[k].index = static_cast<int32_t>(k);
    extras->volumes = std::move(volumes);
    p.extras = std::move(extras);
    return p;
  }

  void Job(size_t i) {
    const Controller& c = C(i);
    const std::vector<const Pod*> active = ActivePods(i);
    int64_t succeeded_pods = 0;
    std::set<int64_t> done;
    const int64_t completions = c.completions.value_or(0);
    if (c.indexed) ParseIndexes(c.completed_indexes, completions, done);
    for (size_t p : owned_[i]) {
      const Pod& pod = pods_[p]->pod;
      if (pod.phase != "Succeeded") continue;
      ++succeeded_pods;
      if (auto idx = CompletionIndex(pod); c.indexed && idx && *idx < completions) done.insert(*idx);
    }
    const int64_t succeeded = c.indexed ? static_cast<int64_t>(done.size()) : std::max(c.status_succeeded, succeeded_pods);
    const int64_t have = static_cast<int64_t>(active.size());
    int64_t want = 0;
    if (!c.finished && !c.suspend) {
      if (!c.completions) {
        want = succeeded > 0 ? have : c.parallelism;
      } else {
        want = std::clamp<int64_t>(*c.completions - succeeded, 0, std::max<int64_t>(0, c.parallelism));
      }
    }
    const int64_t n = std::max<int64_t>(0, want - have);
    reports_[i].summary = (c.completions ? "completions " + std::to_string(*c.completions) : std::string("work queue")) +
                          ", parallelism " + std::to_string(c.parallelism) + ": " + std::to_string(succeeded) +
                          " succeeded, " + std::to_string(have) + " active: creates " + std::to_string(n) +
                          (c.finished ? " (finished)" : c.suspend ? " (suspended)" : "");
    if (c.suspend && !c.finished)
      Warn(i, "spec.suspend is true: the Job controller creates no pods until it is resumed");
    if (!c.finished && !c.suspend && (c.parallelism == 0 || c.completions == 0)) ZeroReplicas(i);
    if (!Expandable(i, n)) return;
    if (!c.indexed) {
      CreateNamed(i, i, c.tmpl, n, [&](int64_t k) { return ExpandedPodName("Job", c.ns(), c.name(), k); });
      return;
    }
    // firstPendingIndexes: the lowest indexes neither succeeded nor active.
    for (const Pod* p : active)
      if (auto idx = CompletionIndex(*p)) done.insert(*idx);
    int64_t left = n;
    for (int64_t idx = 0; idx < completions && left > 0; ++idx) {
      if (done.count(idx)) continue;
      Pod tmpl = c.tmpl;
      tmpl.meta.annotations[kJobCompletionIndexAnnotation] = std::to_string(idx);
      for (int attempt = 0;; ++attempt) {
        std::string name = IndexedJobPodName(c.ns(), c.name(), idx, attempt);
        if (Taken(c.ns() + "/" + name)) continue;
        Create(i, i, tmpl, name);
        break;
      }
      --left;
    }
  }

  void DaemonSet(size_t i) {
    const Controller& c = C(i);
    std::unordered_set<std::string> covered;
    for (const Pod* p : ActivePods(i))
      if (auto node = DaemonPodTargetNode(*p)) covered.insert(*node);
    int64_t eligible = 0, present = 0, n = 0;
    std::vector<const Node*> need;
    for (const LoadedNode& ln : m_.nodes) {
      if (!DaemonShouldRunOnNode(c.tmpl, c.host_network, ln.node)) continue;
      ++eligible;
      if (covered.count(ln.node.name())) {
        ++present;
      } else {
        need.push_back(&ln.node);
      }
    }
    n = static_cast<int64_t>(need.size());
    reports_[i].summary = "should run on " + std::to_string(eligible) + " of " + std::to_string(m_.nodes.size()) +
                          " nodes, present on " + std::to_string(present) + ": creates " + std::to_string(n);
    for (const Node* node : need) {
      Pod p = DaemonPodFor(c.tmpl, c.host_network, node->name());
      for (int attempt = 0;; ++attempt) {
        std::string name = DaemonPodName(c.ns(), c.name(), node->name(), attempt);
        if (Taken(c.ns() + "/" + name)) continue;
        Create(i, i, p, name);
        break;
      }
    }
  }

  void CronJob(size_t i) {
    const Controller& c = C(i);
    reports_[i].summary = "no pod until its schedule \"" + c.schedule + "\" fires" + (c.suspend ? " (suspended)" : "");
    Warn(i, "a CronJob has no pod until its schedule \"" + c.schedule + "\" fires" +
                (c.suspend ? " (and spec.suspend is true)" : "") +
                "; gpusched does not run schedules, so it adds none (Jobs it already created, when in the input, "
                "are expanded)");
  }

  ClusterObjects& m_;
  std::vector<LoadedController*> live_;
  std::vector<const LoadedPod*> pods_;  // m_.pods, then m_.terminal_pods
  Ownership own_;
  std::vector<std::vector<size_t>> owned_;  // per live controller: indices into pods_
  std::vector<std::vector<size_t>> rss_of_;  // per Deployment: its ReplicaSets
  std::unordered_set<std::string> taken_;   // "ns/name" of terminated and created pods
  std::vector<ControllerPods> reports_;
  std::vector<LoadedPod> created_;
  std::vector<PersistentVolumeClaim> created_claims_;  // StatefulSets' volumeClaimTemplates
};

}  // namespace

void ExpandControllers(ClusterObjects& m) {
  if (m.controllers.empty()) return;
  Expander(m).Run();
  m.controllers.clear();
}

}  // namespace gpusched
