// Tests for src/model/resource_claims.cc. Upstream source:
//   kubernetes pkg/apis/core/validation/validation.go (validatePodResourceClaims,
//   validatePodResourceClaim, validateResourceClaimNames) and the messages of
//   its validation_test.go resource-claim cases.
#include "gpusched/model/resource_claims.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace gpusched {
namespace {

Pod ClaimPod(std::vector<PodResourceClaim> claims, std::vector<std::vector<ContainerClaim>> container_claims = {}) {
  Pod p;
  p.meta.name = "p";
  auto e = std::make_shared<PodSpecExtras>();
  e->resource_claims = std::move(claims);
  p.extras = std::move(e);
  for (auto& cc : container_claims) {
    Container c{"c" + std::to_string(p.containers.size()), "img", {}, {}, "", std::move(cc)};
    p.containers.push_back(std::move(c));
  }
  return p;
}

PodResourceClaim Named(std::string name, std::string claim) { return {std::move(name), std::move(claim), "", "", false}; }
PodResourceClaim Templated(std::string name, std::string tmpl) {
  return {std::move(name), "", std::move(tmpl), "", false};
}

std::vector<std::string> Validate(const Pod& p) {
  std::vector<FieldError> errs;
  ValidatePodResourceClaims(p, "spec", errs);
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(ResourceClaimsTest, Validation) {
  struct Case {
    std::string name;
    Pod pod;
    std::vector<std::string> want;
  };
  std::vector<Case> cases;
  cases.push_back({"valid", ClaimPod({Named("gpu", "my-claim"), Templated("scratch", "tmpl")},
                                     {{{"gpu", ""}}, {{"scratch", "req-0"}}}),
                   {}});
  cases.push_back({"no name", ClaimPod({Named("", "my-claim")}), {"spec.resourceClaims[0].name: Required value"}});
  cases.push_back({"duplicate name", ClaimPod({Named("gpu", "a"), Named("gpu", "b")}),
                   {"spec.resourceClaims[1].name: Duplicate value: \"gpu\""}});
  cases.push_back({"bad name", ClaimPod({Named("GPU", "a")}),
                   {"spec.resourceClaims[0].name: Invalid value: \"GPU\": a lowercase RFC 1123 label must consist of "
                    "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character "
                    "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"}});
  cases.push_back({"both sources", ClaimPod({{"gpu", "a", "b", "", false}}),
                   {"spec.resourceClaims[0]: Invalid value: {\"name\":\"gpu\",\"resourceClaimName\":\"a\","
                    "\"resourceClaimTemplateName\":\"b\"}: at most one of `resourceClaimName` or "
                    "`resourceClaimTemplateName` may be specified"}});
  cases.push_back({"no source", ClaimPod({Named("gpu", "")}),
                   {"spec.resourceClaims[0]: Invalid value: {\"name\":\"gpu\"}: must specify one of: "
                    "`resourceClaimName`, `resourceClaimTemplateName`"}});
  cases.push_back({"bad claim name", ClaimPod({Named("gpu", "Bad_Name")}),
                   {"spec.resourceClaims[0].resourceClaimName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 "
                    "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
                    "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}});
  cases.push_back({"container claim not in the pod", ClaimPod({Named("gpu", "a")}, {{{"other", ""}}}),
                   {"spec.containers[0].resources.claims[0]: Not found: \"other\": must be one of the names in "
                    "pod.spec.resourceClaims: gpu"}});
  cases.push_back({"container claim with no pod claims", ClaimPod({}, {{{"gpu", ""}}}),
                   {"spec.containers[0].resources.claims[0]: Not found: \"gpu\": must be one of the names in "
                    "pod.spec.resourceClaims which is empty"}});
  cases.push_back({"container claim twice", ClaimPod({Named("gpu", "a")}, {{{"gpu", ""}, {"gpu", ""}}}),
                   {"spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\""}});
  cases.push_back({"container claim after one of its requests", ClaimPod({Named("gpu", "a")}, {{{"gpu", "r"}, {"gpu", ""}}}),
                   {"spec.containers[0].resources.claims[1]: Duplicate value: \"gpu\""}});
  cases.push_back({"container claim without a name", ClaimPod({Named("gpu", "a")}, {{{"", ""}}}),
                   {"spec.containers[0].resources.claims[0]: Required value"}});
  for (const auto& c : cases) EXPECT_EQ(Validate(c.pod), c.want) << c.name;
}

TEST(ResourceClaimsTest, Summary) {
  DraObjects d;
  EXPECT_EQ(d.Summary(), "");
  EXPECT_TRUE(d.empty());
  d.claims["default/a"] = {};
  d.claims["default/b"] = {};
  d.templates["ml/t"] = {};
  d.device_classes["gpu.nvidia.com"] = {};
  auto slice = [](const char* name, const char* driver, const char* node, size_t devices) {
    ResourceSlice s;
    s.meta.name = name;
    s.driver = driver;
    s.node_name = node;
    s.devices.resize(devices);
    return s;
  };
  d.slices.push_back(slice("s1", "gpu.nvidia.com", "node-1", 8));
  d.slices.push_back(slice("s2", "gpu.nvidia.com", "node-2", 8));
  d.slices.push_back(slice("s3", "compute-domain.nvidia.com", "", 1));
  EXPECT_EQ(d.Summary(),
            "2 ResourceClaims, 1 ResourceClaimTemplate, 3 ResourceSlices (compute-domain.nvidia.com: 1 device on 0 "
            "nodes; gpu.nvidia.com: 16 devices on 2 nodes), 1 DeviceClass");
}

}  // namespace
}  // namespace gpusched
