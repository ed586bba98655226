// Node fragmentation, ported from the FGD simulator's pkg/utils/frag.go
// (GetNodePodFrag, CanNodeHostPodOnGpuMemory, NodeGpuShareFragAmount,
// FragAmountSumExceptQ3). Floating-point sums are done per class in
// typical-pod order and then over the classes in class order, exactly as
// upstream, so that FGD's truncated scores match bit for bit.
#include "gpusched/sched/frag.h"

namespace gpusched {
namespace {

constexpr size_t kQ1 = static_cast<size_t>(FragClass::kQ1LackBoth);
constexpr size_t kQ2 = static_cast<size_t>(FragClass::kQ2LackGpu);
constexpr size_t kQ3 = static_cast<size_t>(FragClass::kQ3Satisfied);
constexpr size_t kQ4 = static_cast<size_t>(FragClass::kQ4LackCpu);
constexpr size_t kXL = static_cast<size_t>(FragClass::kXLSatisfied);
constexpr size_t kXR = static_cast<size_t>(FragClass::kXRLackCpu);
constexpr size_t kNA = static_cast<size_t>(FragClass::kNoAccess);

// CanNodeHostPodOnGpuMemory: `count` devices with at least `milli` free. A
// count of 0 still needs one device (upstream decrements before testing).
bool CanHostOnGpus(std::span<const int32_t> free, const PodShape& shape) {
  int64_t left = shape.gpu_count;
  for (int32_t f : free) {
    if (f >= shape.milli_gpu && --left <= 0) return true;
  }
  return false;
}

// FragAmount.AddByFragType refuses negative amounts (they cannot occur for a
// real node; kept for fidelity) and freq outside [0, 1] is skipped by the caller.
inline void Add(double* data, size_t cls, double amount) {
  if (amount >= 0) data[cls] += amount;
}

inline double SumExceptQ3(const double* d) {
  double out = 0;
  for (size_t i = 0; i < kNumFragClasses; ++i)
    if (i != kQ3) out += d[i];
  return out;
}

inline bool ValidFreq(double f) { return f >= 0 && f <= 1; }

}  // namespace

FragClass ClassifyNodeForShape(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli,
                               std::string_view node_model, const PodShape& shape) {
  const bool cpu_ok = cpu_left_milli >= shape.milli_cpu;
  if (shape.milli_gpu == 0) return cpu_ok ? FragClass::kXLSatisfied : FragClass::kXRLackCpu;
  if (!ModelListAllows(shape.models, node_model)) return FragClass::kNoAccess;
  if (CanHostOnGpus(gpu_free_milli, shape)) return cpu_ok ? FragClass::kQ3Satisfied : FragClass::kQ4LackCpu;
  return cpu_ok ? FragClass::kQ2LackGpu : FragClass::kQ1LackBoth;
}

double FragAmount::SumExceptQ3() const { return gpusched::SumExceptQ3(data.data()); }

double FragAmount::Sum() const {
  double out = 0;
  for (double v : data) out += v;
  return out;
}

FragAmount NodeFragAmount(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli, std::string_view node_model,
                          const TypicalPods& typical) {
  FragAmount a;
  int64_t total = 0;
  for (int32_t f : gpu_free_milli) total += f;
  for (const TypicalPod& tp : typical.pods) {
    if (!ValidFreq(tp.freq)) continue;
    const FragClass cls = ClassifyNodeForShape(cpu_left_milli, gpu_free_milli, node_model, tp.shape);
    if (cls == FragClass::kQ3Satisfied) {
      // Only the devices too small for this task type are fragment.
      int64_t small = 0;
      for (int32_t f : gpu_free_milli)
        if (f < tp.shape.milli_gpu) small += f;
      Add(a.data.data(), kQ2, tp.freq * static_cast<double>(small));
      Add(a.data.data(), kQ3, tp.freq * static_cast<double>(total - small));
    } else {
      // Q1, Q2, Q4, XL, XR, NoAccess: every idle GPU milli is fragment.
      Add(a.data.data(), static_cast<size_t>(cls), tp.freq * static_cast<double>(total));
    }
  }
  return a;
}

double NodeFragMilli(int64_t cpu_left_milli, const std::vector<int32_t>& gpu_free_milli, std::string_view node_model,
                     const TypicalPods& typical) {
  return NodeFragAmount(cpu_left_milli, gpu_free_milli, node_model, typical).SumExceptQ3();
}

double NodeFragMilli(const NodeState& state, const TypicalPods& typical) {
  return NodeFragMilli(CpuLeftMilli(state), state.gpu_free_milli, state.gpu_model, typical);
}

FragTable::FragTable(const TypicalPods& typical) {
  for (const TypicalPod& tp : typical.pods) {
    freq_.push_back(tp.freq);
    valid_.push_back(ValidFreq(tp.freq) ? 1 : 0);
    cpu_.push_back(tp.shape.milli_cpu);
    milli_.push_back(tp.shape.milli_gpu);
    need_.push_back(tp.shape.gpu_count > 1 ? tp.shape.gpu_count : 1);
    models_.push_back(tp.shape.models);
  }
}

const std::vector<uint8_t>& FragTable::Access(std::string_view model) {
  for (const auto& [m, mask] : access_)
    if (m == model) return mask;
  std::vector<uint8_t> mask(size());
  for (size_t i = 0; i < size(); ++i) mask[i] = ModelListAllows(models_[i], model) ? 1 : 0;
  access_.emplace_back(std::string(model), std::move(mask));
  return access_.back().second;
}

void NodeFragProfile::Build(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli, const FragTable& table,
                            const std::vector<uint8_t>& access) {
  cpu_left_ = cpu_left_milli;
  free_total_ = 0;
  for (int32_t f : gpu_free_milli) free_total_ += f;
  const size_t n = table.size();
  fit_.resize(n);
  small_.resize(n);
  for (size_t m = 0; m < n; ++m) {
    if (!access[m]) {
      fit_[m] = kNoAccess;
      continue;
    }
    const int32_t milli = table.milli_[m];
    int32_t fit = 0;
    int64_t small = 0;
    for (int32_t f : gpu_free_milli) {
      if (f >= milli) {
        ++fit;
      } else {
        small += f;
      }
    }
    fit_[m] = fit;
    small_[m] = small;
  }
  frag_ = FragAfter(table, 0, {}, 0);
}

double NodeFragProfile::FragAfter(const FragTable& table, int64_t cpu_milli, std::span<const int32_t> taken_from,
                                  int32_t milli) const {
  const int64_t cpu = cpu_left_ - cpu_milli;
  const int64_t total = free_total_ - static_cast<int64_t>(milli) * static_cast<int64_t>(taken_from.size());
  const double total_d = static_cast<double>(total);
  double d[kNumFragClasses] = {};
  const size_t n = table.size();
  for (size_t m = 0; m < n; ++m) {
    if (!table.valid_[m]) continue;
    const double f = table.freq_[m];
    const bool cpu_ok = cpu >= table.cpu_[m];
    const int32_t tm = table.milli_[m];
    if (tm == 0) {
      Add(d, cpu_ok ? kXL : kXR, f * total_d);
      continue;
    }
    if (fit_[m] == kNoAccess) {
      Add(d, kNA, f * total_d);
      continue;
    }
    // Update the counts for the devices the pod takes from.
    int64_t fit = fit_[m];
    int64_t small = small_[m];
    for (int32_t before : taken_from) {
      const int32_t after = before - milli;
      fit += static_cast<int64_t>(after >= tm) - static_cast<int64_t>(before >= tm);
      small += (after < tm ? after : 0) - (before < tm ? before : 0);
    }
    const bool fits = fit >= table.need_[m];
    if (fits && cpu_ok) {
      // Q3: the part on too-small devices is Q2; the Q3 part is not summed.
      Add(d, kQ2, f * static_cast<double>(small));
    } else {
      Add(d, fits ? kQ4 : (cpu_ok ? kQ2 : kQ1), f * total_d);
    }
  }
  return SumExceptQ3(d);
}

}  // namespace gpusched
