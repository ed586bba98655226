// libFuzzer target: the KubeSchedulerConfiguration loader (decode, default,
// validate, resolve profiles).
#include <cstdint>
#include <string_view>

#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/sched/plugins/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;
  (void)gpusched::LoadSchedulerConfigText(text, "fuzz.yaml", &warnings, gpusched::InTreePlugins());
  return 0;
}
