// libFuzzer target: the Kubernetes quantity grammar. Any input must parse or
// give an error, and a parsed quantity must print and re-parse to itself.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpusched/model/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpusched::Result<gpusched::Quantity> q = gpusched::Quantity::Parse(text);
  if (!q.ok()) return 0;
  std::string printed = q->String();
  gpusched::Result<gpusched::Quantity> again = gpusched::Quantity::Parse(printed);
  if (!again.ok() || !(*again == *q)) std::abort();  // canonical form must round-trip
  (void)q->MilliValue();
  (void)q->Value();
  return 0;
}
