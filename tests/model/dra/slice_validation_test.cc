// ValidateResourceSlice (slice_validation.cc), with upstream's messages
// (pkg/apis/resource/validation/validation.go; cases after
// validation_resourceslice_test.go where the model can express them).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "gpusched/model/dra/dra_validation.h"

namespace gpusched {
namespace {

std::vector<std::string> Texts(const std::vector<FieldError>& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

Quantity Q(const char* s) { return *Quantity::Parse(s); }

ResourceSlice ValidSlice() {
  ResourceSlice s;
  s.meta.name = "node-a-gpu";
  s.driver = "gpu.example.com";
  s.pool = {"node-a", 1, 1};
  s.node_name = "node-a";
  Device d;
  d.name = "gpu-0";
  d.attributes["productName"] = {DeviceAttribute::Kind::kString, 0, false, "H100"};
  d.attributes["driverVersion"] = {DeviceAttribute::Kind::kVersion, 0, false, "550.54.15"};
  d.capacity["memory"] = {Q("80Gi"), std::nullopt};
  s.devices.push_back(d);
  return s;
}

constexpr const char* kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr const char* kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr const char* kCIdentMsg =
    "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
    "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
    "'[A-Za-z_][A-Za-z0-9_]*')";

std::string S(const std::string& a, const std::string& b) { return a + b; }

TEST(SliceValidationTest, Slices) {
  struct Case {
    const char* name;
    std::function<void(ResourceSlice&)> tweak;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"good slice", [](ResourceSlice&) {}, {}},
      {"bad driver", [](ResourceSlice& s) { s.driver = "dra_example.com"; },
       {S("spec.driver: Invalid value: \"dra_example.com\": ", kSubdomainMsg)}},
      {"driver in capitals is fine", [](ResourceSlice& s) { s.driver = "GPU.Example.com"; }, {}},
      {"missing driver", [](ResourceSlice& s) { s.driver.clear(); },
       {"spec.driver: Required value", S("spec.driver: Invalid value: \"\": ", kSubdomainMsg)}},
      {"long driver", [](ResourceSlice& s) { s.driver = std::string(64, 'a'); },
       {"spec.driver: Too long: may not be more than 63 bytes"}},
      {"missing pool", [](ResourceSlice& s) { s.pool.name.clear(); }, {"spec.pool.name: Required value"}},
      {"bad pool part", [](ResourceSlice& s) { s.pool.name = "node-a/_x"; },
       {S("spec.pool.name: Invalid value: \"_x\": ", kSubdomainMsg)}},
      {"pool counts",
       [](ResourceSlice& s) {
         s.pool.resource_slice_count = 0;
         s.pool.generation = -1;
       },
       {"spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
        "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero"}},
      {"no node selection", [](ResourceSlice& s) { s.node_name.clear(); },
       {"spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
        "required"}},
      {"two node selections", [](ResourceSlice& s) { s.all_nodes = true; },
       {"spec: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of `nodeName`, `nodeSelector`, "
        "`allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set"}},
      {"node selector with two terms",
       [](ResourceSlice& s) {
         s.node_name.clear();
         NodeSelectorTerm t;
         t.match_expressions.push_back({"zone", "In", {"a"}});
         s.node_selector = std::vector<NodeSelectorTerm>{t, t};
       },
       {"spec.nodeSelector.nodeSelectorTerms: Invalid value: [2 terms]: must have exactly one node selector term"}},
      {"bad device name, duplicate",
       [](ResourceSlice& s) {
         s.devices.push_back(s.devices[0]);
         s.devices[0].name = "GPU_0";
         s.devices[1].name = "gpu-0";
         s.devices.push_back(s.devices[1]);
       },
       {S("spec.devices[0].name: Invalid value: \"GPU_0\": ", kLabelMsg),
        "spec.devices[2]: Duplicate value: \"gpu-0\""}},
      {"attribute names and values",
       [](ResourceSlice& s) {
         Device& d = s.devices[0];
         d.attributes["gpu.example.com/1bad"] = {DeviceAttribute::Kind::kInt, 1, false, ""};
         d.attributes["a/b/c"] = {DeviceAttribute::Kind::kBool, 0, true, ""};
         d.attributes["/x"] = {DeviceAttribute::Kind::kBool, 0, true, ""};
         d.attributes["driverVersion"].string_value = "550.54";
         d.attributes["productName"].string_value = std::string(65, 'x');
       },
       {"spec.devices[0].attributes: Invalid value: \"\": the domain must not be empty",
        "spec.devices[0].attributes: Invalid value: \"a/b/c\": must not contain more than one slash",
        "spec.devices[0].attributes[driverVersion].version: Invalid value: \"550.54\": must be a string compatible "
        "with semver.org spec 2.0.0",
        S("spec.devices[0].attributes: Invalid value: \"1bad\": ", kCIdentMsg),
        "spec.devices[0].attributes[productName].string: Too long: may not be more than 64 bytes"}},
      {"semver with prerelease and build is fine",
       [](ResourceSlice& s) { s.devices[0].attributes["driverVersion"].string_value = "1.0.0-rc.1+build.5"; }, {}},
      {"request policy without multiple allocations",
       [](ResourceSlice& s) {
         CapacityRequestPolicy p;
         p.default_value = Q("1Gi");
         s.devices[0].capacity["memory"].request_policy = p;
       },
       {"spec.devices[0].capacity[memory].requestPolicy: Forbidden: allowMultipleAllocations must be true"}},
      {"request policy values",
       [](ResourceSlice& s) {
         Device& d = s.devices[0];
         d.allow_multiple_allocations = true;
         CapacityRequestPolicy p;
         p.default_value = Q("3Gi");
         p.valid_values = {Q("10Gi"), Q("1Gi"), Q("100Gi")};
         d.capacity["memory"].request_policy = p;
       },
       {"spec.devices[0].capacity[memory].requestPolicy.validValues[1]: Invalid value: \"1Gi\": values must be "
        "sorted in ascending order",
        "spec.devices[0].capacity[memory].requestPolicy.validValues[2]: Invalid value: \"100Gi\": option is larger "
        "than capacity value: 80Gi",
        "spec.devices[0].capacity[memory].requestPolicy.validValues: Invalid value: \"3Gi\": default value is not "
        "valid according to the requestPolicy"}},
      {"request policy range",
       [](ResourceSlice& s) {
         Device& d = s.devices[0];
         d.allow_multiple_allocations = true;
         CapacityRequestPolicy p;
         p.default_value = Q("1Gi");
         p.valid_range = CapacityRequestPolicy::Range{Q("2Gi"), Q("90Gi"), std::nullopt};
         d.capacity["memory"].request_policy = p;
       },
       {"spec.devices[0].capacity[memory].requestPolicy.validRange.default: Invalid value: \"1Gi\": default is "
        "less than min: 2Gi",
        "spec.devices[0].capacity[memory].requestPolicy.validRange.max: Invalid value: \"90Gi\": max is larger "
        "than capacity value: 80Gi"}},
      {"taints",
       [](ResourceSlice& s) {
         s.devices[0].taints = {{"example.com/broken", "", ""}, {"k", "bad value", "Evict"}};
       },
       {"spec.devices[0].taints[0].effect: Required value",
        "spec.devices[0].taints[1].value: Invalid value: \"bad value\": a valid label must be an empty string or "
        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
        "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        "spec.devices[0].taints[1].effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", "
        "\"NoSchedule\", \"None\""}},
      {"per-device node selection off, device sets one",
       [](ResourceSlice& s) { s.devices[0].all_nodes = true; },
       {"spec.devices[0]: Invalid value: \"null\": `nodeName`, `nodeSelector` and `allNodes` can only be set if "
        "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"}},
      {"per-device node selection on, device sets none",
       [](ResourceSlice& s) {
         s.node_name.clear();
         s.per_device_node_selection = true;
       },
       {"spec.devices[0]: Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required "
        "when `perDeviceNodeSelection` is set to true in the ResourceSlice spec"}},
      {"counters and devices in one slice",
       [](ResourceSlice& s) {
         s.shared_counters.push_back({"gpu-0-counters", {{"memory", Q("80Gi")}}});
         s.shared_counters.push_back({"gpu-0-counters", {}});
       },
       {"spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed",
        "spec.sharedCounters[1].counters: Required value", "spec.sharedCounters[1]: Duplicate value: \"gpu-0-counters\""}},
      {"consumes counters",
       [](ResourceSlice& s) {
         s.devices[0].consumes_counters.push_back({"", {{"Mem", Q("1Gi")}}});
       },
       {"spec.devices[0].consumesCounters[0].counterSet: Required value",
        S("spec.devices[0].consumesCounters[0].counters: Invalid value: \"Mem\": ", kLabelMsg)}},
      {"binding conditions",
       [](ResourceSlice& s) { s.devices[0].binding_conditions = {"ready", "ready"}; },
       {"spec.devices[0].bindingConditions[1]: Duplicate value: \"ready\"",
        "spec.devices[0].bindingFailureConditions: Invalid value: []string(nil): bindingFailureConditions are "
        "required to use bindingConditions"}},
      {"too many devices with taints",
       [](ResourceSlice& s) {
         s.devices[0].taints = {{"k", "", "NoSchedule"}};
         for (int i = 1; i <= 64; ++i) {
           s.devices.push_back(s.devices[0]);
           s.devices.back().name = "gpu-" + std::to_string(i);
         }
       },
       {"spec.devices: Too many: 65: must have at most 64 items"}},
  };
  for (const Case& c : cases) {
    ResourceSlice slice = ValidSlice();
    c.tweak(slice);
    EXPECT_EQ(Texts(ValidateResourceSlice(slice)), c.want) << c.name;
  }
}

}  // namespace
}  // namespace gpusched
