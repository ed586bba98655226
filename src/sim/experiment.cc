#include "gpusched/sim/experiment.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <thread>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/util/random.h"

namespace gpusched {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The submission sequence of one run, as indices into the name-sorted pods:
// Simulate() in pkg/simulator/core.go sorts by name, shuffles with the seeded
// global rand, then TunePodsByNodeTotalResource draws from the same stream.
std::vector<size_t> Sequence(const std::vector<PodInfo>& sorted, int64_t capacity_milli, double ratio, Rng& rng) {
  std::vector<size_t> seq(sorted.size());
  std::iota(seq.begin(), seq.end(), 0);
  rng.Shuffle(seq);
  if (ratio <= 0 || sorted.empty()) return seq;
  int64_t total = 0;
  for (const PodInfo& p : sorted) total += p.gpu.total_milli();
  const double target = ratio * static_cast<double>(capacity_milli);
  if (static_cast<double>(total) > target) {
    // tuneDownPods: remove uniformly random pods while above the target.
    while (static_cast<double>(total) > target && !seq.empty()) {
      size_t idx = static_cast<size_t>(rng.Uniform(seq.size()));
      total -= sorted[seq[idx]].gpu.total_milli();
      seq.erase(seq.begin() + static_cast<std::ptrdiff_t>(idx));
    }
    return seq;
  }
  // tuneUpPods: append clones drawn with replacement. Upstream's stop test
  // adds the *per-GPU* milli (podRes.MilliGpu) but accumulates the total
  // (TotalMilliGpu); kept as is, since it decides how many pods a run has.
  for (;;) {
    size_t idx = static_cast<size_t>(rng.Uniform(sorted.size()));
    const GpuRequest& g = sorted[idx].gpu;
    if (static_cast<double>(total + (g.any() ? g.milli : 0)) > target) break;
    total += g.total_milli();
    seq.push_back(idx);
  }
  return seq;
}

ExperimentRun RunOne(const std::vector<Node>& nodes, const std::vector<PodInfo>& sorted, const TypicalPods& typical,
                     const std::string& policy, uint64_t seed, const ExperimentOptions& opt) {
  ExperimentRun run;
  run.policy = policy;
  run.seed = seed;
  ClusterState cluster(nodes);
  int64_t capacity = 0;
  for (size_t i = 0; i < cluster.size(); ++i) capacity += cluster.state(i).GpuFreeMilli();
  Rng rng(seed);
  std::vector<size_t> seq = Sequence(sorted, capacity, opt.tune_ratio, rng);
  PolicyOptions po;
  po.typical = &typical;
  Scheduler scheduler(DefaultFilters(), NewSimplePolicy(policy, po), rng.NextU64());
  scheduler.set_explain_failures(false);  // a failure is only counted

  // NodeFragProfile gives NodeFragMilli's value bit for bit, without its
  // per-typical-pod model-list parsing (frag.h).
  FragTable table(typical);
  NodeFragProfile profile;
  auto frag_of = [&](size_t i) {
    const NodeState& st = cluster.state(i);
    profile.Build(CpuLeftMilli(st), st.gpu_free_milli, table, table.Access(st.gpu_model));
    return profile.frag();
  };
  std::vector<double> node_frag(cluster.size());
  double frag_sum = 0;
  for (size_t i = 0; i < cluster.size(); ++i) frag_sum += node_frag[i] = frag_of(i);
  std::vector<std::pair<int, double>> alloc_samples, frag_samples;
  alloc_samples.reserve(seq.size());
  frag_samples.reserve(seq.size());
  int64_t arrived = 0, used = 0;
  const double cap = capacity > 0 ? static_cast<double>(capacity) : 1;
  PodInfo info;  // assigned, not constructed, per pod: its buffers are reused
  for (size_t k = 0; k < seq.size(); ++k) {
    info = sorted[seq[k]];
    info.input_index = k;  // clones are distinct pods
    Decision d = scheduler.ScheduleOne(info, cluster);
    arrived += info.gpu.total_milli();  // failed pods count as arrived
    if (d.scheduled) {
      ++run.placed;
      used += info.gpu.total_milli();
      frag_sum -= node_frag[d.node];
      frag_sum += node_frag[d.node] = frag_of(d.node);
    } else {
      ++run.failed;
    }
    int x = static_cast<int>(std::lround(static_cast<double>(arrived) / cap * 100));
    alloc_samples.emplace_back(x, static_cast<double>(used) / cap * 100);
    frag_samples.emplace_back(x, frag_sum / cap * 100);
  }
  run.pods = static_cast<int64_t>(seq.size());
  run.alloc_pct = BucketSamples(alloc_samples, opt.max_x);
  run.frag_pct = BucketSamples(frag_samples, opt.max_x);
  return run;
}

}  // namespace

std::vector<double> BucketSamples(const std::vector<std::pair<int, double>>& samples, int max_x) {
  std::vector<double> sum(static_cast<size_t>(max_x) + 1, 0);
  std::vector<int64_t> count(sum.size(), 0);
  for (const auto& [x, y] : samples) {
    if (x < 0 || x > max_x) continue;
    sum[static_cast<size_t>(x)] += y;
    count[static_cast<size_t>(x)]++;
  }
  std::vector<double> out(sum.size(), kNaN);
  for (size_t x = 0; x < sum.size(); ++x) {
    if (count[x] > 0) {
      out[x] = sum[x] / static_cast<double>(count[x]);
      continue;
    }
    double s = 0;
    int64_t c = 0;
    for (size_t w = x == 0 ? 0 : x - 1; w <= std::min(x + 1, sum.size() - 1); ++w) {
      s += sum[w];
      c += count[w];
    }
    if (c > 0) out[x] = s / static_cast<double>(c);
  }
  return out;
}

ExperimentResult RunExperiment(const std::vector<Node>& nodes, const std::vector<Pod>& pods,
                               const ExperimentOptions& options) {
  ExperimentResult result;
  // Name order first, as SortClusterPods does, so input order cannot matter.
  std::vector<const Pod*> by_name;
  by_name.reserve(pods.size());
  for (const Pod& p : pods) by_name.push_back(&p);
  std::stable_sort(by_name.begin(), by_name.end(), [](const Pod* a, const Pod* b) {
    return std::tie(a->meta.namespace_, a->meta.name) < std::tie(b->meta.namespace_, b->meta.name);
  });
  std::vector<PodInfo> sorted;
  sorted.reserve(by_name.size());
  std::vector<PodShape> shapes;
  shapes.reserve(by_name.size());
  for (size_t i = 0; i < by_name.size(); ++i) {
    sorted.push_back(PodInfo::Make(*by_name[i], i));
    shapes.push_back(ShapeOf(sorted.back()));
  }
  // The target workload is the trace before tuning (GetTypicalPods).
  const TypicalPods typical = ComputeTypicalPods(shapes);
  {
    ClusterState probe(nodes);
    for (size_t i = 0; i < probe.size(); ++i) result.gpu_milli_capacity += probe.state(i).GpuFreeMilli();
  }

  struct Job {
    size_t policy, seed;
  };
  std::vector<Job> jobs;
  for (size_t p = 0; p < options.policies.size(); ++p)
    for (size_t s = 0; s < options.seeds.size(); ++s) jobs.push_back({p, s});
  result.runs.resize(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex progress_mu;
  size_t done = 0;
  auto worker = [&] {
    for (size_t j; (j = next.fetch_add(1)) < jobs.size();) {
      result.runs[j] = RunOne(nodes, sorted, typical, options.policies[jobs[j].policy], options.seeds[jobs[j].seed],
                              options);
      std::lock_guard<std::mutex> lock(progress_mu);
      ++done;
      if (options.progress) options.progress(done, jobs.size());
    }
  };
  size_t threads = options.threads > 0 ? static_cast<size_t>(options.threads)
                                       : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, std::max<size_t>(jobs.size(), 1));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  // Mean and sample sd over seeds, per policy and bucket.
  const size_t nx = static_cast<size_t>(options.max_x) + 1;
  for (size_t p = 0; p < options.policies.size(); ++p) {
    ExperimentCurve c;
    c.policy = options.policies[p];
    c.unalloc_mean.assign(nx, kNaN);
    c.unalloc_sd.assign(nx, kNaN);
    c.frag_mean.assign(nx, kNaN);
    for (size_t x = 0; x < nx; ++x) {
      std::vector<double> ys, fs;
      for (size_t s = 0; s < options.seeds.size(); ++s) {
        const ExperimentRun& r = result.runs[p * options.seeds.size() + s];
        if (!std::isnan(r.alloc_pct[x])) ys.push_back(100 - r.alloc_pct[x]);
        if (!std::isnan(r.frag_pct[x])) fs.push_back(r.frag_pct[x]);
      }
      if (!ys.empty()) {
        double mean = std::accumulate(ys.begin(), ys.end(), 0.0) / static_cast<double>(ys.size());
        double ss = 0;
        for (double y : ys) ss += (y - mean) * (y - mean);
        c.unalloc_mean[x] = mean;
        c.unalloc_sd[x] = ys.size() > 1 ? std::sqrt(ss / static_cast<double>(ys.size() - 1)) : 0;
      }
      if (!fs.empty()) c.frag_mean[x] = std::accumulate(fs.begin(), fs.end(), 0.0) / static_cast<double>(fs.size());
    }
    result.curves.push_back(std::move(c));
  }
  return result;
}

}  // namespace gpusched
