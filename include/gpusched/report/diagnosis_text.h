// A diagnosis as gpusched prints it: the engine's text, then its advice
// (sched/diagnosis/advice.h) worded with the flag that applies it:
//   "; placing large pods first (--order largest-first) or a bin-packing policy avoids this"
//   "; to model it with a gpusched policy, pass --scheduler-name volcano=POLICY (e.g. volcano=best-fit)"
// Every writer of a diagnosis (table, JSON, explain, pending groups, the
// simulation's pods) reads it through these, so the advice reads the same
// everywhere.
#ifndef GPUSCHED_REPORT_DIAGNOSIS_TEXT_H_
#define GPUSCHED_REPORT_DIAGNOSIS_TEXT_H_

#include <string>

#include "gpusched/sched/diagnosis/advice.h"
#include "gpusched/sched/diagnosis/diagnosis.h"

namespace gpusched {

// "" for no advice; else the clause, starting with "; ".
std::string AdviceText(const Advice& advice);

// d.text, then AdviceText(d.advice).
std::string DiagnosisText(const Diagnosis& d);

}  // namespace gpusched

#endif  // GPUSCHED_REPORT_DIAGNOSIS_TEXT_H_
