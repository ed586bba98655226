// ValidateResourceClaim, ValidateResourceClaimTemplate, ValidateDeviceClass
// (claim_validation.cc). Expected texts are upstream's: the messages of
// pkg/apis/resource/validation/validation.go as field.Error.Error() prints
// them, cases after validation_resourceclaim_test.go and
// declarative_validation_test.go where the model can express them.
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

ExactDeviceRequest Exact(const std::string& cls = "gpu.example.com") {
  ExactDeviceRequest e;
  e.device_class_name = cls;
  return e;
}

ResourceClaim ValidClaim() {
  ResourceClaim c;
  c.meta.name = "foo";
  c.meta.namespace_ = "ns";
  DeviceRequest r;
  r.name = "gpu";
  r.exactly = Exact();
  c.spec.requests.push_back(r);
  return c;
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
constexpr const char* kNotARequest =
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

std::string S(const std::string& a, const std::string& b) { return a + b; }

TEST(ClaimValidationTest, Claims) {
  struct Case {
    const char* name;
    std::function<void(ResourceClaim&)> tweak;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"good claim", [](ResourceClaim&) {}, {}},
      {"bad request name", [](ResourceClaim& c) { c.spec.requests[0].name = "!@#$%^"; },
       {S("spec.devices.requests[0].name: Invalid value: \"!@#$%^\": ", kLabelMsg)}},
      {"bad class name", [](ResourceClaim& c) { c.spec.requests[0].exactly->device_class_name = "!@#$%^"; },
       {S("spec.devices.requests[0].exactly.deviceClassName: Invalid value: \"!@#$%^\": ", kSubdomainMsg)}},
      {"missing class name", [](ResourceClaim& c) { c.spec.requests[0].exactly->device_class_name.clear(); },
       {"spec.devices.requests[0].exactly.deviceClassName: Required value"}},
      {"neither exactly nor firstAvailable", [](ResourceClaim& c) { c.spec.requests[0].exactly.reset(); },
       {"spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"}},
      {"both exactly and firstAvailable",
       [](ResourceClaim& c) {
         ExactDeviceRequest s = Exact();
         s.name = "sub";
         c.spec.requests[0].first_available.push_back(s);
       },
       {"spec.devices.requests[0]: Invalid value: \"null\": exactly one of `exactly` or `firstAvailable` is "
        "required, but multiple fields are set"}},
      {"zero count", [](ResourceClaim& c) { c.spec.requests[0].exactly->count = 0; },
       {"spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero"}},
      {"count with All",
       [](ResourceClaim& c) {
         c.spec.requests[0].exactly->allocation_mode = "All";
         c.spec.requests[0].exactly->count = 2;
       },
       {"spec.devices.requests[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is "
        "'All'"}},
      {"All without count",
       [](ResourceClaim& c) {
         c.spec.requests[0].exactly->allocation_mode = "All";
         c.spec.requests[0].exactly->count = 0;
       },
       {}},
      {"unknown allocation mode", [](ResourceClaim& c) { c.spec.requests[0].exactly->allocation_mode = "Some"; },
       {"spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Some\": supported values: \"All\", "
        "\"ExactCount\""}},
      {"duplicate request",
       [](ResourceClaim& c) { c.spec.requests.push_back(c.spec.requests[0]); },
       {"spec.devices.requests[1]: Duplicate value: \"gpu\""}},
      {"too many requests",
       [](ResourceClaim& c) {
         for (int i = 0; i < 32; ++i) {
           c.spec.requests.push_back(c.spec.requests[0]);
           c.spec.requests.back().name = "r" + std::to_string(i);
         }
       },
       {"spec.devices.requests: Too many: 33: must have at most 32 items"}},
      {"selector that does not compile",
       [](ResourceClaim& c) { c.spec.requests[0].exactly->selectors = {"device.foo"}; },
       {"spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: \"device.foo\": compilation "
        "failed: ERROR: <input>:1:7: undefined field 'foo'\n | device.foo\n | ......^"}},
      {"selector of the wrong type",
       [](ResourceClaim& c) { c.spec.requests[0].exactly->selectors = {"device.driver"}; },
       {"spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: \"device.driver\": must "
        "evaluate to bool or the unknown type, not string"}},
      {"selector without cel", [](ResourceClaim& c) { c.spec.requests[0].exactly->selectors = {""}; },
       {"spec.devices.requests[0].exactly.selectors[0].cel: Required value"}},
      {"selector too long",
       [](ResourceClaim& c) { c.spec.requests[0].exactly->selectors = {std::string(10 * 1024 + 1, 'x')}; },
       {"spec.devices.requests[0].exactly.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"}},
      {"constraint on a missing request, without a domain",
       [](ResourceClaim& c) {
         DeviceConstraint k;
         k.requests = {"gpu", "!@#$%^"};
         k.match_attribute = "missing-domain";
         c.spec.constraints.push_back(k);
       },
       {S("spec.devices.constraints[0].requests[1]: Invalid value: \"!@#$%^\": ", kLabelMsg),
        S("spec.devices.constraints[0].requests[1]: Invalid value: \"!@#$%^\": ", kNotARequest),
        S("spec.devices.constraints[0].matchAttribute: Invalid value: \"missing-domain\": ", kCIdentMsg),
        "spec.devices.constraints[0].matchAttribute: Invalid value: \"missing-domain\": a fully qualified name "
        "must be a domain and a name separated by a slash"}},
      {"constraint without an attribute", [](ResourceClaim& c) { c.spec.constraints.push_back({}); },
       {"spec.devices.constraints[0].matchAttribute: Required value"}},
      {"constraint on a subrequest",
       [](ResourceClaim& c) {
         DeviceRequest r;
         r.name = "acc";
         ExactDeviceRequest a = Exact(), b = Exact();
         a.name = "big";
         b.name = "small";
         r.first_available = {a, b};
         c.spec.requests.push_back(r);
         DeviceConstraint k;
         k.requests = {"acc/small", "acc/huge", "a/b/c"};
         k.match_attribute = "gpu.example.com/pcieRoot";
         c.spec.constraints.push_back(k);
       },
       {S("spec.devices.constraints[0].requests[1]: Invalid value: \"acc/huge\": ", kNotARequest),
        S("spec.devices.constraints[0].requests[2]: Invalid value: \"a/b/c\": ", kNotARequest)}},
      {"duplicate subrequest, too many",
       [](ResourceClaim& c) {
         DeviceRequest r;
         r.name = "acc";
         ExactDeviceRequest a = Exact();
         a.name = "one";
         r.first_available = {a, a};
         c.spec.requests.push_back(r);
       },
       {"spec.devices.requests[1].firstAvailable[1]: Duplicate value: \"one\""}},
      {"config for a missing request, without a driver",
       [](ResourceClaim& c) {
         DeviceConfiguration cfg;
         cfg.requests = {"nope"};
         c.spec.config.push_back(cfg);
       },
       {S("spec.devices.config[0].requests[0]: Invalid value: \"nope\": ", kNotARequest),
        "spec.devices.config[0].opaque.driver: Required value",
        S("spec.devices.config[0].opaque.driver: Invalid value: \"\": ", kSubdomainMsg)}},
      {"toleration",
       [](ResourceClaim& c) {
         c.spec.requests[0].exactly->tolerations = {{"k", "Exists", "v", "", std::nullopt},
                                                    {"k", "Equal", "v", "Sometimes", std::nullopt},
                                                    {"k", "Like", "", "", std::nullopt}};
       },
       {"spec.devices.requests[0].exactly.tolerations[0].value: Invalid value: \"v\": must be empty for operator "
        "`Exists`",
        "spec.devices.requests[0].exactly.tolerations[1].effect: Unsupported value: \"Sometimes\": supported "
        "values: \"NoExecute\", \"NoSchedule\", \"None\"",
        "spec.devices.requests[0].exactly.tolerations[2].operator: Unsupported value: \"Like\": supported values: "
        "\"Equal\", \"Exists\""}},
      {"reservedFor without an allocation",
       [](ResourceClaim& c) { c.reserved_for.push_back({"", "pods", "p", "uid-1"}); },
       {"status.reservedFor: Forbidden: may not be specified when `allocated` is not set"}},
      {"allocation of an unknown request",
       [](ResourceClaim& c) {
         AllocationResult a;
         DeviceRequestAllocationResult r;
         r.request = "cpu";
         r.driver = "gpu.example.com";
         r.pool = "node-a";
         r.device = "gpu-0";
         a.results.push_back(r);
         c.allocation = a;
         c.reserved_for.push_back({"", "pods", "p", ""});
       },
       {"status.reservedFor[0].uid: Required value",
        S("status.allocation.devices.results[0].request: Invalid value: \"cpu\": ", kNotARequest)}},
  };
  for (const Case& c : cases) {
    ResourceClaim claim = ValidClaim();
    c.tweak(claim);
    EXPECT_EQ(Texts(ValidateResourceClaim(claim)), c.want) << c.name;
  }
}

TEST(ClaimValidationTest, TemplatePathsAreUnderSpecSpec) {
  ResourceClaimTemplate t;
  t.meta.name = "tmpl";
  DeviceRequest r;
  r.name = "gpu";
  r.exactly = Exact("");
  t.spec.requests.push_back(r);
  EXPECT_EQ(Texts(ValidateResourceClaimTemplate(t)),
            std::vector<std::string>{"spec.spec.devices.requests[0].exactly.deviceClassName: Required value"});
}

TEST(ClaimValidationTest, DeviceClasses) {
  struct Case {
    const char* name;
    std::vector<std::string> selectors;
    std::string extended_resource;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"good", {"device.driver == \"gpu.example.com\""}, "example.com/gpu", {}},
      {"bad selector",
       {"device.driver == 1"},
       "",
       {"spec.selectors[0].cel.expression: Invalid value: \"device.driver == 1\": compilation failed: ERROR: "
        "<input>:1:15: found no matching overload for '_==_' applied to '(string, int)'\n | device.driver == 1\n "
        "| ..............^"}},
      {"too expensive",
       {"device.attributes[\"x\"].all(a, device.attributes[\"x\"].all(b, device.attributes[\"x\"].all(c, "
        "device.attributes[\"x\"].all(d, true))))"},
       "",
       {"spec.selectors[0].cel.expression: Forbidden: too complex, exceeds cost limit"}},
      {"bad extended resource name",
       {},
       "gpu",
       {"spec.extendedResourceName: Invalid value: \"gpu\": must be a valid extended resource name"}},
  };
  for (const Case& c : cases) {
    DeviceClass cls;
    cls.meta.name = "gpu.example.com";
    cls.selectors = c.selectors;
    cls.extended_resource_name = c.extended_resource;
    EXPECT_EQ(Texts(ValidateDeviceClass(cls)), c.want) << c.name;
  }
}

}  // namespace
}  // namespace gpusched
