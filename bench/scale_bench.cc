// gpusched_bench: scheduling throughput at 100 to 50,000 nodes for
// first-fit, best-fit, kube-default and FGD (indexed scan against the plain
// scan it must agree with, measured in the same run), FGD on the Alibaba
// cluster, and one end-to-end run: loading and simulating 1,000,000 pods on
// 10,000 nodes, in a child process so its peak memory is its own.
//
// Then what users wait for (user_wait.h): `gpusched schedule` end to end
// against the seed's Python, one big batch, and an overloaded simulation as
// the pods double; `gpusched explain POD` against `gpusched schedule` at
// 1,000 and 10,000 nodes (cli_bench.h); loading a JSON List of a million
// pods (load_bench.h).
//
// Then kube-default with every pod under a zone spread constraint and/or
// hostname anti-affinity against the same pods without them
// (constrained_pods.h), and preemption-heavy and gang-heavy scheduling throughput
// (preemption_bench.h, gang_bench.h).
//
//   gpusched_bench [--only schedule,big,overload,explain,load,throughput,constraints,e2e,preemption,gangs,dra] [--quick] ... (--help for the rest)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cluster.h"
#include "cli_bench.h"
#include "constrained_pods.h"
#include "load_bench.h"
#include "dra_bench.h"
#include "gang_bench.h"
#include "preemption_bench.h"
#include "user_wait.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/siminput/sim_inputs.h"
#include "gpusched/siminput/trace_loader.h"
#include "gpusched/sched/plugins/filter_chain.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sim/simulator.h"

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a) { return std::chrono::duration<double>(Clock::now() - a).count(); }

struct Measured {
  double rate = 0;               // decisions per second
  std::vector<int64_t> choices;  // node per decision (-1 = unschedulable), to compare runs
  int64_t decisions = 0;
  int64_t failures = 0;  // decisions that placed nothing (each needs a message over every node)
  double cpu_rate = 0;   // decisions per second of this thread's CPU time: steadier than `rate` on a busy machine
  double churn_rate = 0;  // decisions per second counting the departures between them too
};

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Holds the cluster near `target` GPU allocation: after each block of
// decisions, while above it, random running pods leave. Only the decisions
// (Schedule: filter, score, bind) are timed; the departures are the
// workload's, not the scheduler's, and are measured apart (`churn_rate`
// times both). The same seed gives the same pod stream to both runs, so
// their choices must agree decision by decision. The fill up to the target
// always runs indexed (it decides the same, and the plain scan would take
// minutes to fill 50,000 nodes); `reference` then switches to the plain scan
// for the measured decisions.
Measured Run(const std::vector<Node>& nodes, const std::vector<Pod>& pool, Scheduler& scheduler, double budget_s,
             int64_t max_decisions, bool reference, double target = 0.8) {
  ClusterState cluster(nodes);
  int64_t capacity = 0;
  for (size_t i = 0; i < cluster.size(); ++i) capacity += cluster.state(i).GpuFreeMilli();
  std::vector<PodInfo> infos;
  infos.reserve(pool.size());
  for (size_t i = 0; i < pool.size(); ++i) infos.push_back(PodInfo::Make(pool[i], i));
  Rng leave(7);
  struct Running { size_t node; uint64_t id; int64_t milli; };
  std::vector<Running> running;
  int64_t used = 0;
  uint64_t next_id = 0;
  Measured m;
  // Written in place, and touched now: growing or faulting in millions of
  // entries mid-run would be charged to the scheduler.
  std::vector<int64_t> choices(static_cast<size_t>(std::min<int64_t>(max_decisions, 4'000'000)), 0);
  constexpr int64_t kBlock = 64;  // decisions timed together between departures
  Attempt block[kBlock];
  uint64_t block_ids[kBlock];
  int64_t block_milli[kBlock];
  auto decide = [&](int64_t k) {
    // In place, not a copy: copying a PodInfo allocates, which would be
    // charged to the scheduler.
    PodInfo& info = infos[next_id % infos.size()];
    info.input_index = next_id++;
    block[k] = scheduler.Schedule(info, cluster);
    block_ids[k] = info.input_index;
    block_milli[k] = info.gpu.total_milli();
  };
  auto depart = [&](int64_t count, bool record) {
    for (int64_t k = 0; k < count; ++k) {
      const Attempt& d = block[k];
      if (record) {
        if (static_cast<size_t>(m.decisions) < choices.size())
          choices[static_cast<size_t>(m.decisions)] = d.scheduled ? static_cast<int64_t>(d.node) : -1;
        if (!d.scheduled) ++m.failures;
        ++m.decisions;
      }
      if (d.scheduled) {
        running.push_back({d.node, block_ids[k], block_milli[k]});
        used += block_milli[k];
      }
    }
    while (static_cast<double>(used) > target * static_cast<double>(capacity) && !running.empty()) {
      size_t k = static_cast<size_t>(leave.Uniform(running.size()));
      cluster.Unbind(running[k].node, running[k].id);
      used -= running[k].milli;
      running[k] = running.back();
      running.pop_back();
    }
  };
  // Fill to the target first (not timed).
  scheduler.set_use_index(true);
  while (static_cast<double>(used) < target * static_cast<double>(capacity) && next_id < 50 * infos.size()) {
    decide(0);
    depart(1, false);
  }
  scheduler.set_use_index(!reference);
  double decide_s = 0, decide_cpu_s = 0;
  const auto t0 = Clock::now();
  while (m.decisions < max_decisions && Seconds(t0) < budget_s) {
    const int64_t count = std::min(kBlock, max_decisions - m.decisions);
    const auto b0 = Clock::now();
    const double c0 = ThreadCpuSeconds();
    for (int64_t k = 0; k < count; ++k) decide(k);
    decide_cpu_s += ThreadCpuSeconds() - c0;
    decide_s += Seconds(b0);
    depart(count, true);
  }
  const double total_s = Seconds(t0);
  choices.resize(std::min(choices.size(), static_cast<size_t>(m.decisions)));
  m.choices = std::move(choices);
  m.rate = static_cast<double>(m.decisions) / decide_s;
  m.cpu_rate = static_cast<double>(m.decisions) / decide_cpu_s;
  m.churn_rate = static_cast<double>(m.decisions) / total_s;
  return m;
}

std::unique_ptr<Scheduler> MakeScheduler(const std::string& policy, const TypicalPods* typical) {
  PolicyOptions po;
  po.typical = typical;
  if (policy == "kube-default") {
    Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), policy, 1, po);
    // Take ownership of the one profile's scheduler.
    return std::move(set->owned.front());
  }
  return std::make_unique<Scheduler>(DefaultFilters(), NewSimplePolicy(policy, po), 1);
}

std::string Fmt(double v) {
  char buf[64];
  if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.2fM", v / 1e6);
  else if (v >= 1e3) std::snprintf(buf, sizeof buf, "%.1fk", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

bool Agree(const Measured& a, const Measured& b) {
  size_t n = std::min(a.choices.size(), b.choices.size());
  for (size_t i = 0; i < n; ++i)
    if (a.choices[i] != b.choices[i]) return false;
  return true;
}

double FailedPercent(const Measured& m) {
  return m.decisions ? 100.0 * static_cast<double>(m.failures) / static_cast<double>(m.decisions) : 0.0;
}

// One table row. After the comparison: the share of decisions that placed
// nothing (each needs kube-scheduler's message over every node), the indexed
// rate per second of CPU time (what the wall-clock rate would be on an idle
// core), and the indexed rate when the departures between decisions are
// timed too.
void Row(const std::string& label, size_t nodes, const Measured& fast, const Measured* ref, bool newline = true) {
  if (!ref) {
    std::printf("  %-14s %7zu %10s %10s %8s   %-24s %6.2f%% %9s %10s%s", label.c_str(), nodes, Fmt(fast.rate).c_str(),
                "-", "-", "(no reference run)", FailedPercent(fast), Fmt(fast.cpu_rate).c_str(),
                Fmt(fast.churn_rate).c_str(), newline ? "\n" : "");
    return;
  }
  const std::string agree = std::string(Agree(fast, *ref) ? "same" : "DIFFERENT") + " (" +
                            std::to_string(std::min(fast.choices.size(), ref->choices.size())) + " compared)";
  std::printf("  %-14s %7zu %10s %10s %7.1fx   %-24s %6.2f%% %9s %10s%s", label.c_str(), nodes,
              Fmt(fast.rate).c_str(), Fmt(ref->rate).c_str(), fast.rate / ref->rate, agree.c_str(),
              FailedPercent(fast), Fmt(fast.cpu_rate).c_str(), Fmt(fast.churn_rate).c_str(), newline ? "\n" : "");
}

struct Options {
  bool quick = false;
  bool reference = true;  // off: only the indexed run (for profiling)
  double budget = 0;      // seconds per run; 0 = 0.2 with --quick, else 1
  int64_t decisions = 5'000'000;  // at most this many per run (a fixed amount of work, for profiling)
};

double Budget(const Options& o) { return o.budget > 0 ? o.budget : o.quick ? 0.2 : 1.0; }

void Throughput(const std::vector<size_t>& sizes, const std::vector<std::string>& policies, const Options& opt) {
  std::printf("decisions per second, cluster held at 80%% GPU allocation (pods leave at random between blocks\n"
              "of 64 decisions; only the decisions are timed, +DEPARTURES times both):\n");
  std::printf("  %-14s %7s %10s %10s %8s   %-24s %7s %9s %10s\n", "POLICY", "NODES", "INDEXED", "PLAIN SCAN",
              "RATIO", "DECISIONS", "FAILED", "PER CPU-S", "+DEPARTURES");
  Rng rng(42);
  std::vector<Pod> pool;
  for (size_t i = 0; i < 20000; ++i) pool.push_back(MakePod(i, rng));
  std::vector<PodShape> shapes;
  for (size_t i = 0; i < pool.size(); ++i) shapes.push_back(ShapeOf(PodInfo::Make(pool[i], i)));
  const TypicalPods typical = ComputeTypicalPods(shapes);
  const double budget = Budget(opt);
  for (const std::string& policy : policies) {
    for (size_t n : sizes) {
      std::vector<Node> nodes = MakeCluster(n);
      auto fast = MakeScheduler(policy, &typical);
      auto ref = MakeScheduler(policy, &typical);
      Measured f = Run(nodes, pool, *fast, budget, opt.decisions, false);
      if (!opt.reference) {
        Row(policy, n, f, nullptr);
        continue;
      }
      Measured r = Run(nodes, pool, *ref, budget, opt.decisions, true);
      Row(policy, n, f, &r);
    }
  }
}

// kube-default with every pod under a zone spread constraint and/or
// hostname anti-affinity to its app (constrained_pods.h), against the same
// pods without them, indexed and plain in the same run. The last column is
// the indexed CPU rate as a share of the unconstrained row's.
void ConstraintsThroughput(const std::vector<size_t>& sizes, const Options& opt, const std::string& only_variant) {
  std::printf("\nkube-default with pod constraints (100 apps; zone spread maxSkew 5 DoNotSchedule, required\n"
              "anti-affinity on kubernetes.io/hostname; cluster held at 80%% GPU allocation as above):\n");
  std::printf("  %-14s %7s %10s %10s %8s   %-24s %7s %9s %10s %9s\n", "CONSTRAINTS", "NODES", "INDEXED",
              "PLAIN SCAN", "RATIO", "DECISIONS", "FAILED", "PER CPU-S", "+DEPARTURES", "VS NONE");
  const std::vector<std::pair<std::string, PodConstraints>> variants = {
      {"none", {}}, {"spread", {true, false}}, {"anti-affinity", {false, true}}, {"spread+anti", {true, true}}};
  const double budget = Budget(opt);
  for (size_t n : sizes) {
    std::vector<Node> nodes = MakeCluster(n);
    LabelNodesWithTopology(nodes);
    double none_cpu = 0;
    for (const auto& [label, c] : variants) {
      // "=row": that row alone (for a profile of it).
      if (!only_variant.empty() && label != only_variant && label != "none" && only_variant[0] != '=') continue;
      if (!only_variant.empty() && only_variant[0] == '=' && label != only_variant.substr(1)) continue;
      Rng rng(42);
      std::vector<Pod> pool;
      for (size_t i = 0; i < 20000; ++i) pool.push_back(MakePod(i, rng));
      Constrain(pool, 100, c);
      auto fast = MakeScheduler("kube-default", nullptr);
      Measured f = Run(nodes, pool, *fast, budget, opt.decisions, false);
      if (label == "none") none_cpu = f.cpu_rate;
      Measured r;
      if (opt.reference) {
        auto ref = MakeScheduler("kube-default", nullptr);
        r = Run(nodes, pool, *ref, budget, opt.decisions, true);
      }
      Row(label, n, f, opt.reference ? &r : nullptr, false);
      std::printf(" %8.2f\n", none_cpu > 0 ? f.cpu_rate / none_cpu : 0.0);
    }
  }
}

void AlibabaFgd(const Options& opt) {
  const std::string dir = GPUSCHED_SOURCE_DIR "/data/alibaba-gpu-2023/";
  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  Workload w;
  if (!LoadTraceNodes(dir + "openb_node_list_gpu_node.csv", nodes, rejected).ok() ||
      !LoadTracePods(dir + "openb_pod_list_default.csv", w).ok()) {
    std::printf("  (Alibaba trace not found under %s; skipped)\n", dir.c_str());
    return;
  }
  std::vector<Pod> pool;
  std::vector<PodShape> shapes;
  for (size_t i = 0; i < w.pods.size(); ++i) {
    pool.push_back(w.pods[i].pod);
    shapes.push_back(ShapeOf(PodInfo::Make(pool.back(), i)));
  }
  const TypicalPods typical = ComputeTypicalPods(shapes);
  std::printf("\nFGD on the Alibaba cluster (default trace pods, 80%% GPU allocation):\n");
  for (const char* policy : {"fgd", "paper-best-fit"}) {
    auto fast = MakeScheduler(policy, &typical);
    auto ref = MakeScheduler(policy, &typical);
    Measured f = Run(nodes, pool, *fast, Budget(opt), opt.decisions, false);
    if (!opt.reference) {
      Row(policy, nodes.size(), f, nullptr);
      continue;
    }
    Measured r = Run(nodes, pool, *ref, Budget(opt), opt.decisions, true);
    Row(policy, nodes.size(), f, &r);
  }
}

// Trace-format CSVs: `nodes` nodes and `pods` pods arriving 10 per second,
// each running about 50 minutes, so the cluster stays busy but not full.
void WriteE2eInputs(const std::string& dir, size_t nodes, size_t pods) {
  std::ofstream n(dir + "/nodes.csv"), p(dir + "/pods.csv");
  n << "sn,cpu_milli,memory_mib,gpu,model\n";
  for (size_t i = 0; i < nodes; ++i)
    n << "node-" << i << "," << (i % 2 ? 64000 : 96000) << "," << (i % 2 ? 524288 : 786432) << ","
      << (i % 2 ? 4 : 8) << "," << (i % 2 ? "T4" : "A100") << "\n";
  p << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
  Rng rng(3);
  for (size_t i = 0; i < pods; ++i) {
    const uint64_t r = rng.Uniform(100);
    int gpus = r < 10 ? 0 : r < 30 ? 1 : r < 75 ? 1 : r < 87 ? 2 : r < 95 ? 4 : 8;
    int milli = r < 10 ? 0 : r < 30 ? static_cast<int>(100 * (1 + rng.Uniform(9))) : 1000;
    const uint64_t t = i / 10, d = 600 + rng.Uniform(5400);
    p << "pod-" << i << "," << (gpus ? 4000 * gpus : 2000) << "," << (gpus ? 32768 * gpus : 8192) << "," << gpus
      << "," << milli << ",,LS,Running," << t << "," << t + d << "," << t << "\n";
  }
}

void EndToEnd(size_t nodes, size_t pods) {
  const std::string dir = std::filesystem::temp_directory_path().string() + "/gpusched-bench-e2e";
  std::filesystem::create_directories(dir);
  WriteE2eInputs(dir, nodes, pods);
  std::printf("\nend to end: load %zu nodes + %zu pods (trace CSV) and simulate them with first-fit:\n", nodes, pods);
  int fd[2];
  if (pipe(fd) != 0) return;
  pid_t child = fork();
  if (child == 0) {
    close(fd[0]);
    const auto t0 = Clock::now();
    SimInputs in;
    SimInputSpec spec;
    spec.cluster_paths = {dir + "/nodes.csv"};
    spec.workload = dir + "/pods.csv";
    Status st = LoadSimInputs(spec, in);
    const double load = Seconds(t0);
    auto sched = MakeScheduler("first-fit", nullptr);
    SimOptions opts;
    opts.check_invariants = false;
    SimResult r = Simulate(in.workload, in.initial_nodes, *sched, opts);
    const double total = Seconds(t0);
    char buf[256];
    int len = std::snprintf(buf, sizeof buf, "%d %.3f %.3f %lld %lld %lld\n", st.ok() ? 1 : 0, load, total,
                            static_cast<long long>(r.summary.finished), static_cast<long long>(r.summary.pending),
                            static_cast<long long>(r.summary.scheduling_attempts));
    if (write(fd[1], buf, static_cast<size_t>(len)) != len) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  char buf[256] = {0};
  ssize_t got = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  int status = 0;
  struct rusage ru {};
  wait4(child, &status, 0, &ru);
  int ok = 0;
  double load = 0, total = 0;
  long long finished = 0, pending = 0, attempts = 0;
  if (got <= 0 || std::sscanf(buf, "%d %lf %lf %lld %lld %lld", &ok, &load, &total, &finished, &pending, &attempts) != 6) {
    std::printf("  the child run failed\n");
    return;
  }
  std::printf("  load %.2f s, load + simulate %.2f s, peak memory %.0f MiB; %lld finished, %lld pending, %lld "
              "scheduling attempts\n",
              load, total, static_cast<double>(ru.ru_maxrss) / 1024.0, finished, pending, attempts);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpusched::bench

namespace {

std::vector<size_t> SizeList(const char* arg) {
  std::vector<size_t> v;
  std::stringstream ss(arg);
  for (std::string s; std::getline(ss, s, ',');) v.push_back(std::stoul(s));
  return v;
}

bool Has(const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

int main(int argc, char** argv) {
  gpusched::bench::Options opt;
  std::vector<size_t> sizes = {100, 1000, 5000, 10000, 50000};
  std::vector<std::string> policies = {"first-fit", "best-fit", "kube-default", "fgd"};
  bool alibaba = true;
  size_t e2e_pods = 1000000, e2e_nodes = 10000;
  // Sections, in the order they run: those that run the binary first, while
  // this process is small (a child reports its parent's size as its peak).
  const std::vector<std::string> all = {"schedule", "big", "overload", "explain", "load", "throughput", "constraints",
                                        "e2e", "preemption", "gangs", "dra"};
  std::vector<std::string> only = all;
  gpusched::bench::UserWaitOptions uw;
  uw.gpusched = GPUSCHED_BINARY;
  uw.seed_script = GPUSCHED_SOURCE_DIR "/bench/seed_first_fit.py";
  std::vector<size_t> schedule_pods = {1000, 10000, 100000};
  size_t big_nodes = 10000, big_pods = 1000000;
  std::vector<size_t> overload_pods = {2500, 5000, 10000, 20000};
  size_t old_queue_up_to = 10000;
  std::vector<size_t> cli_nodes = {1000, 10000};
  size_t load_pods = 1000000, load_nodes = 10000;
  int load_runs = 3;
  std::vector<size_t> preemption_nodes = {1000, 10000};
  std::vector<size_t> gang_nodes = {1000, 10000};
  std::vector<size_t> constraint_nodes = {1000, 10000};
  std::string constraint_variant;  // one of the rows (with "none"), for profiling
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--quick") {
      opt.quick = true;
    } else if (a == "--no-reference") {
      opt.reference = false;
    } else if (a == "--decisions" && has_value) {
      opt.decisions = std::stoll(argv[++i]);
    } else if (a == "--budget" && has_value) {
      opt.budget = std::stod(argv[++i]);
    } else if (a == "--no-e2e") {
      std::erase(only, "e2e");
    } else if (a == "--sizes" && has_value) {
      sizes = SizeList(argv[++i]);
    } else if (a == "--policies" && has_value) {
      // A subset of the throughput table, e.g. for profiling one policy;
      // the Alibaba FGD rows are then left out.
      policies.clear();
      alibaba = false;
      std::stringstream ss(argv[++i]);
      for (std::string s; std::getline(ss, s, ',');) policies.push_back(s);
    } else if (a == "--load-pods" && has_value) {
      load_pods = std::stoul(argv[++i]);
    } else if (a == "--load-nodes" && has_value) {
      load_nodes = std::stoul(argv[++i]);
    } else if (a == "--load-runs" && has_value) {
      load_runs = std::stoi(argv[++i]);
    } else if (a == "--load-write" && has_value) {
      gpusched::bench::WriteClusterList(argv[++i], load_nodes, load_pods);
      return 0;
    } else if (a == "--cli-nodes" && has_value) {
      cli_nodes = SizeList(argv[++i]);
    } else if (a == "--e2e-pods" && has_value) {
      e2e_pods = std::stoul(argv[++i]);
    } else if (a == "--preemption-nodes" && has_value) {
      preemption_nodes = SizeList(argv[++i]);
    } else if (a == "--constraint-variant" && has_value) {
      constraint_variant = argv[++i];
    } else if (a == "--constraint-nodes" && has_value) {
      constraint_nodes = SizeList(argv[++i]);
    } else if (a == "--gang-nodes" && has_value) {
      gang_nodes = SizeList(argv[++i]);
    } else if (a == "--e2e-nodes" && has_value) {
      e2e_nodes = std::stoul(argv[++i]);
    } else if (a == "--only" && has_value) {
      only.clear();
      std::stringstream ss(argv[++i]);
      for (std::string s; std::getline(ss, s, ',');) only.push_back(s);
    } else if (a == "--schedule-pods" && has_value) {
      schedule_pods = SizeList(argv[++i]);
    } else if (a == "--big-nodes" && has_value) {
      big_nodes = std::stoul(argv[++i]);
    } else if (a == "--big-pods" && has_value) {
      big_pods = std::stoul(argv[++i]);
    } else if (a == "--overload-pods" && has_value) {
      overload_pods = SizeList(argv[++i]);
    } else if (a == "--old-queue-up-to" && has_value) {
      old_queue_up_to = std::stoul(argv[++i]);
    } else if (a == "--repeats" && has_value) {
      uw.repeats = std::stoi(argv[++i]);
    } else if (a == "--gpusched" && has_value) {
      uw.gpusched = argv[++i];  // another build's binary, e.g. to compare before and after a change
    } else if (a == "--mem-limit-gib" && has_value) {
      uw.mem_limit = static_cast<uint64_t>(std::stod(argv[++i]) * (1ull << 30));
    } else {
      std::fprintf(stderr,
                   "usage: gpusched_bench [--only schedule,big,overload,explain,load,throughput,constraints,e2e,preemption,gangs,dra] [--quick]\n"
                   "  throughput: [--sizes a,b,c] [--policies p,q] [--budget S] [--decisions N] [--no-reference]\n"
                   "  e2e:        [--e2e-pods N] [--e2e-nodes N] (or --no-e2e)\n"
                   "  schedule:   [--schedule-pods 1000,10000,100000]\n"
                   "  big:        [--big-nodes 10000] [--big-pods 1000000]\n"
                   "  overload:   [--overload-pods 2500,5000,10000,20000] [--old-queue-up-to 10000]\n"
                   "  schedule, big, overload: [--repeats 3] [--mem-limit-gib 8] [--gpusched BINARY]\n"
                   "  explain:    [--cli-nodes 1000,10000]\n"
                   "  load:       [--load-pods N] [--load-nodes N] [--load-runs N] [--load-write FILE]\n"
                   "  preemption: [--preemption-nodes 1000,10000] [--budget S]\n"
                   "  constraints: [--constraint-nodes 1000,10000] [--constraint-variant spread+anti] [--budget S] [--no-reference]\n"
                   "  gangs:      [--gang-nodes 1000,10000]\n");
      return 2;
    }
  }
  for (const std::string& s : only)
    if (!Has(all, s.c_str())) {
      std::fprintf(stderr, "error: unknown section \"%s\"\n", s.c_str());
      return 2;
    }
  if (opt.quick) {
    schedule_pods = {1000, 10000};
    overload_pods = {2500, 5000};
    old_queue_up_to = 5000;
    big_nodes = 1000;
    big_pods = 100000;
    uw.repeats = 1;
    cli_nodes = {1000};
    load_pods = 100000;
  }
  const std::string dir = std::filesystem::temp_directory_path().string() + "/gpusched-bench-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  uw.dir = dir;
  if (Has(only, "schedule")) gpusched::bench::ScheduleVsSeed(uw, schedule_pods);
  if (Has(only, "big")) gpusched::bench::ScheduleBig(uw, big_nodes, big_pods);
  if (Has(only, "overload")) gpusched::bench::OverloadedSimulate(uw, overload_pods, old_queue_up_to);
  if (Has(only, "explain")) gpusched::bench::ExplainAgainstSchedule(cli_nodes, opt.quick ? 1 : 3);
  if (Has(only, "load")) gpusched::bench::LoadBench(load_nodes, load_pods, opt.quick ? 1 : load_runs);
  if (Has(only, "throughput")) {
    std::printf("\n");
    gpusched::bench::Throughput(sizes, policies, opt);
    if (alibaba) gpusched::bench::AlibabaFgd(opt);
  }
  if (Has(only, "constraints"))
    gpusched::bench::ConstraintsThroughput(opt.quick ? std::vector<size_t>{1000} : constraint_nodes, opt,
                                           constraint_variant);
  if (Has(only, "e2e")) gpusched::bench::EndToEnd(e2e_nodes, e2e_pods);
  if (Has(only, "preemption"))
    gpusched::bench::PreemptionThroughput(opt.quick ? std::vector<size_t>{1000} : preemption_nodes,
                                          opt.budget > 0 ? opt.budget : (opt.quick ? 0.5 : 2.0));
  if (Has(only, "gangs")) gpusched::bench::GangThroughput(opt.quick ? std::vector<size_t>{1000} : gang_nodes);
  if (Has(only, "dra"))
    gpusched::bench::DraThroughput(opt.quick ? std::vector<size_t>{1000} : std::vector<size_t>{1000, 10000},
                                   opt.budget > 0 ? opt.budget : 20.0, opt.quick ? 10000 : 100000);
  std::filesystem::remove_all(dir);
  return 0;
}
