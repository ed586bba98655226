#include "dra_bench.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "bench_cluster.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/scheduler.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sim/simulator.h"

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

// What a node has. kGpus: 8 whole GPUs. kMig: 8 GPUs of which 6 whole and 2
// in MIG mode, 7 x 1g.10gb each (14 MIG devices), as the NVIDIA DRA driver
// publishes them (type "mig", profile, parentIndex) and as the device
// plugin's mixed strategy counts them (nvidia.com/mig-1g.10gb).
enum class Layout { kGpus, kMig };

DeviceAttribute Str(const std::string& s) { return DeviceAttribute{DeviceAttribute::Kind::kString, 0, false, s}; }
DeviceAttribute Int(int64_t v) { return DeviceAttribute{DeviceAttribute::Kind::kInt, v, false, ""}; }

constexpr int kMigParents = 2, kMigPerGpu = 7;
int WholeGpus(Layout l) { return l == Layout::kGpus ? 8 : 8 - kMigParents; }

// The node's devices as the NVIDIA DRA driver publishes them (deviceinfo.go).
ResourceSlice GpuSlice(const std::string& node, Layout layout) {
  ResourceSlice s;
  s.meta.name = node + "-gpu.nvidia.com";
  s.driver = "gpu.nvidia.com";
  s.pool = {node, 1, 1};
  s.node_name = node;
  for (int i = 0; i < 8; ++i) {
    const bool mig = i >= WholeGpus(layout);
    for (int k = 0; k < (mig ? kMigPerGpu : 1); ++k) {
      Device d;
      d.name = mig ? "gpu-" + std::to_string(i) + "-mig-1g.10gb-" + std::to_string(k) : "gpu-" + std::to_string(i);
      d.attributes["type"] = Str(mig ? "mig" : "gpu");
      d.attributes["productName"] = Str("NVIDIA A100 80GB PCIe");
      d.attributes["resource.kubernetes.io/pcieRoot"] = Str("pci0000:" + std::to_string(i / 4));
      if (mig) {
        d.attributes["profile"] = Str("1g.10gb");
        d.attributes["parentIndex"] = Int(i);
      }
      d.capacity["memory"] = DeviceCapacity{*Quantity::Parse(mig ? "10Gi" : "80Gi"), std::nullopt};
      s.devices.push_back(std::move(d));
    }
  }
  return s;
}

void AddTemplate(ApiObjects& o, const std::string& name, const std::string& cls, int64_t count, bool same_root,
                 std::vector<std::string> selectors = {}) {
  ResourceClaimTemplate& t = o.dra.templates["default/" + name];
  t.meta.name = name;
  t.meta.namespace_ = "default";
  ExactDeviceRequest e;
  e.device_class_name = cls;
  e.count = count;
  e.selectors = std::move(selectors);
  t.spec.requests.push_back(DeviceRequest{"gpus", e, {}});
  if (same_root) t.spec.constraints.push_back(DeviceConstraint{{}, "resource.kubernetes.io/pcieRoot", std::nullopt});
}

std::shared_ptr<ApiObjects> DraObjectsFor(const std::vector<Node>& nodes, Layout layout) {
  auto o = std::make_shared<ApiObjects>();
  auto cls = [&](const std::string& name, const std::string& type) {
    DeviceClass& c = o->dra.device_classes[name];
    c.meta.name = name;
    c.selectors = {"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == '" + type + "'"};
  };
  cls("gpu.nvidia.com", "gpu");
  cls("mig.nvidia.com", "mig");
  AddTemplate(*o, "gpus-1", "gpu.nvidia.com", 1, false);
  AddTemplate(*o, "gpus-2", "gpu.nvidia.com", 2, true);
  AddTemplate(*o, "mig-1g", "mig.nvidia.com", 1, false, {"device.attributes['gpu.nvidia.com'].profile == '1g.10gb'"});
  for (const Node& n : nodes) o->dra.slices.push_back(GpuSlice(n.name(), layout));
  return o;
}

std::vector<Node> Nodes(size_t n, bool dra, Layout layout) {
  std::vector<Node> nodes;
  nodes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    nodes.push_back(MakeNode(i, 8));
    if (dra) {
      nodes.back().allocatable.erase("nvidia.com/gpu");  // DRA nodes: no device-plugin GPUs
    } else if (layout == Layout::kMig) {
      nodes.back().allocatable["nvidia.com/gpu"] = Quantity::FromInt(WholeGpus(layout));
      nodes.back().allocatable["nvidia.com/mig-1g.10gb"] = Quantity::FromInt(kMigParents * kMigPerGpu);
    }
  }
  return nodes;
}

// `gpus` whole GPUs, or (gpus == 0) one 1g.10gb MIG device.
Pod BenchPod(size_t i, int64_t gpus, bool dra) {
  Pod p;
  p.meta.name = "pod-" + std::to_string(i);
  p.meta.namespace_ = "default";
  Container c;
  c.name = "main";
  const int64_t share = gpus == 0 ? 1 : gpus;
  c.requests["cpu"] = Quantity::FromMilli(4000 * share);
  c.requests["memory"] = Quantity::FromInt((32LL * share) << 30, Quantity::Format::kBinarySI);
  if (!dra) c.requests[gpus == 0 ? "nvidia.com/mig-1g.10gb" : "nvidia.com/gpu"] = Quantity::FromInt(share);
  c.limits = c.requests;
  p.containers.push_back(std::move(c));
  if (dra) {
    auto e = std::make_shared<PodSpecExtras>();
    const std::string t = gpus == 0 ? "mig-1g" : "gpus-" + std::to_string(gpus);
    e->resource_claims = {PodResourceClaim{"gpus", "", t, "", false}};
    p.extras = std::move(e);
  }
  return p;
}

// kGpus: 1 GPU, a quarter 2 on one PCIe root. kMig: half 1 GPU, a fifth 2,
// the rest one MIG device.
int64_t DrawGpus(Rng& rng, Layout layout) {
  if (layout == Layout::kGpus) return rng.Uniform(4) == 0 ? 2 : 1;
  const uint64_t r = rng.Uniform(10);
  return r < 5 ? 1 : r < 7 ? 2 : 0;
}

struct Run {
  size_t placed = 0;
  double seconds = 0;
};

SchedulerSet KubeDefault() {
  Result<SchedulerSet> made = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1, PolicyOptions{});
  return std::move(*made);
}

Run Schedule(size_t n, bool dra, Layout layout, double budget) {
  std::vector<Node> nodes = Nodes(n, dra, layout);
  std::shared_ptr<ApiObjects> objects = dra ? DraObjectsFor(nodes, layout) : std::make_shared<ApiObjects>();
  ClusterState cluster(std::move(nodes), objects);
  SchedulerSet set = KubeDefault();
  Scheduler& s = *set.profiles.at(0).second;
  std::vector<Pod> pods;
  Rng rng(7);
  const size_t want = n * static_cast<size_t>(WholeGpus(layout)) * 9 / 10;  // whole GPUs
  for (size_t g = 0, i = 0; g < want; ++i) {
    const int64_t gpus = DrawGpus(rng, layout);
    pods.push_back(BenchPod(i, gpus, dra));
    g += static_cast<size_t>(gpus);
  }
  Run r;
  const auto start = Clock::now();
  for (size_t i = 0; i < pods.size(); ++i) {
    if (s.Schedule(PodInfo::Make(pods[i], i), cluster).scheduled) ++r.placed;
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (r.seconds > budget) break;
  }
  return r;
}

// A simulated day and more: `pods` pods arriving about one a second, each
// running 3,000 to 7,000 s, on `n` nodes (kMig layout), about 80% of the
// whole GPUs busy; the same pods through claims or through the device plugin.
struct SimRun {
  double seconds = 0;
  int64_t finished = 0, running = 0, pending = 0;
};

SimRun SimulateClaims(size_t n, size_t pods, bool dra) {
  constexpr Layout kLayout = Layout::kMig;
  std::vector<Node> nodes = Nodes(n, dra, kLayout);
  std::shared_ptr<ApiObjects> objects = dra ? DraObjectsFor(nodes, kLayout) : std::make_shared<ApiObjects>();
  Workload w;
  Rng rng(11);
  double t = 0;
  // ~1 pod/s of 0.9 GPU for 5,000 s on average: 4,500 of n * 6 whole GPUs.
  const double gap = 4500.0 / (0.8 * static_cast<double>(n * WholeGpus(kLayout)));
  for (size_t i = 0; i < pods; ++i) {
    t += gap * 2 * rng.UniformDouble();
    WorkloadPod wp;
    wp.pod = BenchPod(i, DrawGpus(rng, kLayout), dra);
    wp.arrival = t;
    wp.duration = 3000 + 4000 * rng.UniformDouble();
    w.pods.push_back(std::move(wp));
  }
  SchedulerSet set = KubeDefault();
  SimOptions opts;
  opts.check_invariants = false;
  opts.objects = objects;
  opts.dra = &objects->dra;  // the same objects the plugin reads with the cluster
  SimRun r;
  const auto start = Clock::now();
  SimResult res = Simulate(w, std::move(nodes), set.profiles, opts);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.finished = res.summary.finished;
  r.running = res.summary.running;
  r.pending = res.summary.pending;
  return r;
}

}  // namespace

void DraThroughput(const std::vector<size_t>& sizes, double budget, size_t sim_pods) {
  std::printf("\nDRA: pods with a claim from a template, kube-default, against the same pods asking nvidia.com/gpu "
              "(device plugin), same nodes, same run (%.0f s budget per row). gpus: 8 GPUs a node, pods of 1 GPU or "
              "(a quarter) 2 on one PCIe root; mig: 6 GPUs + 14 MIG 1g.10gb a node, pods of 1 GPU (50%%), 2 "
              "(20%%) or one MIG device (30%%)\n",
              budget);
  std::printf("%8s %6s %12s %14s %14s %8s %10s\n", "nodes", "layout", "DRA pods", "DRA pods/s", "plugin pods/s",
              "ratio", "x upstream");
  for (size_t n : sizes) {
    for (Layout layout : {Layout::kGpus, Layout::kMig}) {
      if (layout == Layout::kGpus && n > 1000) continue;  // the 10,000-node row is the MIG one
      const Run d = Schedule(n, true, layout, budget);
      const Run p = Schedule(n, false, layout, budget);
      const double dr = d.placed / d.seconds, pr = p.placed / p.seconds;
      std::printf("%8zu %6s %12zu %14.0f %14.0f %7.2fx %9.1fx\n", n, layout == Layout::kGpus ? "gpus" : "mig",
                  d.placed, dr, pr, pr / dr, dr / 56.0);
    }
  }
  std::printf("upstream: scheduler_perf SchedulingWithResourceClaimTemplate 5000pods_500nodes threshold 56 pods/s "
              "(QueueingHintsEnabled; typically above 70); \"x upstream\" is DRA pods/s / 56\n");
  if (sim_pods == 0) return;
  const size_t sim_nodes = 1000;
  std::printf("\nDRA simulation: %zu pods (a claim per pod from a template, mig layout mix) arriving over simulated "
              "time and running 3,000-7,000 s on %zu nodes, against the same pods asking nvidia.com/gpu and "
              "nvidia.com/mig-1g.10gb, same run:\n",
              sim_pods, sim_nodes);
  const SimRun d = SimulateClaims(sim_nodes, sim_pods, true);
  const SimRun p = SimulateClaims(sim_nodes, sim_pods, false);
  std::printf("  claims: %.2f s (%lld finished, %lld running, %lld pending); device plugin: %.2f s (%lld, %lld, "
              "%lld); ratio %.2fx\n",
              d.seconds, static_cast<long long>(d.finished), static_cast<long long>(d.running),
              static_cast<long long>(d.pending), p.seconds, static_cast<long long>(p.finished),
              static_cast<long long>(p.running), static_cast<long long>(p.pending), d.seconds / p.seconds);
}

}  // namespace gpusched::bench
