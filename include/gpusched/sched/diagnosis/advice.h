// Advice: the gpusched setting a diagnosis ends by recommending, kept apart
// from the diagnosis's text because the engine names the concept and leaves
// the wording to the layers that print it — as the command line spells the
// setting (report/diagnosis_text.h: "; placing large pods first (--order
// largest-first) or a bin-packing policy avoids this").
#ifndef GPUSCHED_SCHED_DIAGNOSIS_ADVICE_H_
#define GPUSCHED_SCHED_DIAGNOSIS_ADVICE_H_

#include <string>

namespace gpusched {

struct Advice {
  enum class Kind {
    kNone,
    // Fragmented, and the batch's pods could all fit: the largest-first
    // queue order or a bin-packing policy places them.
    kLargestFirstOrBinPacking,
    // spec.schedulerName names a scheduler gpusched does not run: serve its
    // pods with a gpusched policy (an extra scheduler name).
    kServeSchedulerName,
  };
  Kind kind = Kind::kNone;
  std::string scheduler_name;  // kServeSchedulerName: the pod's spec.schedulerName

  bool operator==(const Advice&) const = default;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_DIAGNOSIS_ADVICE_H_
