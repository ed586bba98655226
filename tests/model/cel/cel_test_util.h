// Helpers for the CEL tests: compile and evaluate an expression against a
// small NVIDIA-like device and describe the outcome as one string, so that
// tables can state exact expected results.
#ifndef GPUSCHED_TESTS_MODEL_CEL_CEL_TEST_UTIL_H_
#define GPUSCHED_TESTS_MODEL_CEL_CEL_TEST_UTIL_H_

#include <string>

#include "gpusched/model/cel/device_selector.h"

namespace gpusched::cel::testing {

inline DeviceAttribute StrAttr(std::string s) { return {DeviceAttribute::Kind::kString, 0, false, std::move(s)}; }
inline DeviceAttribute IntAttr(int64_t i) { return {DeviceAttribute::Kind::kInt, i, false, ""}; }
inline DeviceAttribute BoolAttr(bool b) { return {DeviceAttribute::Kind::kBool, 0, b, ""}; }
inline DeviceAttribute VersionAttr(std::string s) { return {DeviceAttribute::Kind::kVersion, 0, false, std::move(s)}; }

// A whole A100 as the NVIDIA DRA driver publishes it (driver gpu.nvidia.com;
// /work/shared/reference/dra-gang-preemption-extender.md section 1.3).
inline Device A100() {
  Device d;
  d.name = "gpu-0";
  d.attributes["type"] = StrAttr("gpu");
  d.attributes["uuid"] = StrAttr("GPU-1371b2f5");
  d.attributes["productName"] = StrAttr("NVIDIA A100 80GB PCIe");
  d.attributes["brand"] = StrAttr("Nvidia");
  d.attributes["architecture"] = StrAttr("Ampere");
  d.attributes["cudaComputeCapability"] = VersionAttr("8.0.0");
  d.attributes["driverVersion"] = VersionAttr("580.95.5");
  d.attributes["cudaDriverVersion"] = VersionAttr("13.0.0");
  d.attributes["index"] = IntAttr(0);
  d.attributes["resource.kubernetes.io/pcieRoot"] = StrAttr("pci0000:00");
  d.capacity["memory"].value = *Quantity::Parse("80Gi");
  return d;
}

// "true", "false", "compile: <message>" or "error: <message>".
inline std::string Outcome(const std::string& expr, const Device& device = A100(),
                           const std::string& driver = "gpu.nvidia.com", CompileOptions options = {}) {
  Result<DeviceSelector> s = DeviceSelector::Compile(expr, options);
  if (!s.ok()) return "compile: " + s.status().message();
  Result<bool> m = s->Matches(driver, device);
  if (!m.ok()) return "error: " + m.status().message();
  return *m ? "true" : "false";
}

}  // namespace gpusched::cel::testing

#endif  // GPUSCHED_TESTS_MODEL_CEL_CEL_TEST_UTIL_H_
