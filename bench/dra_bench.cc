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

namespace gpusched::bench {
namespace {

using Clock = std::chrono::steady_clock;

DeviceAttribute Str(const std::string& s) { return DeviceAttribute{DeviceAttribute::Kind::kString, 0, false, s}; }

// The node's 8 GPUs as the NVIDIA DRA driver publishes them (deviceinfo.go).
ResourceSlice GpuSlice(const std::string& node) {
  ResourceSlice s;
  s.meta.name = node + "-gpu.nvidia.com";
  s.driver = "gpu.nvidia.com";
  s.pool = {node, 1, 1};
  s.node_name = node;
  for (int i = 0; i < 8; ++i) {
    Device d;
    d.name = "gpu-" + std::to_string(i);
    d.attributes["type"] = Str("gpu");
    d.attributes["productName"] = Str("NVIDIA A100 80GB PCIe");
    d.attributes["resource.kubernetes.io/pcieRoot"] = Str("pci0000:" + std::to_string(i / 4));
    d.capacity["memory"] = DeviceCapacity{*Quantity::Parse("80Gi"), std::nullopt};
    s.devices.push_back(std::move(d));
  }
  return s;
}

std::shared_ptr<ApiObjects> DraObjectsFor(const std::vector<Node>& nodes) {
  auto o = std::make_shared<ApiObjects>();
  DeviceClass& c = o->dra.device_classes["gpu.nvidia.com"];
  c.meta.name = "gpu.nvidia.com";
  c.selectors = {"device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"};
  for (int64_t n : {1, 2}) {
    ResourceClaimTemplate& t = o->dra.templates["default/gpus-" + std::to_string(n)];
    t.meta.name = "gpus-" + std::to_string(n);
    t.meta.namespace_ = "default";
    ExactDeviceRequest e;
    e.device_class_name = "gpu.nvidia.com";
    e.count = n;
    t.spec.requests.push_back(DeviceRequest{"gpus", e, {}});
    if (n == 2) t.spec.constraints.push_back(DeviceConstraint{{}, "resource.kubernetes.io/pcieRoot", std::nullopt});
  }
  for (const Node& n : nodes) o->dra.slices.push_back(GpuSlice(n.name()));
  return o;
}

Pod BenchPod(size_t i, int64_t gpus, bool dra) {
  Pod p;
  p.meta.name = "pod-" + std::to_string(i);
  p.meta.namespace_ = "default";
  Container c;
  c.name = "main";
  c.requests["cpu"] = Quantity::FromMilli(4000 * gpus);
  c.requests["memory"] = Quantity::FromInt((32LL * gpus) << 30, Quantity::Format::kBinarySI);
  if (!dra) c.requests["nvidia.com/gpu"] = Quantity::FromInt(gpus);
  c.limits = c.requests;
  p.containers.push_back(std::move(c));
  if (dra) {
    auto e = std::make_shared<PodSpecExtras>();
    e->resource_claims = {PodResourceClaim{"gpus", "", "gpus-" + std::to_string(gpus), "", false}};
    p.extras = std::move(e);
  }
  return p;
}

struct Run {
  size_t placed = 0;
  double seconds = 0;
};

Run Schedule(size_t n, bool dra, double budget) {
  std::vector<Node> nodes;
  for (size_t i = 0; i < n; ++i) {
    nodes.push_back(MakeNode(i, 8));
    if (dra) nodes.back().allocatable.erase("nvidia.com/gpu");  // DRA nodes: no device-plugin GPUs
  }
  std::shared_ptr<ApiObjects> objects = dra ? DraObjectsFor(nodes) : std::make_shared<ApiObjects>();
  ClusterState cluster(std::move(nodes), objects);
  PolicyOptions options;
  Result<SchedulerSet> set = BuildSchedulers(DefaultSchedulerConfiguration(), "kube-default", 1, options);
  Scheduler& s = *set->profiles.at(0).second;
  std::vector<Pod> pods;
  Rng rng(7);
  const size_t want = n * 8 * 9 / 10;  // GPUs
  for (size_t g = 0, i = 0; g < want; ++i) {
    const int64_t gpus = rng.Uniform(4) == 0 ? 2 : 1;
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

}  // namespace

void DraThroughput(const std::vector<size_t>& sizes, double budget) {
  std::printf("\nDRA: pods with a claim from a template (1 GPU, or 2 on one PCIe root), kube-default, against the "
              "same pods asking nvidia.com/gpu (device plugin), same nodes, same run (%.0f s budget per row)\n",
              budget);
  std::printf("%8s %12s %14s %14s %8s\n", "nodes", "DRA pods", "DRA pods/s", "plugin pods/s", "ratio");
  for (size_t n : sizes) {
    const Run d = Schedule(n, true, budget);
    const Run p = Schedule(n, false, budget);
    const double dr = d.placed / d.seconds, pr = p.placed / p.seconds;
    std::printf("%8zu %12zu %14.0f %14.0f %7.2fx\n", n, d.placed, dr, pr, pr / dr);
  }
  std::printf("upstream: scheduler_perf SchedulingWithResourceClaimTemplate 5000pods_500nodes threshold 56 pods/s "
              "(QueueingHintsEnabled; typically above 70)\n");
}

}  // namespace gpusched::bench
