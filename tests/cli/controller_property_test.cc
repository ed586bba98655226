// Property test of controllers and the pods they own, end to end: random
// mixes of Deployments (1 to 3 ReplicaSets), ReplicaSets, StatefulSets, Jobs
// and DaemonSets, with some, all or none of their pods present, terminated
// pods among them, with and without uids, in random file order and split at
// random across files. Every pod is counted exactly once, each controller
// creates what an independent count says, and the pods, their names and the
// scheduling outcome are the same whatever the order and with or without
// uids.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../controllers/controller_test_util.h"
#include "cli_test_util.h"
#include "gpusched/util/random.h"

namespace gpusched {
namespace {

using controller_test::Labels;
using controller_test::Owner;
using controller_test::PodSpec;
using controller_test::PodYaml;
using controller_test::WorkloadSpec;
using controller_test::WorkloadYaml;

struct Expected {
  std::string kind, ns, name;
  std::set<std::string> had;             // active pods it owns ("ns/name")
  std::set<std::string> had_terminated;
  int64_t created = 0;
  bool exact = true;      // else `created` is an upper bound (a rollout in progress)
};

struct World {
  std::vector<std::string> nodes;  // Node documents, always first and in this order
  std::vector<std::string> docs;   // everything else
  std::vector<Expected> expected;
  std::set<std::string> active, terminated;  // input pods
};

const char* const kPhases[] = {"Running", "Pending", "Succeeded", "Failed"};

class Generator {
 public:
  Generator(uint64_t seed, bool uids) : rng_(seed), uids_(uids) {}

  World Make() {
    // Nodes: plenty of room; n0 and n1 in pool a, n2 in pool b.
    for (int i = 0; i < 3; ++i) {
      w_.nodes.push_back("apiVersion: v1\nkind: Node\nmetadata:\n  name: n" + std::to_string(i) +
                         "\n  labels: {pool: " + (i < 2 ? "a" : "b") +
                         "}\nstatus:\n  allocatable: {cpu: \"1000\", pods: \"1000\", nvidia.com/gpu: \"100\"}\n");
    }
    const int n = 1 + static_cast<int>(rng_.Uniform(6));
    for (int i = 0; i < n; ++i) {
      const std::string ns = rng_.Uniform(2) ? "default" : "ml";
      switch (rng_.Uniform(5)) {
        case 0: Deployment(ns, i); break;
        case 1: ReplicaSet(ns, i); break;
        case 2: StatefulSet(ns, i); break;
        case 3: Job(ns, i); break;
        default: DaemonSet(ns, i); break;
      }
    }
    return std::move(w_);
  }

 private:
  int Int(int lo, int hi) { return lo + static_cast<int>(rng_.Uniform(static_cast<uint64_t>(hi - lo + 1))); }
  std::string Uid(const std::string& s) { return uids_ ? "uid-" + s : ""; }
  std::optional<Owner> Ref(const std::string& api, const std::string& kind, const std::string& name,
                           const std::string& key) {
    if (!uids_) return std::nullopt;
    return Owner{api, kind, name, "uid-" + key};
  }

  // A pod of a controller: a random phase; running pods are bound.
  std::string AddPod(PodSpec p, Expected& e, const char* phase = nullptr) {
    p.phase = phase ? phase : kPhases[rng_.Uniform(4)];
    if (p.phase == "Running" && p.node.empty() && p.affinity_node.empty()) p.node = "n" + std::to_string(rng_.Uniform(3));
    const std::string key = p.ns + "/" + p.name;
    const bool terminal = p.phase == "Succeeded" || p.phase == "Failed";
    (terminal ? w_.terminated : w_.active).insert(key);
    (terminal ? e.had_terminated : e.had).insert(key);
    w_.docs.push_back(PodYaml(p));
    return p.phase;
  }

  void ReplicaSet(const std::string& ns, int i) {
    const std::string name = "rs" + std::to_string(i);
    WorkloadSpec r;
    r.kind = "ReplicaSet";
    r.name = name;
    r.ns = ns;
    r.uid = Uid("rs/" + ns + "/" + name);
    r.replicas = Int(0, 4);
    r.selector = {{"app", name}, {"pod-template-hash", "h" + name}};
    r.labels = r.template_labels = r.selector;
    r.gpus = 1;
    w_.docs.push_back(WorkloadYaml(r));
    Expected e{"ReplicaSet", ns, name};
    const int pods = Int(0, *r.replicas + 1);
    int active = 0;
    for (int k = 0; k < pods; ++k) {
      PodSpec p;
      p.name = name + "-p" + std::to_string(k);
      p.ns = ns;
      p.uid = Uid(p.name);
      p.labels = r.selector;
      p.owner = Ref("apps/v1", "ReplicaSet", name, "rs/" + ns + "/" + name);
      p.gpus = 1;
      const std::string phase = AddPod(p, e);
      active += phase == "Running" || phase == "Pending";
    }
    e.created = std::max(0, *r.replicas - active);
    w_.expected.push_back(e);
  }

  void StatefulSet(const std::string& ns, int i) {
    const std::string name = "sts" + std::to_string(i);
    WorkloadSpec s;
    s.kind = "StatefulSet";
    s.name = name;
    s.ns = ns;
    s.uid = Uid("sts/" + ns + "/" + name);
    s.replicas = Int(0, 4);
    s.selector = {{"app", name}};
    s.template_labels = s.selector;
    w_.docs.push_back(WorkloadYaml(s));
    Expected e{"StatefulSet", ns, name};
    std::set<int> present;
    for (int ord = 0; ord <= *s.replicas; ++ord) {  // one past the end: a pod left from a scale-down
      if (rng_.Uniform(2)) continue;
      PodSpec p;
      p.name = name + "-" + std::to_string(ord);
      p.ns = ns;
      p.uid = Uid(p.name);
      p.labels = s.selector;
      p.owner = Ref("apps/v1", "StatefulSet", name, "sts/" + ns + "/" + name);
      const std::string phase = AddPod(p, e);
      if (phase == "Running" || phase == "Pending") present.insert(ord);
    }
    for (int ord = 0; ord < *s.replicas; ++ord) e.created += present.count(ord) ? 0 : 1;
    w_.expected.push_back(e);
  }

  void Job(const std::string& ns, int i) {
    const std::string name = "job" + std::to_string(i);
    const int completions = Int(1, 5), parallelism = Int(1, 4), status_succeeded = Int(0, completions);
    WorkloadSpec j;
    j.kind = "Job";
    j.name = name;
    j.ns = ns;
    j.uid = Uid("job/" + ns + "/" + name);
    j.selector = {{"batch.kubernetes.io/controller-uid", "cu-" + ns + "-" + name}};
    j.template_labels = j.selector;
    j.gpus = 2;
    j.spec_extra = "  completions: " + std::to_string(completions) + "\n  parallelism: " + std::to_string(parallelism) +
                   "\n";
    j.status = "  succeeded: " + std::to_string(status_succeeded) + "\n";
    w_.docs.push_back(WorkloadYaml(j));
    Expected e{"Job", ns, name};
    int active = 0, succeeded = 0;
    const int pods = Int(0, 3);
    for (int k = 0; k < pods; ++k) {
      PodSpec p;
      p.name = name + "-p" + std::to_string(k);
      p.ns = ns;
      p.uid = Uid(p.name);
      p.labels = j.selector;
      p.owner = Ref("batch/v1", "Job", name, "job/" + ns + "/" + name);
      p.gpus = 2;
      const std::string phase = AddPod(p, e);
      active += phase == "Running" || phase == "Pending";
      succeeded += phase == "Succeeded";
    }
    const int done = std::max(status_succeeded, succeeded);
    const int want = std::clamp(completions - done, 0, parallelism);
    e.created = std::max(0, want - active);
    w_.expected.push_back(e);
  }

  void DaemonSet(const std::string& ns, int i) {
    const std::string name = "ds" + std::to_string(i);
    const bool pool_a = rng_.Uniform(2);
    WorkloadSpec d;
    d.kind = "DaemonSet";
    d.name = name;
    d.ns = ns;
    d.uid = Uid("ds/" + ns + "/" + name);
    d.selector = {{"app", name}};
    d.template_labels = d.selector;
    std::string yaml = WorkloadYaml(d);
    if (pool_a) yaml.replace(yaml.find("    spec:\n"), 10, "    spec:\n      nodeSelector: {pool: a}\n");
    w_.docs.push_back(yaml);
    Expected e{"DaemonSet", ns, name};
    std::set<int> covered;
    for (int node = 0; node < 3; ++node) {
      if (rng_.Uniform(2)) continue;
      PodSpec p;
      p.name = name + "-on-n" + std::to_string(node);
      p.ns = ns;
      p.uid = Uid(p.name);
      p.labels = d.selector;
      p.owner = Ref("apps/v1", "DaemonSet", name, "ds/" + ns + "/" + name);
      // Bound, or still pending with the controller's matchFields term.
      if (rng_.Uniform(2)) {
        p.node = "n" + std::to_string(node);
      } else {
        p.affinity_node = "n" + std::to_string(node);
      }
      const std::string phase = AddPod(p, e, p.node.empty() ? (rng_.Uniform(3) ? "Pending" : "Failed") : nullptr);
      if (phase == "Running" || phase == "Pending") covered.insert(node);
    }
    for (int node = 0; node < 3; ++node)
      if ((!pool_a || node < 2) && !covered.count(node)) ++e.created;
    w_.expected.push_back(e);
  }

  void Deployment(const std::string& ns, int i) {
    const std::string name = "dep" + std::to_string(i);
    const int replicas = Int(0, 4);
    const int rss = Int(1, 3);
    // Settled (the newest ReplicaSet has them all, the older ones 0) or in
    // the middle of a rolling update (the older ones still have them).
    const bool settled = rng_.Uniform(3) != 0;
    WorkloadSpec d;
    d.kind = "Deployment";
    d.name = name;
    d.ns = ns;
    d.uid = Uid("dep/" + ns + "/" + name);
    d.replicas = replicas;
    d.selector = {{"app", name}};
    d.template_labels = d.selector;
    d.image = "img:" + std::to_string(rss);
    d.gpus = 1;
    d.annotations = {{"deployment.kubernetes.io/revision", std::to_string(rss)}};
    w_.docs.push_back(WorkloadYaml(d));
    Expected e{"Deployment", ns, name};
    e.exact = settled;
    int new_active = 0;
    for (int k = 1; k <= rss; ++k) {
      const bool is_new = k == rss;
      const std::string hash = "h" + std::to_string(k) + name;
      const std::string rs_name = name + "-" + hash;
      int rs_replicas = settled ? (is_new ? replicas : 0) : (is_new ? 0 : (k == rss - 1 ? replicas : 0));
      if (rss == 1) rs_replicas = replicas;
      WorkloadSpec r;
      r.kind = "ReplicaSet";
      r.name = rs_name;
      r.ns = ns;
      r.uid = Uid("rs/" + ns + "/" + rs_name);
      r.owner = Ref("apps/v1", "Deployment", name, "dep/" + ns + "/" + name);
      r.replicas = rs_replicas;
      r.selector = {{"app", name}, {"pod-template-hash", hash}};
      r.labels = r.template_labels = r.selector;
      r.image = "img:" + std::to_string(k);
      r.gpus = 1;
      r.created = "2025-01-0" + std::to_string(k) + "T00:00:00Z";
      r.annotations = {{"deployment.kubernetes.io/revision", std::to_string(k)},
                       {"deployment.kubernetes.io/desired-replicas", std::to_string(replicas)}};
      r.status = "  replicas: " + std::to_string(rs_replicas) + "\n  availableReplicas: " + std::to_string(rs_replicas) +
                 "\n";
      w_.docs.push_back(WorkloadYaml(r));
      const int pods = Int(0, std::max(1, rs_replicas));
      for (int p_i = 0; p_i < pods; ++p_i) {
        PodSpec p;
        p.name = rs_name + "-p" + std::to_string(p_i);
        p.ns = ns;
        p.uid = Uid(p.name);
        p.labels = r.selector;
        p.owner = Ref("apps/v1", "ReplicaSet", rs_name, "rs/" + ns + "/" + rs_name);
        p.image = r.image;
        p.gpus = 1;
        const std::string phase = AddPod(p, e);
        if (is_new) new_active += phase == "Running" || phase == "Pending";
      }
    }
    // Settled: the new ReplicaSet keeps `replicas`; in a rollout, at most
    // replicas + maxSurge (25%, rounded up) pods come to exist.
    e.created = settled ? std::max(0, replicas - new_active) : replicas + (replicas + 3) / 4;
    w_.expected.push_back(e);
  }

  Rng rng_;
  bool uids_;
  World w_;
};

// The input arranged in files: the nodes first (first-fit follows node
// order), the rest shuffled and split at random.
std::vector<std::pair<std::string, std::vector<std::string>>> Arrange(const World& w, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::string> docs = w.docs;
  rng.Shuffle(docs);
  const size_t files = 1 + rng.Uniform(4);
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  out.push_back({"00-nodes.yaml", w.nodes});
  for (size_t f = 0; f < files; ++f) out.push_back({"part" + std::to_string(rng.Uniform(1000)) + "-" + std::to_string(f) + ".yaml", {}});
  for (std::string& d : docs) out[1 + rng.Uniform(files)].second.push_back(std::move(d));
  std::vector<std::pair<std::string, std::vector<std::string>>> kept;
  for (auto& f : out)
    if (!f.second.empty()) kept.push_back(std::move(f));
  return kept;
}

// Everything that must not depend on the arrangement or on uids: the pods
// (name, owner, image, bound node) and each controller's pods, sorted.
std::string Canonical(const Manifests& m) {
  std::vector<std::string> lines;
  for (const LoadedPod& lp : m.pods)
    lines.push_back("pod " + lp.pod.ns() + "/" + lp.pod.name() + " owner=" + lp.pod.owner + " image=" +
                    lp.pod.containers.at(0).image + " node=" + lp.pod.node_name);
  for (const ControllerPods& c : m.controller_pods) {
    std::string s = "controller " + std::string(KindName(c.kind)) + "/" + c.ns + "/" + c.name + " [" + c.summary + "]";
    for (const auto& p : c.had) s += " had " + p;
    for (const auto& [p, phase] : c.had_terminated) s += " done " + p + ":" + phase;
    for (const auto& p : c.created) s += " created " + p;
    lines.push_back(s);
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// The scheduling outcome, pod by pod: its node, or why it is pending.
std::string Outcome(const std::vector<std::pair<std::string, std::vector<std::string>>>& files) {
  controller_test::TempFiles tmp;
  std::vector<std::string> args = {"schedule", "-o", "json"};
  for (const auto& [name, docs] : files) {
    args.push_back("-f");
    args.push_back(tmp.Write(name, docs));
  }
  testing::CliRun r = testing::Cli(args);
  EXPECT_EQ(r.code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::vector<std::string> lines;
  for (const auto& p : j["placements"])
    lines.push_back(p["namespace"].get<std::string>() + "/" + p["pod"].get<std::string>() + " -> " +
                    p["node"].get<std::string>());
  for (const auto& p : j["pending"])
    lines.push_back(p["namespace"].get<std::string>() + "/" + p["pod"].get<std::string>() + " pending: " +
                    p["message"].get<std::string>());
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

const ControllerPods* Find(const Manifests& m, const Expected& e) {
  for (const ControllerPods& c : m.controller_pods)
    if (KindName(c.kind) == e.kind && c.ns == e.ns && c.name == e.name) return &c;
  return nullptr;
}

void CheckCounts(const Manifests& m, const World& w) {
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  // No two pods share a name; the pods given come first, every active one
  // exactly once and no terminated one (a StatefulSet's replacement of a
  // terminated pod has its name, but is created, not given).
  std::map<std::string, int> seen;
  for (const LoadedPod& lp : m.pods) ++seen[lp.pod.ns() + "/" + lp.pod.name()];
  for (const auto& [key, n] : seen) EXPECT_EQ(n, 1) << key;
  ASSERT_GE(m.pods.size(), w.active.size());
  std::set<std::string> given;
  for (size_t i = 0; i < w.active.size(); ++i) given.insert(m.pods[i].pod.ns() + "/" + m.pods[i].pod.name());
  EXPECT_EQ(given, w.active);
  size_t created = 0;
  for (const Expected& e : w.expected) {
    SCOPED_TRACE(e.kind + "/" + e.ns + "/" + e.name);
    const ControllerPods* c = Find(m, e);
    ASSERT_TRUE(c);
    EXPECT_EQ(std::set<std::string>(c->had.begin(), c->had.end()), e.had);
    std::set<std::string> done;
    for (const auto& [p, phase] : c->had_terminated) done.insert(p);
    EXPECT_EQ(done, e.had_terminated);
    if (e.exact) {
      EXPECT_EQ(static_cast<int64_t>(c->created.size()), e.created) << c->summary;
    } else {
      EXPECT_LE(static_cast<int64_t>(c->created.size()), e.created) << c->summary;
    }
    created += c->created.size();
  }
  EXPECT_EQ(m.pods.size(), w.active.size() + created);
}

TEST(ControllerPropertyTest, EveryPodOnceSameNamesAndOutcomeWhateverTheOrder) {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const World with = Generator(seed, /*uids=*/true).Make();
    const World without = Generator(seed, /*uids=*/false).Make();
    std::string canonical, outcome;
    for (const World* w : {&with, &without}) {
      for (uint64_t arrangement = 0; arrangement < 3; ++arrangement) {
        SCOPED_TRACE(::testing::Message() << (w == &with ? "with" : "without") << " uids, arrangement " << arrangement);
        const auto files = Arrange(*w, seed * 31 + arrangement);
        const Manifests m = controller_test::LoadFiles(files);
        CheckCounts(m, *w);
        const std::string c = Canonical(m);
        const std::string o = Outcome(files);
        if (canonical.empty()) {
          canonical = c;
          outcome = o;
        } else {
          EXPECT_EQ(c, canonical);
          EXPECT_EQ(o, outcome);
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

}  // namespace
}  // namespace gpusched
