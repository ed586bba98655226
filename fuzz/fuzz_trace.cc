// libFuzzer target: the Alibaba trace CSV loaders. The first byte picks the
// node list or the pod list parser; the rest is the file.
#include <cstdint>
#include <string_view>

#include "gpusched/siminput/trace_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    std::vector<gpusched::Node> nodes;
    std::vector<gpusched::InputError> rejected;
    (void)gpusched::LoadTraceNodesText(text, "fuzz.csv", nodes, rejected);
  } else {
    gpusched::Workload w;
    (void)gpusched::LoadTracePodsText(text, "fuzz.csv", w);
  }
  return 0;
}
