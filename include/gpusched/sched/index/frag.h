// frag: GPU fragmentation as the FGD paper measures it (Weng et al., "Beware
// of Fragmentation", USENIX ATC '23), ported from its simulator
// (hkust-adsl/kubernetes-scheduler-simulator, pkg/utils/frag.go):
//   - a pod's shape (PodResource): CPU, per-GPU milli, GPU count, model list;
//   - the target workload ("typical pods"): the most popular shapes of the
//     trace and their frequencies (GetTypicalPods);
//   - a node's fragmentation F_n = Σ_m p_m · frag_m, the GPU milli a task of
//     typical shape m could not use there (NodeGpuShareFragAmount, summed
//     over every bucket except Q3 = FragAmountSumExceptQ3).
// NodeFragMilli is the literal port (the reference); NodeFragProfile computes
// the same numbers bit for bit, incrementally, for the FGD policy's hot loop.
#ifndef GPUSCHED_SCHED_INDEX_FRAG_H_
#define GPUSCHED_SCHED_INDEX_FRAG_H_

#include <array>
#include <deque>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cluster_state.h"
#include "gpusched/sched/api/pod_info.h"

namespace gpusched {

// The simulator's PodResource: the key by which pods are counted into
// typical pods. Memory is not part of it (no score or fragmentation looks at
// memory).
struct PodShape {
  int64_t milli_cpu = 0;  // Σ over containers, 100m for a container without a cpu request
  int32_t milli_gpu = 0;  // per GPU, 0 = no GPU
  int32_t gpu_count = 0;
  std::string models;     // alibabacloud.com/gpu-card-model as written ("" = any), `|`-separated

  bool operator==(const PodShape&) const = default;
  // The GPU-sharing test of the simulator (PodResource.IsGpuShare).
  bool shared() const { return gpu_count == 1 && milli_gpu < kGpuMilli; }
};

// PodResource.Less: cpu, then milli, then count, then the model string.
bool ShapeLess(const PodShape& a, const PodShape& b);

// The shape of a pod as utils.GetPodResource reads it: the GPU request
// (whole nvidia.com/gpu pods are 1000 milli × count), the raw model list, and
// the CPU of the regular containers with scoring's 100m default for a
// container that sets no cpu request (GetNonzeroRequests; init containers and
// overhead are not counted, as upstream). A PodInfo without a Pod uses its
// non_zero_requests.
PodShape ShapeOf(const PodInfo& pod);

// resourcehelper.PodRequestsAndLimits(pod) is empty: no container, init
// container or overhead names any resource (FGD scores such a pod 100
// everywhere). A PodInfo without a Pod: its requests are all zero.
bool PodHasNoRequests(const PodInfo& pod);

// utils.IsNodeAccessibleToPodByType: true when `models` is empty or names
// `node_model`; a node without a model is refused by a non-empty list; a list
// of only empty entries ("|") allows every node that has a model.
bool ModelListAllows(std::string_view models, std::string_view node_model);

struct TypicalPod {
  PodShape shape;
  double freq = 0;  // renormalised over the typical pods: they sum to 1
};

struct TypicalPods {
  std::vector<TypicalPod> pods;  // most popular first
};

// GetTypicalPods with isInvolvedCpuPods = true, gpuResWeight = 0 and
// podIncreaseStep = 1: count `all_pods` by shape, sort by count descending
// (ties: the larger shape by ShapeLess first, as sort.Reverse does it), take
// shapes until their cumulative count reaches `popularity_threshold` of all
// pods, and renormalise their frequencies. Upstream's threshold is an integer
// percent; `popularity_threshold` × 100 is snapped to the nearest integer
// when within 1e-9 of it, so 0.95 gives exactly upstream's 95 × total / 100.
// A threshold <= 0 means upstream's default, 60%.
TypicalPods ComputeTypicalPods(const std::vector<PodShape>& all_pods, double popularity_threshold = 0.95);

// GetNodePodFrag's classes, in the simulator's FragRatioDataMap order.
enum class FragClass {
  kQ1LackBoth = 0,
  kQ2LackGpu = 1,
  kQ3Satisfied = 2,
  kQ4LackCpu = 3,
  kXLSatisfied = 4,  // CPU-only task type, CPU fits (its idle GPUs are still fragment)
  kXRLackCpu = 5,    // CPU-only task type, CPU does not fit
  kNoAccess = 6,     // GPU model mismatch
};
inline constexpr size_t kNumFragClasses = 7;

// How a node with `cpu_left_milli` and devices `gpu_free_milli` of model
// `node_model` stands towards one task shape (GetNodePodFrag).
FragClass ClassifyNodeForShape(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli,
                               std::string_view node_model, const PodShape& shape);

// Fragment GPU milli per class, Σ_m p_m · amount (NodeGpuShareFragAmount).
struct FragAmount {
  std::array<double, kNumFragClasses> data{};
  // Every class but Q3, summed in class order (FragAmountSumExceptQ3).
  double SumExceptQ3() const;
  // All classes: the node's idle GPU milli weighted by Σ p_m (the
  // denominator of the simulator's frag ratio).
  double Sum() const;
};

FragAmount NodeFragAmount(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli, std::string_view node_model,
                          const TypicalPods& typical);

// F_n: the fragmentation of a node in GPU milli (NodeGpuShareFragAmountScore).
double NodeFragMilli(int64_t cpu_left_milli, const std::vector<int32_t>& gpu_free_milli, std::string_view node_model,
                     const TypicalPods& typical);
double NodeFragMilli(const NodeState& state, const TypicalPods& typical);

// CPU milli not yet requested on a node (NodeResource.MilliCpuLeft).
inline int64_t CpuLeftMilli(const NodeState& s) { return s.allocatable.milli_cpu - s.requested.milli_cpu; }

// The typical pods laid out for the hot loop (one array per field), with
// each pod's access to a node model resolved once per model.
class FragTable {
 public:
  // The typical pods as nodes of one GPU model see them.
  struct Model {
    std::vector<uint8_t> access;       // per typical pod, 1 when it accepts the model
    std::vector<double> refused_freq;  // the valid GPU typical pods that refuse it, in order
    // The valid GPU typical pods that accept it, in order: freq, cpu, milli
    // and devices that must fit (max(count, 1)); `by_milli` lists their
    // positions by milli ascending.
    std::vector<double> freq;
    std::vector<int64_t> cpu;
    std::vector<int32_t> milli, need;
    std::vector<uint32_t> by_milli;
    double never_satisfied = 0;  // the CPU-only and refusing ones' total freq (never Q3)
  };

  explicit FragTable(const TypicalPods& typical);
  size_t size() const { return freq_.size(); }
  // Cached per model; the reference stays valid as long as the table.
  const Model& Access(std::string_view model);

 private:
  friend class NodeFragProfile;
  std::vector<double> freq_;
  std::vector<uint8_t> valid_;     // freq in [0, 1] (upstream skips others)
  std::vector<int64_t> cpu_;
  std::vector<int32_t> milli_;
  std::vector<int32_t> need_;      // devices that must fit: max(count, 1)
  std::vector<std::string> models_;
  std::deque<std::pair<std::string, Model>> models_seen_;  // deque: stable references
  // The valid CPU-only typical pods (classes XL/XR), in order: freq, cpu.
  std::vector<double> cpu_only_freq_;
  std::vector<int64_t> cpu_only_cpu_;
  std::vector<uint32_t> gpu_pods_;  // the valid typical pods with a GPU, in order
};

// One node's fragmentation plus what it takes to get the fragmentation after
// a pod lands on it in O(#typical): per typical pod, how many devices it fits
// on and how much free milli sits on devices too small for it. Rebuilding it
// reuses its buffers. Results equal NodeFragMilli exactly: each class gets
// the same additions in the same order. That order is all that matters, so
// FragAfter sums the CPU-only typical pods (classes XL, XR), those the node's
// model refuses (class NoAccess) and the rest (Q1, Q2, Q4) in three tight
// loops, each class in its own accumulator.
class NodeFragProfile {
 public:
  // `model` = table.Access(node model); `table` must outlive the profile
  // and be the one later passed to FragAfter.
  void Build(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli, const FragTable& table,
             const FragTable::Model& model);
  // F_n (computed on first use: bounds do not need it).
  double frag() const;
  // F_n after `cpu_milli` more is requested and `milli` is taken from each
  // device whose free milli was `taken_from` (values before, one per device).
  double FragAfter(const FragTable& table, int64_t cpu_milli, std::span<const int32_t> taken_from,
                   int32_t milli) const;
  // For bounding FragAfter from below: no device has negative free milli;
  // the total freq of the valid typical pods the node does not satisfy now
  // (every class but Q3); and of those it satisfies whose milli is > `milli`.
  bool nonnegative() const { return nonnegative_; }
  double unsatisfied_freq() const { return unsatisfied_; }
  double SatisfiedFreqAbove(int32_t milli) const;

 private:
  const FragTable* table_ = nullptr;
  const FragTable::Model* model_ = nullptr;
  int64_t cpu_left_ = 0;
  int64_t free_total_ = 0;
  bool nonnegative_ = true;  // no device has negative free milli
  mutable bool frag_known_ = false;
  mutable double frag_ = 0;
  double unsatisfied_ = 0;
  // Per typical pod of model_->freq: the node's devices with free >= its
  // milli (fit) and Σ free of those with less (small).
  std::vector<int32_t> fit_;
  std::vector<int64_t> small_;
  // The satisfied ones (class Q3 now) by milli ascending, and the suffix
  // sums of their freq (one more, 0, at the end).
  std::vector<int32_t> satisfied_milli_;
  std::vector<double> satisfied_suffix_;
  // Build's scratch: free milli ascending and their prefix sums.
  std::vector<int32_t> sorted_;
  std::vector<int64_t> prefix_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_INDEX_FRAG_H_
