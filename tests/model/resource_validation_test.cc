// Tests for src/model/resource_validation.cc, through ValidatePod and
// ValidateNode as the API server runs them: resource names, quantities,
// requests against limits, hugepages, overhead.
//
// Upstream sources: github.com/kubernetes/kubernetes (stored copy at commit
// 000f26050b9be6fb3d79fae95e06b47fc96128cd):
//   pkg/apis/core/validation/validation.go (validateResourceRequirements,
//     ValidateResourceQuantityValue, validateResourceName,
//     validateContainerResourceName)
//   pkg/apis/core/validation/validation_test.go (TestValidateResourceRequirements,
//     TestValidateContainers)
// Go iterates resource maps in random order; gpusched iterates them sorted by
// name, so where a table has several resources the expected order is the
// sorted one.
#include "gpusched/model/resource_validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/model/validation.h"

#include "model_test_util.h"
#include "validation_test_util.h"

namespace gpusched {
namespace {

using namespace validationtest;
using testing::Q;
using testing::RL;

// --- resource requirements ----------------------------------------------

struct ResourcesCase {
  const char* name;
  ResourceList requests;
  ResourceList limits;
  Strings expect;  // errors of ValidatePod for a pod with this one container
};

void RunResourcesCases(const std::vector<ResourcesCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.containers[0].requests = c.requests;
    p.containers[0].limits = c.limits;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// validation_test.go TestValidateResourceRequirements (container cases) and
// the resource success cases of TestValidateContainers.
TEST(ValidateResourcesTest, UpstreamSuccessCases) {
  RunResourcesCases({
      {"limits and requests of hugepage resource are equal", RL({{"cpu", "10"}, {"hugepages-2Mi", "2Mi"}}),
       RL({{"cpu", "10"}, {"hugepages-2Mi", "2Mi"}}), {}},
      {"limits and requests of memory resource are equal", RL({{"memory", "2Mi"}}), RL({{"memory", "2Mi"}}), {}},
      {"limits and requests of cpu resource are equal", RL({{"cpu", "10"}}), RL({{"cpu", "10"}}), {}},
      {"resources-test", {}, RL({{"cpu", "10"}, {"memory", "10G"}, {"my.org/resource", "10"}}), {}},
      {"resources-test-with-request-and-limit", RL({{"cpu", "10"}, {"memory", "10G"}}),
       RL({{"cpu", "10"}, {"memory", "10G"}}), {}},
      {"resources-request-limit-simple", RL({{"cpu", "8"}}), RL({{"cpu", "10"}}), {}},
      {"resources-request-limit-edge", RL({{"cpu", "10"}, {"memory", "10G"}, {"my.org/resource", "10"}}),
       RL({{"cpu", "10"}, {"memory", "10G"}, {"my.org/resource", "10"}}), {}},
      {"resources-request-limit-partials", RL({{"cpu", "9.5"}, {"memory", "10G"}}),
       RL({{"cpu", "10"}, {"my.org/resource", "10"}}), {}},
      {"resources-request", RL({{"cpu", "9.5"}, {"memory", "10G"}}), {}, {}},
      {"valid extended resources for regular container", RL({{"example.com/a", "10"}}),
       RL({{"example.com/a", "10"}}), {}},
      // ours: the GPU case the project is about.
      {"whole GPUs, request equal to limit", RL({{"nvidia.com/gpu", "2"}}), RL({{"nvidia.com/gpu", "2"}}), {}},
  });
}

// validation_test.go TestValidateContainers / TestValidatePod /
// TestValidateResourceRequirements error cases, with upstream's field and
// type and the message validateResourceRequirements builds.
TEST(ValidateResourcesTest, UpstreamErrorCases) {
  const std::string lim = "spec.containers[0].resources.limits";
  const std::string req = "spec.containers[0].resources.requests";
  RunResourcesCases({
      {"invalid compute resource", {}, RL({{"disk", "10G"}}),
       {lim + "[disk]: Invalid value: \"disk\": must be a standard resource type or fully qualified",
        lim + "[disk]: Invalid value: \"disk\": must be a standard resource for containers"}},
      {"Resource CPU invalid", {}, RL({{"cpu", "-10"}, {"memory", "0"}}),
       {lim + "[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"}},
      {"Resource Requests CPU invalid", RL({{"cpu", "-10"}, {"memory", "0"}}), {},
       {req + "[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"}},
      {"Resource Memory invalid", {}, RL({{"cpu", "0"}, {"memory", "-10"}}),
       {lim + "[memory]: Invalid value: \"-10\": must be greater than or equal to 0"}},
      {"Request limit simple invalid", RL({{"cpu", "6"}, {"memory", "3"}}), RL({{"cpu", "5"}, {"memory", "3"}}),
       {req + ": Invalid value: \"6\": must be less than or equal to cpu limit of 5"}},
      {"Memory request limit multiple invalid", RL({{"cpu", "5"}, {"memory", "4"}}),
       RL({{"cpu", "5"}, {"memory", "3"}}),
       {req + ": Invalid value: \"4\": must be less than or equal to memory limit of 3"}},
      {"Invalid storage limit request", {}, RL({{"attachable-volumes-aws-ebs", "10"}}),
       {lim + "[attachable-volumes-aws-ebs]: Invalid value: \"attachable-volumes-aws-ebs\": must be a standard "
              "resource type or fully qualified",
        lim + "[attachable-volumes-aws-ebs]: Invalid value: \"attachable-volumes-aws-ebs\": must be a standard "
              "resource for containers"}},
      {"invalid extended resource name in container request", RL({{"invalid-name", "2"}}),
       RL({{"invalid-name", "2"}}),
       {lim + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource type or fully qualified",
        lim + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource for containers",
        req + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource type or fully qualified",
        req + "[invalid-name]: Invalid value: \"invalid-name\": must be a standard resource for containers"}},
      {"invalid extended resource requirement: request must be == limit", RL({{"example.com/a", "2"}}),
       RL({{"example.com/a", "1"}}), {req + ": Invalid value: \"2\": must be equal to example.com/a limit of 1"}},
      {"invalid extended resource requirement without limit", RL({{"example.com/a", "2"}}), {},
       {lim + ": Required value: " + kLimitMustBeSet}},
      {"invalid fractional extended resource in container request", RL({{"example.com/a", "500m"}}), {},
       {req + "[example.com/a]: Invalid value: \"500m\": must be an integer", lim + ": Required value: " + kLimitMustBeSet}},
      {"invalid fractional extended resource in container limit", RL({{"example.com/a", "5"}}),
       RL({{"example.com/a", "2.5"}}),
       {lim + "[example.com/a]: Invalid value: \"2500m\": must be an integer",
        req + ": Invalid value: \"5\": must be equal to example.com/a limit of 2500m"}},
      {"hugepage resource without cpu or memory", RL({{"hugepages-2Mi", "2Mi"}}), RL({{"hugepages-2Mi", "2Mi"}}),
       {"spec.containers[0].resources: Forbidden: HugePages require cpu or memory"}},
      // validateResourceQuantityHugePageValue (IsHugePageResourceValueDivisible,
      // helpers_test.go TestIsHugePageResourceValueDivisible: 5Mi of 2Mi pages).
      {"hugepages not a multiple of the page size", RL({{"cpu", "1"}, {"hugepages-2Mi", "5Mi"}}),
       RL({{"cpu", "1"}, {"hugepages-2Mi", "5Mi"}}),
       {lim + "[hugepages-2Mi]: Invalid value: \"5Mi\": 5Mi is not positive integer multiple of hugepages-2Mi",
        req + "[hugepages-2Mi]: Invalid value: \"5Mi\": 5Mi is not positive integer multiple of hugepages-2Mi"}},
      {"hugepages with a bad page size", {}, RL({{"cpu", "1"}, {"hugepages-bad", "128Ki"}}),
       {lim + "[hugepages-bad]: Invalid value: \"128Ki\": 128Ki is not positive integer multiple of hugepages-bad"}},
      {"cpu request above limit with a fraction", RL({{"cpu", "1500m"}}), RL({{"cpu", "1"}}),
       {req + ": Invalid value: \"1500m\": must be less than or equal to cpu limit of 1"}},
  });
}

// The messages behind the GPU rules, after defaulting, as `kubectl apply`
// prints them. IsExtendedResourceName makes nvidia.com/gpu an integer,
// non-overcommitable resource; the integer check's BadValue is the Quantity,
// which encoding/json renders as "500m" (with the quotes).
TEST(ValidateResourcesTest, GpuRulesThroughKubectlMessage) {
  struct Case {
    const char* name;
    ResourceList requests, limits;
    std::string expect;
  };
  const Case cases[] = {
      {"fractional GPU limit (request defaulted from it)", {}, RL({{"nvidia.com/gpu", "0.5"}}),
       "The Pod \"123\" is invalid: \n"
       "* spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer\n"
       "* spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer"},
      {"GPU request without a limit", RL({{"nvidia.com/gpu", "1"}}), {},
       "The Pod \"123\" is invalid: spec.containers[0].resources.limits: Required value: " + kLimitMustBeSet},
      {"GPU request below its limit", RL({{"nvidia.com/gpu", "1"}}), RL({{"nvidia.com/gpu", "2"}}),
       "The Pod \"123\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to "
       "nvidia.com/gpu limit of 2"},
      {"GPU request above its limit", RL({{"nvidia.com/gpu", "4"}}), RL({{"nvidia.com/gpu", "2"}}),
       "The Pod \"123\" is invalid: spec.containers[0].resources.requests: Invalid value: \"4\": must be equal to "
       "nvidia.com/gpu limit of 2"},
      {"bare gpu name", {}, RL({{"gpu", "1"}}),
       "The Pod \"123\" is invalid: \n"
       "* spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or "
       "fully qualified\n"
       "* spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for "
       "containers\n"
       "* spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or "
       "fully qualified\n"
       "* spec.containers[0].resources.requests[gpu]: Invalid value: \"gpu\": must be a standard resource for "
       "containers"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.containers[0].requests = c.requests;
    p.containers[0].limits = c.limits;
    DefaultPod(p);
    EXPECT_EQ(InvalidObjectMessage("Pod", p.name(), ValidatePod(p)), c.expect);
  }
}

// validateResourceName / validateContainerResourceName on names that are not
// qualified names or not extended-resource names. A ResourceName BadValue is
// not a Go string, so it is rendered with encoding/json.
TEST(ValidateResourcesTest, ResourceNames) {
  const std::string lim = "spec.containers[0].resources.limits";
  const std::string long_prefix = std::string(250, 'a');
  RunResourcesCases({
      // validateContainerResourceName adds its own error after
      // validateResourceName's: "requests.<name>" is no qualified name either.
      {"too many slashes", {}, RL({{"a/b/c", "1"}}),
       {lim + "[a/b/c]: Invalid value: \"a/b/c\": " + kTooManySlashes,
        lim + "[a/b/c]: Invalid value: \"a/b/c\": doesn't follow extended resource name standard"}},
      {"uppercase prefix", {}, RL({{"Example.com/a", "1"}}),
       {lim + "[Example.com/a]: Invalid value: \"Example.com/a\": prefix part " + kSubdomainRegex,
        lim + "[Example.com/a]: Invalid value: \"Example.com/a\": doesn't follow extended resource name standard"}},
      {"JSON rendering of the name", {}, RL({{"a<b", "1"}}),
       {lim + "[a<b]: Invalid value: \"a\\u003cb\": " + kNamePartRegex,
        lim + "[a<b]: Invalid value: \"a\\u003cb\": must be a standard resource for containers"}},
      // A qualified name whose quota form "requests.<name>" is not: its prefix
      // grows past 253 bytes, so it is not an extended resource.
      {"not an extended resource name", {}, RL({{long_prefix + "/foo", "1"}}),
       {lim + "[" + long_prefix + "/foo]: Invalid value: \"" + long_prefix +
        "/foo\": doesn't follow extended resource name standard"}},
      {"requests. prefix is a quota name", {}, RL({{"requests.example.com/a", "1"}}),
       {lim + "[requests.example.com/a]: Invalid value: \"requests.example.com/a\": doesn't follow extended "
              "resource name standard"}},
      {"kubernetes.io prefixed native resource", {}, RL({{"kubernetes.io/foo", "1"}}), {}},
      {"standard but not for containers", {}, RL({{"pods", "1"}}),
       {lim + "[pods]: Invalid value: \"pods\": must be a standard resource for containers"}},
  });
}

// validateOverhead: ValidateContainerResourceRequirements on
// ResourceRequirements{Limits: overhead} under spec.overhead.
TEST(ValidateResourcesTest, Overhead) {
  struct Case {
    const char* name;
    ResourceList overhead;
    Strings expect;
  };
  const Case cases[] = {
      {"valid", RL({{"cpu", "250m"}, {"memory", "120Mi"}}), {}},
      {"negative cpu", RL({{"cpu", "-1"}}),
       {"spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"}},
      {"pods is not a container resource", RL({{"pods", "1"}}),
       {"spec.overhead.limits[pods]: Invalid value: \"pods\": must be a standard resource for containers"}},
      {"fractional extended resource", RL({{"example.com/a", "1.5"}}),
       {"spec.overhead.limits[example.com/a]: Invalid value: \"1500m\": must be an integer"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.overhead = c.overhead;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

}  // namespace
}  // namespace gpusched
