// Node fragmentation, ported from the FGD simulator's pkg/utils/frag.go
// (GetNodePodFrag, CanNodeHostPodOnGpuMemory, NodeGpuShareFragAmount,
// FragAmountSumExceptQ3). Floating-point sums are done per class in
// typical-pod order and then over the classes in class order, exactly as
// upstream, so that FGD's truncated scores match bit for bit.
#include "gpusched/sched/index/frag.h"

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

const FragTable::Model& FragTable::Access(std::string_view model) {
  for (const auto& [name, m] : models_seen_)
    if (name == model) return m;
  Model m;
  m.access.resize(size());
  for (size_t i = 0; i < size(); ++i) m.access[i] = ModelListAllows(models_[i], model) ? 1 : 0;
  for (double f : cpu_only_freq_) m.never_satisfied += f;
  for (uint32_t i : gpu_pods_) {
    if (!m.access[i]) {
      m.refused_freq.push_back(freq_[i]);
      m.never_satisfied += freq_[i];
      continue;
    }
    m.freq.push_back(freq_[i]);
    m.cpu.push_back(cpu_[i]);
    m.milli.push_back(milli_[i]);
    m.need.push_back(need_[i]);
  }
  m.by_milli.resize(m.freq.size());
  for (size_t k = 0; k < m.by_milli.size(); ++k) m.by_milli[k] = static_cast<uint32_t>(k);
  std::stable_sort(m.by_milli.begin(), m.by_milli.end(),
                   [&](uint32_t a, uint32_t b) { return m.milli[a] < m.milli[b]; });
  models_seen_.emplace_back(std::string(model), std::move(m));
  return models_seen_.back().second;
}

void NodeFragProfile::Build(int64_t cpu_left_milli, std::span<const int32_t> gpu_free_milli, const FragTable& table,
                            const FragTable::Model& model) {
  table_ = &table;
  model_ = &model;
  frag_known_ = false;
  cpu_left_ = cpu_left_milli;
  free_total_ = 0;
  nonnegative_ = true;
  for (int32_t f : gpu_free_milli) {
    free_total_ += f;
    nonnegative_ = nonnegative_ && f >= 0;
  }
  // The devices by free milli with prefix sums: walking the typical pods by
  // milli, a typical pod's fit count and small sum come from one pointer.
  sorted_.assign(gpu_free_milli.begin(), gpu_free_milli.end());
  std::sort(sorted_.begin(), sorted_.end());
  prefix_.resize(sorted_.size() + 1);
  prefix_[0] = 0;
  for (size_t d = 0; d < sorted_.size(); ++d) prefix_[d + 1] = prefix_[d] + sorted_[d];
  const size_t n = model.freq.size();
  fit_.resize(n);
  small_.resize(n);
  unsatisfied_ = model.never_satisfied;
  satisfied_milli_.clear();
  satisfied_suffix_.clear();
  size_t below = 0;  // devices with less free milli than the typical pod's
  for (uint32_t k : model.by_milli) {
    const int32_t milli = model.milli[k];
    while (below < sorted_.size() && sorted_[below] < milli) ++below;
    fit_[k] = static_cast<int32_t>(sorted_.size() - below);
    small_[k] = prefix_[below];
    if (fit_[k] >= model.need[k] && cpu_left_ >= model.cpu[k]) {
      satisfied_milli_.push_back(milli);
      satisfied_suffix_.push_back(model.freq[k]);
    } else {
      unsatisfied_ += model.freq[k];
    }
  }
  satisfied_suffix_.push_back(0);
  for (size_t t = satisfied_suffix_.size() - 1; t-- > 0;) satisfied_suffix_[t] += satisfied_suffix_[t + 1];
}

double NodeFragProfile::frag() const {
  if (!frag_known_) {
    frag_ = FragAfter(*table_, 0, {}, 0);
    frag_known_ = true;
  }
  return frag_;
}

double NodeFragProfile::SatisfiedFreqAbove(int32_t milli) const {
  const size_t t = static_cast<size_t>(std::upper_bound(satisfied_milli_.begin(), satisfied_milli_.end(), milli) -
                                       satisfied_milli_.begin());
  return satisfied_suffix_[t];
}

double NodeFragProfile::FragAfter(const FragTable& table, int64_t cpu_milli, std::span<const int32_t> taken_from,
                                  int32_t milli) const {
  const FragTable::Model& model = *model_;
  const int64_t cpu = cpu_left_ - cpu_milli;
  const int64_t total = free_total_ - static_cast<int64_t>(milli) * static_cast<int64_t>(taken_from.size());
  const double total_d = static_cast<double>(total);
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
  for (double f : model.refused_freq) na += amount(f * total_d);
  // The rest, with the fit counts updated for the devices the pod takes from.
  // Whole devices taken from wholly free ones (every typical pod fit there,
  // none does after) and one device are the common cases: no inner loop.
  const int64_t whole_taken = static_cast<int64_t>(taken_from.size());
  const bool one = taken_from.size() == 1;
  const int32_t one_before = one ? taken_from[0] : 0, one_after = one_before - milli;
  double q1 = 0, q2 = 0, q4 = 0;
  const size_t n = model.freq.size();
  for (size_t k = 0; k < n; ++k) {
    const int32_t tm = model.milli[k];
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
    const double f = model.freq[k];
    if (fit >= model.need[k]) {
      // Q3 (the part on too-small devices is Q2; Q3 is not summed), or Q4.
      if (cpu >= model.cpu[k]) {
        q2 += amount(f * static_cast<double>(small));
      } else {
        q4 += amount(f * total_d);
      }
    } else if (cpu >= model.cpu[k]) {
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

}  // namespace gpusched
