// FGD, ported from the FGD simulator's pkg/simulator/plugin/fgd_score.go
// (Score, calculateGpuShareFragExtendScore, allocateGpuIdBasedOnFGDScore)
// and NodeResource.Sub (pkg/type/resource.go).
//
// Speed: a node's score for a pod depends only on the node's state and the
// pod's shape, and a bind changes one node. So shapes are interned to small
// ids, and per node we cache its fragmentation profile (frag.h) and per
// (shape, node) the score and chosen device, each stamped with the
// NodeState::version it was computed at. A decision then costs one version
// compare per feasible node plus O(#typical) per candidate device for the
// few nodes that changed since this shape was last scored.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/policies/paper_policies.h"

namespace gpusched {
namespace {

constexpr uint64_t kStale = ~0ull;

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// int64(sigmoid((old-new)/1000) * float64(framework.MaxNodeScore)).
int64_t FragScore(double before, double after) {
  return static_cast<int64_t>(Sigmoid((before - after) / 1000) * 100.0);
}

}  // namespace

// A run of FGD: PaperScorePolicy's state and the caches above.
struct FgdPolicy::State : PaperScorePolicy::State {
  struct Entry {
    uint64_t version = kStale;
    int32_t score = 0;
    int32_t device = -1;  // the share's device; -1 for other pods
  };

  explicit State(const TypicalPods& typical) : table(typical) {}

  FragTable table;
  uint64_t serial = 0;  // ClusterState::serial() of the cluster cached
  std::vector<uint64_t> profile_version;
  std::vector<NodeFragProfile> profiles;
  std::unordered_map<std::string, int32_t> shape_ids;
  std::vector<PodShape> shapes;
  std::vector<std::vector<Entry>> entries;  // [shape][node]
  std::string key;                          // scratch
  std::vector<int32_t> taken;               // scratch

  // Drops everything computed for another ClusterState; makes room for
  // nodes added since the last call.
  void Sync(const ClusterState& c) {
    if (c.serial() != serial) {
      serial = c.serial();
      std::fill(profile_version.begin(), profile_version.end(), kStale);
      for (auto& e : entries) std::fill(e.begin(), e.end(), Entry{});
    }
    if (profile_version.size() < c.size()) {
      profile_version.resize(c.size(), kStale);
      profiles.resize(c.size());
    }
  }

  int32_t Intern(const PodInfo& pod) {
    PodShape s = ShapeOf(pod);
    key.resize(sizeof s.milli_cpu + sizeof s.milli_gpu + sizeof s.gpu_count);
    char* p = key.data();
    std::memcpy(p, &s.milli_cpu, sizeof s.milli_cpu);
    std::memcpy(p + sizeof s.milli_cpu, &s.milli_gpu, sizeof s.milli_gpu);
    std::memcpy(p + sizeof s.milli_cpu + sizeof s.milli_gpu, &s.gpu_count, sizeof s.gpu_count);
    key += s.models;
    auto it = shape_ids.find(key);
    if (it != shape_ids.end()) return it->second;
    const int32_t id = static_cast<int32_t>(shapes.size());
    shape_ids.emplace(key, id);
    shapes.push_back(std::move(s));
    entries.emplace_back();
    return id;
  }

  std::vector<Entry>& EntriesFor(int32_t shape, size_t n) {
    std::vector<Entry>& e = entries[static_cast<size_t>(shape)];
    if (e.size() < n) e.resize(n);
    return e;
  }

  const NodeFragProfile& Profile(const ClusterState& c, size_t i) {
    const NodeState& st = c.state(i);
    if (profile_version[i] != st.version) {
      profiles[i].Build(CpuLeftMilli(st), st.gpu_free_milli, table, table.Access(st.gpu_model));
      profile_version[i] = st.version;
    }
    return profiles[i];
  }

  // calculateGpuShareFragExtendScore for shape `s` on node `i`.
  void Evaluate(int32_t s, const ClusterState& c, size_t i, Entry& e) {
    const NodeState& st = c.state(i);
    const NodeFragProfile& prof = Profile(c, i);
    const PodShape& shape = shapes[static_cast<size_t>(s)];
    const std::vector<int32_t>& free = st.gpu_free_milli;
    e.version = st.version;
    e.device = -1;
    if (shape.gpu_count == 1 && shape.milli_gpu < kGpuMilli) {
      // A share: try every device that fits; the CPU is taken without a check.
      e.score = 0;
      for (size_t d = 0; d < free.size(); ++d) {
        if (free[d] < shape.milli_gpu) continue;
        // A device with the same free milli as an earlier one scores the
        // same and cannot win (ties keep the first index).
        bool seen = false;
        if (free.size() <= 16) {
          for (size_t j = 0; j < d && !seen; ++j) seen = free[j] == free[d];
        }
        if (seen) continue;
        const int32_t before = free[d];
        const int64_t score =
            FragScore(prof.frag(), prof.FragAfter(table, shape.milli_cpu, {&before, 1}, shape.milli_gpu));
        if (e.device < 0 || score > e.score) {
          e.score = static_cast<int32_t>(score);
          e.device = static_cast<int32_t>(d);
        }
      }
      return;
    }
    // NodeResource.Sub: unchanged when the CPU or the device count falls
    // short; otherwise the CPU, then `count` devices least free first among
    // those that fit (the exclusive ones: fully free devices).
    double after = prof.frag();
    if (CpuLeftMilli(st) >= shape.milli_cpu && static_cast<int64_t>(free.size()) >= shape.gpu_count) {
      taken.clear();
      if (shape.gpu_count > 0) {
        for (int32_t f : free)
          if (f >= shape.milli_gpu) taken.push_back(f);
        const size_t k = std::min(taken.size(), static_cast<size_t>(shape.gpu_count));
        std::partial_sort(taken.begin(), taken.begin() + static_cast<std::ptrdiff_t>(k), taken.end());
        taken.resize(k);  // fewer than count: upstream keeps the partial subtraction
      }
      after = prof.FragAfter(table, shape.milli_cpu, taken, shape.milli_gpu);
    }
    e.score = static_cast<int32_t>(FragScore(prof.frag(), after));
  }
};

// What a score means, for explain's `why`.
constexpr const char* kFgdMeaning =
    "int(100*sigmoid((F_before - F_after)/1000)), F = the node's GPU fragmentation in milli for the target "
    "workload (50 = unchanged; a share goes to the device with the best score)";

FgdPolicy::FgdPolicy(TypicalPods typical)
    : PaperScorePolicy({"fgd", "FGDScore", kFgdMeaning}), typical_(std::move(typical)) {}

std::unique_ptr<PolicyState> FgdPolicy::NewState() const { return std::make_unique<State>(typical_); }

void FgdPolicy::Score(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& feasible,
                      std::vector<int64_t>& scores, PolicyState& state) const {
  if (PodHasNoRequests(pod)) {
    std::fill(scores.begin(), scores.end(), 100);
    return;
  }
  State& c = StateAs<State>(state);
  c.Sync(cluster);
  const int32_t s = c.Intern(pod);
  std::vector<State::Entry>& entries = c.EntriesFor(s, cluster.size());
  for (size_t k = 0; k < feasible.size(); ++k) {
    const size_t i = feasible[k];
    State::Entry& e = entries[i];
    if (e.version != cluster.state(i).version) c.Evaluate(s, cluster, i, e);
    scores[k] = e.score;
  }
}

bool FgdPolicy::ScoreBound(const PodInfo& pod, const ClusterState& cluster, const std::vector<size_t>& nodes,
                           std::vector<int64_t>& bounds, PolicyState& state) const {
  if (PodHasNoRequests(pod)) return false;  // 100 everywhere: as cheap as a bound
  State& c = StateAs<State>(state);
  c.Sync(cluster);
  const PodShape& shape = c.shapes[static_cast<size_t>(c.Intern(pod))];
  const int64_t g = static_cast<int64_t>(shape.milli_gpu) * shape.gpu_count;
  for (size_t k = 0; k < nodes.size(); ++k) {
    const size_t i = nodes[k];
    const NodeFragProfile& prof = c.Profile(cluster, i);
    if (!prof.nonnegative()) {
      bounds[k] = kMaxNodeScore;  // FragAfter may skip amounts: no bound but the maximum
      continue;
    }
    // Per typical pod m (freq f), F_n drops by f·(the milli taken) when the
    // node does not satisfy m now (m's fragment is all idle milli, before
    // and after), and by at most f·milli per taken device too small for m
    // when it does (m's fragment is the milli on too-small devices, or all
    // of it once m no longer fits: never less than before minus those).
    double w = prof.unsatisfied_freq();
    if (shape.milli_gpu < kGpuMilli) {
      // A device taken from has at least the least free milli that fits.
      int32_t least = kGpuMilli;
      for (int32_t f : cluster.state(i).gpu_free_milli)
        if (f >= shape.milli_gpu && f < least) least = f;
      w += prof.SatisfiedFreqAbove(least);
    }
    // Slack for the rounding in F_n's sums; the score is monotone in the drop.
    const double drop = static_cast<double>(g) * w * (1 + 1e-9) + 1e-6;
    bounds[k] = FragScore(drop, 0);
  }
  return true;
}

std::vector<int32_t> FgdPolicy::SelectGpus(const PodInfo& pod, const ClusterState& cluster, size_t node, Rng&,
                                           PolicyState& state) const {
  // A KAI gpu-memory share is sized per node, which FGD's pod shapes are not:
  // its device is the default one (the fullest that fits).
  if (!pod.gpu.shared() || pod.gpu.memory_mib > 0) return cluster.DefaultGpuChoice(node, pod.gpu);
  // allocateGpuIdBasedOnFGDScore re-runs the score: the argmax device.
  State& c = StateAs<State>(state);
  c.Sync(cluster);
  const int32_t s = c.Intern(pod);
  State::Entry& e = c.EntriesFor(s, cluster.size())[node];
  if (e.version != cluster.state(node).version) c.Evaluate(s, cluster, node, e);
  if (e.device < 0) return cluster.DefaultGpuChoice(node, pod.gpu);
  return {e.device};
}

}  // namespace gpusched
