// Node fragmentation, ported from the FGD simulator's pkg/utils/frag.go
// (GetNodePodFrag, CanNodeHostPodOnGpuMemory, NodeGpuShareFragAmount,
// FragAmountSumExceptQ3). Floating-point sums are done per class in
// typical-pod order and then over the classes in class order, exactly as
// upstream, so that FGD's truncated scores match bit for bit.
#include "gpusched/sched/frag.h"

#include <algorithm>

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
    const bool valid = ValidFreq(tp.freq);
    if (valid && tp.shape.milli_gpu == 0) {
      cpu_only_freq_.push_back(tp.freq);
      cpu_only_cpu_.push_back(tp.shape.milli_cpu);
    } else if (valid) {
      gpu_pods_.push_back(static_cast<uint32_t>(freq_.size()));
    }
    freq_.push_back(tp.freq);
    valid_.push_back(valid ? 1 : 0);
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
  nonnegative_ = true;
  for (int32_t f : gpu_free_milli) {
    free_total_ += f;
    nonnegative_ = nonnegative_ && f >= 0;
  }
  // The devices by free milli with prefix sums: a typical pod's fit count
  // and small sum are then one binary search each.
  sorted_.assign(gpu_free_milli.begin(), gpu_free_milli.end());
  std::sort(sorted_.begin(), sorted_.end());
  prefix_.resize(sorted_.size() + 1);
  prefix_[0] = 0;
  for (size_t d = 0; d < sorted_.size(); ++d) prefix_[d + 1] = prefix_[d] + sorted_[d];
  refused_freq_.clear();
  // Sized once and filled by index: this runs for every node that changes.
  const size_t g = table.gpu_pods_.size();
  freq_.resize(g);
  cpu_.resize(g);
  milli_.resize(g);
  need_.resize(g);
  fit_.resize(g);
  small_.resize(g);
  size_t n = 0;
  for (uint32_t m : table.gpu_pods_) {
    if (!access[m]) {
      refused_freq_.push_back(table.freq_[m]);
      continue;
    }
    const int32_t milli = table.milli_[m];
    // Devices below `milli` are small, the rest fit.
    const size_t below =
        static_cast<size_t>(std::lower_bound(sorted_.begin(), sorted_.end(), milli) - sorted_.begin());
    const int32_t fit = static_cast<int32_t>(sorted_.size() - below);
    const int64_t small = prefix_[below];
    freq_[n] = table.freq_[m];
    cpu_[n] = table.cpu_[m];
    milli_[n] = milli;
    need_[n] = table.need_[m];
    fit_[n] = fit;
    small_[n] = small;
    ++n;
  }
  for (auto* v : {&milli_, &need_, &fit_}) v->resize(n);
  freq_.resize(n);
  cpu_.resize(n);
  small_.resize(n);
  frag_ = FragAfter(table, 0, {}, 0);
}

double NodeFragProfile::FragAfter(const FragTable& table, int64_t cpu_milli, std::span<const int32_t> taken_from,
                                  int32_t milli) const {
  const int64_t cpu = cpu_left_ - cpu_milli;
  const int64_t total = free_total_ - static_cast<int64_t>(milli) * static_cast<int64_t>(taken_from.size());
  const double total_d = static_cast<double>(total);
  // Whole devices taken from wholly free ones (every typical pod fit there,
  // none does after) and one device are the common cases: no inner loop.
  bool whole = milli == kGpuMilli;
  bool fits_taken = milli >= 0;  // every device taken from has the milli
  for (int32_t before : taken_from) {
    whole = whole && before == kGpuMilli;
    fits_taken = fits_taken && before >= milli;
  }
  // Add() skips a negative amount. With no negative free milli before or
  // after and freq in [0, 1] no amount is negative, so the check can go;
  // otherwise adding +0.0 instead leaves a sum of non-negative terms bit for
  // bit unchanged.
  const bool checked = !(nonnegative_ && fits_taken && total >= 0);
  auto amount = [checked](double a) { return checked && !(a >= 0) ? 0.0 : a; };
  // CPU-only task types: every idle GPU milli, XL when the CPU fits, else XR.
  double xl = 0, xr = 0;
  for (size_t k = 0; k < table.cpu_only_freq_.size(); ++k) {
    const double a = amount(table.cpu_only_freq_[k] * total_d);
    if (cpu >= table.cpu_only_cpu_[k]) {
      xl += a;
    } else {
      xr += a;
    }
  }
  // Refused by the node's model: every idle GPU milli.
  double na = 0;
  for (double f : refused_freq_) na += amount(f * total_d);
  // The rest, with the fit counts updated for the devices the pod takes from.
  const int64_t whole_taken = static_cast<int64_t>(taken_from.size());
  const bool one = taken_from.size() == 1;
  const int32_t one_before = one ? taken_from[0] : 0, one_after = one_before - milli;
  double q1 = 0, q2 = 0, q4 = 0;
  for (size_t k = 0; k < freq_.size(); ++k) {
    const int32_t tm = milli_[k];
    int64_t fit = fit_[k];
    int64_t small = small_[k];
    if (whole) {
      fit -= whole_taken;
    } else if (one) {
      fit += static_cast<int64_t>(one_after >= tm) - static_cast<int64_t>(one_before >= tm);
      small += (one_after < tm ? one_after : 0) - (one_before < tm ? one_before : 0);
    } else {
      for (int32_t before : taken_from) {
        const int32_t after = before - milli;
        fit += static_cast<int64_t>(after >= tm) - static_cast<int64_t>(before >= tm);
        small += (after < tm ? after : 0) - (before < tm ? before : 0);
      }
    }
    const double f = freq_[k];
    if (fit >= need_[k]) {
      // Q3 (the part on too-small devices is Q2; Q3 is not summed), or Q4.
      if (cpu >= cpu_[k]) {
        q2 += amount(f * static_cast<double>(small));
      } else {
        q4 += amount(f * total_d);
      }
    } else if (cpu >= cpu_[k]) {
      q2 += amount(f * total_d);
    } else {
      q1 += amount(f * total_d);
    }
  }
  // FragAmountSumExceptQ3: the classes in class order, Q3 left out.
  double d[kNumFragClasses] = {};
  d[kQ1] = q1;
  d[kQ2] = q2;
  d[kQ4] = q4;
  d[kXL] = xl;
  d[kXR] = xr;
  d[kNA] = na;
  return SumExceptQ3(d);
}

void NodeFragProfile::FragAfterShares(const FragTable& table, int64_t cpu_milli, std::span<const int32_t> befores,
                                      int32_t milli, std::span<double> out) const {
  constexpr size_t kChunk = 8;
  const int64_t cpu = cpu_left_ - cpu_milli;
  const int64_t total = free_total_ - milli;
  bool clean = nonnegative_ && milli >= 0 && total >= 0;
  for (int32_t b : befores) clean = clean && b >= milli;
  if (!clean || befores.size() > kChunk) {
    // Amounts might need Add()'s check: one device at a time.
    for (size_t j = 0; j < befores.size(); ++j) out[j] = FragAfter(table, cpu_milli, befores.subspan(j, 1), milli);
    return;
  }
  // No amount is negative (see FragAfter). The classes XL, XR and NoAccess
  // see only the total, the same for every device.
  const double total_d = static_cast<double>(total);
  double xl = 0, xr = 0, na = 0;
  for (size_t k = 0; k < table.cpu_only_freq_.size(); ++k) {
    const double a = table.cpu_only_freq_[k] * total_d;
    if (cpu >= table.cpu_only_cpu_[k]) {
      xl += a;
    } else {
      xr += a;
    }
  }
  for (double f : refused_freq_) na += f * total_d;
  // Q1, Q2, Q4 per device, each summed in typical-pod order as FragAfter does.
  const size_t m = befores.size();
  double q1[kChunk] = {}, q2[kChunk] = {}, q4[kChunk] = {};
  for (size_t k = 0; k < freq_.size(); ++k) {
    const int32_t tm = milli_[k];
    const int64_t fit0 = fit_[k], small0 = small_[k], need = need_[k];
    const bool cpu_ok = cpu >= cpu_[k];
    const double f = freq_[k];
    const double a = f * total_d;
    for (size_t j = 0; j < m; ++j) {
      const int32_t before = befores[j], after = before - milli;
      const int64_t fit = fit0 + static_cast<int64_t>(after >= tm) - static_cast<int64_t>(before >= tm);
      if (fit >= need) {
        if (cpu_ok) {
          const int64_t small = small0 + (after < tm ? after : 0) - (before < tm ? before : 0);
          q2[j] += f * static_cast<double>(small);
        } else {
          q4[j] += a;
        }
      } else if (cpu_ok) {
        q2[j] += a;
      } else {
        q1[j] += a;
      }
    }
  }
  for (size_t j = 0; j < m; ++j) {
    double d[kNumFragClasses] = {};
    d[kQ1] = q1[j];
    d[kQ2] = q2[j];
    d[kQ4] = q4[j];
    d[kXL] = xl;
    d[kXR] = xr;
    d[kNA] = na;
    out[j] = SumExceptQ3(d);
  }
}

}  // namespace gpusched
