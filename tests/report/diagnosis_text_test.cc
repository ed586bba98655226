// Tests for src/report/diagnosis_text.cc: each advice worded with its flag
// after the diagnosis's text, as every writer prints it.
#include "gpusched/report/diagnosis_text.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(DiagnosisTextTest, AdviceAfterTheText) {
  struct Case {
    Advice advice;
    std::string want;
  };
  const std::string text = "waiting for room, fragmented: ... it needs 2 on one node";
  const Case cases[] = {
      {Advice{}, text},
      {Advice{Advice::Kind::kLargestFirstOrBinPacking, ""},
       text + "; placing large pods first (--order largest-first) or a bin-packing policy avoids this"},
      {Advice{Advice::Kind::kServeSchedulerName, "volcano"},
       text + "; to model it with a gpusched policy, pass --scheduler-name volcano=POLICY (e.g. volcano=best-fit)"},
  };
  for (const Case& c : cases) {
    Diagnosis d;
    d.text = text;
    d.advice = c.advice;
    EXPECT_EQ(DiagnosisText(d), c.want);
    EXPECT_EQ(text + AdviceText(c.advice), c.want);
  }
}

}  // namespace
}  // namespace gpusched
