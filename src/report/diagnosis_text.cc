#include "gpusched/report/diagnosis_text.h"

namespace gpusched {

std::string AdviceText(const Advice& advice) {
  switch (advice.kind) {
    case Advice::Kind::kNone:
      return "";
    case Advice::Kind::kLargestFirstOrBinPacking:
      return "; placing large pods first (--order largest-first) or a bin-packing policy avoids this";
    case Advice::Kind::kServeSchedulerName: {
      const std::string& name = advice.scheduler_name;
      return "; to model it with a gpusched policy, pass --scheduler-name " + name + "=POLICY (e.g. " + name +
             "=best-fit)";
    }
  }
  return "";
}

std::string DiagnosisText(const Diagnosis& d) { return d.text + AdviceText(d.advice); }

}  // namespace gpusched
