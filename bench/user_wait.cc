#include "user_wait.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/report/run_report.h"
#include "gpusched/report/table_writer.h"
#include "gpusched/sched/framework/batch.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/util/random.h"

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// This process's CPU seconds: steadier than wall time on a shared machine.
double CpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs `repeats` times; the median wall and CPU, the largest peak.
ChildRun Repeat(int repeats, const std::vector<std::string>& argv, const std::string& out, uint64_t limit) {
  std::vector<double> wall, cpu;
  ChildRun r;
  for (int k = 0; k < std::max(1, repeats); ++k) {
    ChildRun one = RunChild(argv, out, limit);
    if (!one.ok) return one;
    wall.push_back(one.wall);
    cpu.push_back(one.cpu);
    r.peak_mib = std::max(r.peak_mib, one.peak_mib);
    r.status = one.status;
  }
  r.ok = true;
  r.wall = Median(wall);
  r.cpu = Median(cpu);
  return r;
}

std::string Failed(const ChildRun& r) {
  if (WIFSIGNALED(r.status)) return "killed by signal " + std::to_string(WTERMSIG(r.status));
  return "exit code " + std::to_string(WEXITSTATUS(r.status));
}

// The "scheduling result:" lines ("  pod -> node"), in order.
std::vector<std::string> Placements(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  bool in_block = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "scheduling result:") {
      in_block = true;
      continue;
    }
    if (!in_block) continue;
    if (line.rfind("  ", 0) != 0) break;
    out.push_back(line);
  }
  return out;
}

std::string WithCommas(size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

// Where the time of one `schedule` goes, measured in process with the
// binary's own steps (RunSchedule): loading the file, scheduling the batch
// (its pending pods diagnosed), writing the table.
struct Phases {
  double load = 0, schedule = 0, table = 0;
  size_t placed = 0, pending = 0;
};

Phases Schedule(Manifests& m, double load_seconds) {
  Phases ph;
  ph.load = load_seconds;
  const double t0 = CpuNow();
  std::vector<PodShape> shapes;
  shapes.reserve(m.pods.size());
  for (size_t i = 0; i < m.pods.size(); ++i) shapes.push_back(ShapeOf(PodInfo::Make(m.pods[i].pod, i)));
  const TypicalPods typical = ComputeTypicalPods(shapes);
  PolicyOptions popts;
  popts.typical = &typical;
  Result<SchedulerSet> schedulers = BuildSchedulers(DefaultSchedulerConfiguration(), "first-fit", 1, popts);
  std::vector<Node> nodes;
  nodes.reserve(m.nodes.size());
  for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
  ClusterState cluster(std::move(nodes));
  std::vector<const Pod*> pods;
  pods.reserve(m.pods.size());
  for (const auto& p : m.pods) pods.push_back(&p.pod);
  BatchResult result = ScheduleBatch(pods, cluster, schedulers->profiles, BatchOptions{QueueOrder::kFifo, false});
  ph.schedule = CpuNow() - t0;
  const double t1 = CpuNow();
  {
    std::ofstream null("/dev/null");
    RunReport report{cluster, pods, result, m.rejected, m.warnings, "first-fit", "fifo"};
    WriteTable(null, report);
  }
  ph.table = CpuNow() - t1;
  ph.placed = result.placements.size();
  ph.pending = result.pending.size();
  return ph;
}

// In a child process, so that loading a big file does not leave this one
// large: a child forked from a large process reports that size as its peak.
Phases PhasesOfFile(const std::string& path) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t child = fork();
  if (child == 0) {
    close(fd[0]);
    const double t0 = CpuNow();
    Manifests m;
    if (!LoadManifestPaths({path}, LoadOptions{}, m).ok()) _exit(1);
    const Phases ph = Schedule(m, CpuNow() - t0);
    if (write(fd[1], &ph, sizeof ph) != static_cast<ssize_t>(sizeof ph)) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  Phases ph;
  const ssize_t got = read(fd[0], &ph, sizeof ph);
  close(fd[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return got == static_cast<ssize_t>(sizeof ph) ? ph : Phases{};
}

void PrintPhases(const Phases& ph) {
  const double total = ph.load + ph.schedule + ph.table;
  std::printf("      in process, CPU: load %.3f s (%.0f%%), schedule + diagnose %.3f s (%.0f%%), table %.3f s "
              "(%.0f%%); without loading %.3f s\n",
              ph.load, 100 * ph.load / total, ph.schedule, 100 * ph.schedule / total, ph.table,
              100 * ph.table / total, ph.schedule + ph.table);
}

}  // namespace

ChildRun RunChild(const std::vector<std::string>& argv, const std::string& stdout_path, uint64_t mem_limit_bytes) {
  ChildRun r;
  const auto t0 = Clock::now();
  const pid_t child = fork();
  if (child == 0) {
    const int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_WRONLY);
    if (out < 0 || null < 0 || dup2(out, 1) < 0 || dup2(null, 2) < 0) _exit(127);
    if (mem_limit_bytes > 0) {
      rlimit lim{mem_limit_bytes, mem_limit_bytes};
      setrlimit(RLIMIT_AS, &lim);
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  if (child < 0) return r;
  rusage ru{};
  if (wait4(child, &r.status, 0, &ru) != child) return r;
  r.wall = Since(t0);
  r.cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
          1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  r.peak_mib = static_cast<double>(ru.ru_maxrss) / 1024.0;
  r.ok = WIFEXITED(r.status) && (WEXITSTATUS(r.status) == 0 || WEXITSTATUS(r.status) == 1);
  return r;
}

void WriteSeedShapedCluster(const std::string& path, size_t nodes, size_t pods, uint64_t seed) {
  Rng rng(seed);
  std::ofstream out(path);
  std::string buf;
  buf.reserve(1 << 20);
  buf += "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n";
  for (size_t i = 0; i < nodes; ++i) {
    const uint64_t gpus = 1 + rng.Uniform(8);
    buf += "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node-" + std::to_string(i) +
           "\"}, \"status\": {\"allocatable\": {\"cpu\": \"64\", \"memory\": \"512Gi\", \"pods\": \"110\", "
           "\"nvidia.com/gpu\": \"" +
           std::to_string(gpus) + "\"}}},\n";
  }
  static const int kGpus[] = {1, 2, 4, 8};
  for (size_t i = 0; i < pods; ++i) {
    buf += "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"pod-" + std::to_string(i) +
           "\", \"namespace\": \"default\"}, \"spec\": {\"containers\": [{\"name\": \"main\", \"image\": \"trainer\", "
           "\"resources\": {\"limits\": {\"nvidia.com/gpu\": \"" +
           std::to_string(kGpus[rng.Uniform(4)]) + "\"}}}]}}" + (i + 1 < pods ? ",\n" : "\n");
    if (buf.size() > (1 << 20)) {
      out << buf;
      buf.clear();
    }
  }
  buf += "]}\n";
  out << buf;
}

void ScheduleVsSeed(const UserWaitOptions& o, const std::vector<size_t>& pod_counts) {
  std::printf("\n`gpusched schedule --policy first-fit` against the seed's Python first-fit, end to end on the same\n"
              "JSON List (nodes of 1-8 GPUs, pods of 1/2/4/8 GPUs, 10 pods per node), median of %d runs:\n",
              o.repeats);
  std::printf("  %8s %7s %9s %9s %9s %9s %9s %8s %9s   %s\n", "PODS", "NODES", "PENDING", "GPUSCHED", "CPU",
              "PYTHON", "CPU", "RATIO", "CPU RATIO", "PLACEMENTS");
  for (size_t pods : pod_counts) {
    const size_t nodes = std::max<size_t>(1, pods / 10);
    const std::string cluster = o.dir + "/seed-shaped-" + std::to_string(pods) + ".json";
    WriteSeedShapedCluster(cluster, nodes, pods, 42);
    const std::string gs_out = o.dir + "/gpusched.txt", py_out = o.dir + "/python.txt";
    const ChildRun gs = Repeat(o.repeats, {o.gpusched, "schedule", "-f", cluster, "--policy", "first-fit"}, gs_out,
                               o.mem_limit);
    const ChildRun py = Repeat(o.repeats, {o.python, o.seed_script, cluster}, py_out, o.mem_limit);
    if (!gs.ok || !py.ok) {
      std::printf("  %8s %7s  failed: gpusched %s, python %s\n", WithCommas(pods).c_str(), WithCommas(nodes).c_str(),
                  gs.ok ? "ok" : Failed(gs).c_str(), py.ok ? "ok" : Failed(py).c_str());
      continue;
    }
    const std::vector<std::string> a = Placements(gs_out), b = Placements(py_out);
    const std::string same = a == b ? "same (" + WithCommas(a.size()) + " placed)" : "DIFFERENT";
    std::printf("  %8s %7s %9s %8.3fs %8.3fs %8.2fs %8.2fs %7.1fx %8.1fx   %s\n", WithCommas(pods).c_str(),
                WithCommas(nodes).c_str(), WithCommas(pods - a.size()).c_str(), gs.wall, gs.cpu, py.wall, py.cpu,
                py.wall / gs.wall, py.cpu / gs.cpu, same.c_str());
    PrintPhases(PhasesOfFile(cluster));
    std::fflush(stdout);
  }
}

void ScheduleBig(const UserWaitOptions& o, size_t nodes, size_t pods) {
  std::printf("\none big batch: `gpusched schedule --policy first-fit` on %s nodes and %s pods (seed-shaped, most "
              "pending), address space limited to %.0f GiB (CPU seconds in process):\n",
              WithCommas(nodes).c_str(), WithCommas(pods).c_str(), static_cast<double>(o.mem_limit) / (1ull << 30));
  const std::string cluster = o.dir + "/seed-shaped-big.json";
  WriteSeedShapedCluster(cluster, nodes, pods, 42);
  const ChildRun gs = RunChild({o.gpusched, "schedule", "-f", cluster, "--policy", "first-fit"},
                               o.dir + "/gpusched-big.txt", o.mem_limit);
  if (gs.ok) {
    std::printf("  the binary: %.2f s (%.2f s CPU), peak memory %.0f MiB\n", gs.wall, gs.cpu, gs.peak_mib);
  } else {
    std::printf("  the binary failed (%s) after %.1f s, peak memory %.0f MiB\n", Failed(gs).c_str(), gs.wall,
                gs.peak_mib);
  }
  // The rest without loading: the same pods built in memory (in a child,
  // so its peak memory is its own).
  int fd[2];
  if (pipe(fd) != 0) return;
  const pid_t child = fork();
  if (child == 0) {
    close(fd[0]);
    Manifests m;
    Rng rng(42);
    for (size_t i = 0; i < nodes; ++i) {
      LoadedNode n;
      n.node.meta.name = "node-" + std::to_string(i);
      n.node.has_allocatable = true;
      n.node.allocatable["cpu"] = Quantity::FromInt(64);
      n.node.allocatable["memory"] = Quantity::FromInt(512LL << 30, Quantity::Format::kBinarySI);
      n.node.allocatable["pods"] = Quantity::FromInt(110);
      n.node.allocatable["nvidia.com/gpu"] = Quantity::FromInt(static_cast<int64_t>(1 + rng.Uniform(8)));
      m.nodes.push_back(std::move(n));
    }
    static const int kGpus[] = {1, 2, 4, 8};
    m.pods.reserve(pods);
    for (size_t i = 0; i < pods; ++i) {
      LoadedPod p;
      p.pod.meta.name = "pod-" + std::to_string(i);
      p.pod.meta.namespace_ = "default";
      Container c;
      c.name = "main";
      c.image = "trainer";
      c.limits["nvidia.com/gpu"] = Quantity::FromInt(kGpus[rng.Uniform(4)]);
      c.requests = c.limits;  // defaulted as the loader does
      p.pod.containers.push_back(std::move(c));
      m.pods.push_back(std::move(p));
    }
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const Phases ph = Schedule(m, 0);  // CPU seconds
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    char buf[256];
    const int len = std::snprintf(buf, sizeof buf, "%.3f %.3f %zu %zu %ld %ld\n", ph.schedule, ph.table, ph.placed,
                                  ph.pending, before.ru_maxrss, after.ru_maxrss);
    if (write(fd[1], buf, static_cast<size_t>(len)) != len) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  char buf[256] = {0};
  const ssize_t got = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  int status = 0;
  waitpid(child, &status, 0);
  double schedule = 0, table = 0;
  size_t placed = 0, pending = 0;
  long rss_before = 0, rss_after = 0;
  if (got > 0 && std::sscanf(buf, "%lf %lf %zu %zu %ld %ld", &schedule, &table, &placed, &pending, &rss_before,
                             &rss_after) == 6) {
    std::printf("  without loading (pods built in memory, %s placed, %s pending): schedule + diagnose %.2f s, table "
                "%.2f s; peak memory %.0f MiB with the pods in memory, %.0f MiB at the end\n",
                WithCommas(placed).c_str(), WithCommas(pending).c_str(), schedule, table,
                static_cast<double>(rss_before) / 1024.0, static_cast<double>(rss_after) / 1024.0);
  }
}

namespace {

void WriteOverloadedInputs(const std::string& dir, size_t pods) {
  std::ofstream c(dir + "/overloaded-cluster.json");
  c << "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n";
  for (int i = 0; i < 300; ++i)
    c << "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node-" << i
      << "\"}, \"status\": {\"allocatable\": {\"cpu\": \"96\", \"memory\": \"768Gi\", \"pods\": \"110\", "
         "\"nvidia.com/gpu\": \"8\"}}}"
      << (i + 1 < 300 ? ",\n" : "\n");
  c << "]}\n";
  // 2 GPUs a pod on average, 1.13 h on average (lognormal, median 1 h,
  // sigma 0.5): 2.27 GPU-hours a pod. The 2,400 GPUs run about 1,058 pods
  // an hour; 9,520 arrive.
  std::ofstream w(dir + "/overloaded-" + std::to_string(pods) + ".yaml");
  w << "apiVersion: gpusched.io/v1alpha1\nkind: SyntheticWorkload\nmetadata: {name: overloaded}\nseed: 1\n"
    << "pods: " << pods << "\narrivalRatePerHour: 9520\nduration: {median: 1h, sigma: 0.5}\nmix:\n"
    << "- {name: 1-gpu, weight: 60, gpus: 1, cpu: \"4\", memory: 32Gi}\n"
    << "- {name: 2-gpu, weight: 20, gpus: 2, cpu: \"8\", memory: 64Gi}\n"
    << "- {name: 4-gpu, weight: 15, gpus: 4, cpu: \"16\", memory: 128Gi}\n"
    << "- {name: 8-gpu, weight: 5, gpus: 8, cpu: \"32\", memory: 256Gi}\n";
}

long long Attempts(const std::string& summary_json) {
  std::ifstream in(summary_json);
  std::stringstream ss;
  ss << in.rdbuf();
  std::smatch m;
  const std::string text = ss.str();
  if (std::regex_search(text, m, std::regex("\"scheduling_attempts\": *([0-9]+)"))) return std::stoll(m[1]);
  return -1;
}

}  // namespace

void OverloadedSimulate(const UserWaitOptions& o, const std::vector<size_t>& pod_counts, size_t old_queue_up_to) {
  std::printf("\n`gpusched simulate --policy kube-default` overloaded: 300 nodes of 8 GPUs, arrivals 9x what they can\n"
              "run (1/2/4/8-GPU pods, median 1 h), median of %d runs; GROWTH is CPU time against the row above\n"
              "(the pods doubled):\n",
              o.repeats);
  std::printf("  %-34s %7s %9s %9s %7s %13s %9s\n", "QUEUE", "PODS", "WALL", "CPU", "GROWTH", "ATTEMPTS", "PEAK");
  for (int old = 0; old < 2; ++old) {
    double last_cpu = 0;
    for (size_t pods : pod_counts) {
      if (old && pods > old_queue_up_to) break;
      WriteOverloadedInputs(o.dir, pods);
      const std::string out_dir = o.dir + "/overloaded-out";
      std::vector<std::string> argv = {o.gpusched, "simulate", "-f", o.dir + "/overloaded-cluster.json", "--workload",
                                       o.dir + "/overloaded-" + std::to_string(pods) + ".yaml", "--policy",
                                       "kube-default", "-o", out_dir};
      if (old) argv.insert(argv.end(), {"--feature-gates", "SchedulerQueueingHints=false"});
      const ChildRun r = Repeat(o.repeats, argv, o.dir + "/simulate.txt", o.mem_limit);
      const char* queue = old ? "SchedulerQueueingHints=false" : "QueueingHints (default)";
      if (!r.ok) {
        std::printf("  %-34s %7s  failed: %s\n", queue, WithCommas(pods).c_str(), Failed(r).c_str());
        continue;
      }
      const long long attempts = Attempts(out_dir + "/summary.json");
      char growth[32] = "-";
      if (last_cpu > 0) std::snprintf(growth, sizeof growth, "%.2fx", r.cpu / last_cpu);
      std::printf("  %-34s %7s %8.2fs %8.2fs %7s %13s %6.0f MiB\n", queue, WithCommas(pods).c_str(), r.wall, r.cpu,
                  growth, WithCommas(static_cast<size_t>(std::max(0LL, attempts))).c_str(), r.peak_mib);
      std::fflush(stdout);
      last_cpu = r.cpu;
    }
  }
}

}  // namespace gpusched::bench
