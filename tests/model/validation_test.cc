// Tests for gpusched's API-server defaulting and validation of Pods and Nodes
// (src/model/validation.cc) and the kubectl message they end up in. The
// checks of field_error.cc, name_validation.cc, resource_validation.cc and
// object_meta_validation.cc have their own test files.
//
// Upstream sources (Kubernetes v1.35, the release gpusched follows):
//   github.com/kubernetes/apimachinery at tag kubernetes-1.35.0
//   (72d71eac265e06713c6d83d7034aac609450243f):
//     pkg/util/validation/field/errors.go, errors_test.go (TestErrorFormatting)
//     pkg/util/validation/field/path.go (Path.String)
//     pkg/util/validation/validation.go, validation_test.go (DNS-1123 names)
//     pkg/api/validate/content/kube.go, errors.go, kube_test.go (label keys
//       and values: IsQualifiedName and IsValidLabelValue alias these)
//     pkg/api/validation/objectmeta.go, generic.go (ValidateObjectMeta)
//   github.com/kubernetes/kubectl at dee3483a3d6a64c07fdf746caf80af446dee99ac:
//     pkg/cmd/util/helpers.go (checkErr, statusCausesToAggrError, MultilineError)
//   github.com/kubernetes/kubernetes (stored copy at commit
//   000f26050b9be6fb3d79fae95e06b47fc96128cd):
//     pkg/apis/core/validation/validation.go (validateResourceRequirements,
//       ValidateResourceQuantityValue, validateResourceName,
//       validateContainerResourceName, validateContainers,
//       validateInitContainers, ValidateTolerations, ValidatePreemptionPolicy,
//       validateNodeTaints, ValidateNode, ValidateNodeResources)
//     pkg/apis/core/validation/validation_test.go (TestValidateContainers,
//       TestValidateInitContainers, TestValidatePod, TestValidateResourceRequirements)
//     pkg/apis/core/v1/defaults.go (SetDefaults_Pod)
//
// Most upstream tables only assert the error type and field (or that there
// is an error at all); the exact messages below are what upstream's code
// builds for those inputs, read from the functions named above. Go iterates
// resource maps in random order; gpusched iterates them sorted by name, so
#include "gpusched/model/validation.h"

#include <gtest/gtest.h>

#include "model_test_util.h"
#include "validation_test_util.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"
#include "gpusched/model/quantity.h"

namespace gpusched {
namespace {

using namespace validationtest;
using testing::Q;
using testing::RL;

// --- defaulting ---------------------------------------------------------

// defaults.go SetDefaults_Pod: a limit without a request becomes the request
// (containers and init containers); an explicit request is kept. The
// namespace default is the request namespace kubectl sends ("default").
TEST(DefaultPodTest, RequestsFromLimitsAndNamespace) {
  Pod p;
  p.meta.name = "x";
  p.containers.push_back(MakeContainer("a", RL({{"cpu", "250m"}}), RL({{"cpu", "1"}, {"nvidia.com/gpu", "2"}})));
  p.init_containers.push_back(MakeContainer("i", {}, RL({{"memory", "1Gi"}})));
  DefaultPod(p);
  EXPECT_EQ(p.meta.namespace_, "default");
  ASSERT_EQ(p.containers[0].requests.size(), 2u);
  EXPECT_EQ(p.containers[0].requests.at("cpu").String(), "250m");
  EXPECT_EQ(p.containers[0].requests.at("nvidia.com/gpu").String(), "2");
  ASSERT_EQ(p.init_containers[0].requests.size(), 1u);
  EXPECT_EQ(p.init_containers[0].requests.at("memory").String(), "1Gi");

  Pod q = MakePod();
  DefaultPod(q);
  EXPECT_EQ(q.meta.namespace_, "ns");
  EXPECT_TRUE(q.containers[0].requests.empty());
}

// --- containers -----------------------------------------------------------

// validation_test.go TestValidateContainers and TestValidateInitContainers
// error cases (upstream asserts type and field; BadValue from the code).
// gpusched keeps an unset restartPolicy as "", so upstream's "empty
// RestartPolicy" cases have no equivalent here.
TEST(ValidateContainersTest, UpstreamErrorCases) {
  struct Case {
    const char* name;
    std::vector<Container> containers;
    std::vector<Container> init_containers;
    Strings expect;
  };
  const std::vector<Container> app = {MakeContainer("app")};
  const std::vector<Case> cases = {
      {"zero-length name", {Container{"", "image", {}, {}, "", {}}}, {}, {"spec.containers[0].name: Required value"}},
      {"zero-length-image", {Container{"abc", "", {}, {}, "", {}}}, {}, {"spec.containers[0].image: Required value"}},
      {"name > 63 characters", {MakeContainer(std::string(64, 'a'))}, {},
       {"spec.containers[0].name: Invalid value: \"" + std::string(64, 'a') + "\": must be no more than 63 characters"}},
      {"name not a DNS label", {MakeContainer("a.b.c")}, {},
       {"spec.containers[0].name: Invalid value: \"a.b.c\": " + kDots}},
      {"name not unique", {MakeContainer("abc"), MakeContainer("abc")}, {},
       {"spec.containers[1].name: Duplicate value: \"abc\""}},
      // Upstream's table has these Forbidden with ContainerRestartRules off;
      // v1.35 turns the gate on by default, and they are valid.
      {"RestartPolicy: Always (ContainerRestartRules)", {MakeContainer("foo", {}, {}, "Always")}, {}, {}},
      {"RestartPolicy: OnFailure (ContainerRestartRules)", {MakeContainer("foo", {}, {}, "OnFailure")}, {}, {}},
      {"RestartPolicy: Never (ContainerRestartRules)", {MakeContainer("foo", {}, {}, "Never")}, {}, {}},
      {"RestartPolicy: a value that is none of them", {MakeContainer("foo", {}, {}, "Sometimes")}, {},
       {"spec.containers[0].restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
        "\"Never\", \"OnFailure\""}},
      {"no containers", {}, {}, {"spec.containers: Required value"}},
      {"init: empty name", app, {Container{"", "image", {}, {}, "", {}}}, {"spec.initContainers[0].name: Required value"}},
      {"init: name collision with regular container", app, {MakeContainer("app")},
       {"spec.initContainers[0].name: Duplicate value: \"app\""}},
      {"init: duplicate names", app, {MakeContainer("init"), MakeContainer("init")},
       {"spec.initContainers[1].name: Duplicate value: \"init\""}},
      // Upstream's gate-off cases (Unsupported, only "Always"); valid with
      // ContainerRestartRules, on by default in v1.35.
      {"init: RestartPolicy OnFailure (ContainerRestartRules)", app, {MakeContainer("init", {}, {}, "OnFailure")}, {}},
      {"init: RestartPolicy Never (ContainerRestartRules)", app, {MakeContainer("init", {}, {}, "Never")}, {}},
      {"init: RestartPolicy none of them", app, {MakeContainer("init", {}, {}, "Sometimes")},
       {"spec.initContainers[0].restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
        "\"Never\", \"OnFailure\""}},
      {"init: restartPolicy Always is a sidecar", app, {MakeContainer("sidecar", {}, {}, "Always")}, {}},
      // Order within one container: name, image, resources, then the
      // duplicate check (validateContainerCommon runs first).
      {"errors in upstream order", {MakeContainer("abc"), Container{"abc", "", {}, RL({{"cpu", "-1"}}), "", {}}}, {},
       {"spec.containers[1].image: Required value",
        "spec.containers[1].resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
        "spec.containers[1].name: Duplicate value: \"abc\""}},
      {"fractional extended resource in init container request", app,
       {MakeContainer("invalid", RL({{"example.com/a", "500m"}}))},
       {"spec.initContainers[0].resources.requests[example.com/a]: Invalid value: \"500m\": must be an integer",
        "spec.initContainers[0].resources.limits: Required value: " + kLimitMustBeSet}},
      {"fractional extended resource in init container limit", app,
       {MakeContainer("invalid", RL({{"example.com/a", "2.5"}}), RL({{"example.com/a", "2.5"}}))},
       {"spec.initContainers[0].resources.limits[example.com/a]: Invalid value: \"2500m\": must be an integer",
        "spec.initContainers[0].resources.requests[example.com/a]: Invalid value: \"2500m\": must be an integer"}},
      {"valid extended resources for init container", app,
       {MakeContainer("valid-extended", RL({{"example.com/a", "10"}}), RL({{"example.com/a", "10"}}))}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    p.containers = c.containers;
    p.init_containers = c.init_containers;
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// validation_test.go TestValidatePod "image whitespace" cases:
// validateContainersOnlyForPod runs for Pods, not for pod templates.
TEST(ValidateContainersTest, ImageWhitespaceOnlyForPods) {
  for (const char* image : {" ", " something "}) {
    SCOPED_TRACE(image);
    Pod p = MakePod();
    p.containers[0].image = image;
    EXPECT_EQ(Messages(ValidatePod(p)),
              Strings({"spec.containers[0].image: Invalid value: \"" + std::string(image) +
                       "\": must not have leading or trailing whitespace"}));
    EXPECT_TRUE(ValidatePod(p, "spec.template.spec", /*validate_meta=*/false).empty());
  }
}

// --- the rest of the pod spec -------------------------------------------

// ValidateTolerations (validation.go), with the TestValidatePod toleration
// success cases. Lt/Gt (TaintTolerationComparisonOperators, alpha in v1.35,
// off by default) get the operator's NotSupported error.
TEST(ValidatePodSpecTest, Tolerations) {
  struct Case {
    const char* name;
    Toleration t;
    Strings expect;
  };
  const std::string p = "spec.tolerations[0]";
  const std::vector<Case> cases = {
      {"key, value and effect", {"foo", "", "bar", "NoSchedule"}, {}},
      {"empty effect matches all effects", {"foo", "Equal", "bar", ""}, {}},
      {"Exists with NoExecute", {"node.kubernetes.io/not-ready", "Exists", "", "NoExecute"}, {}},
      {"empty key with Exists matches everything", {"", "Exists", "", ""}, {}},
      {"GPU taint toleration", {"nvidia.com/gpu", "Exists", "", "NoSchedule"}, {}},
      {"empty key needs Exists", {"", "", "", ""}, {p + ".operator: Invalid value: \"\": " + kEmptyKeyOperator}},
      {"empty key with Equal", {"", "Equal", "bar", ""},
       {p + ".operator: Invalid value: \"Equal\": " + kEmptyKeyOperator}},
      {"Exists with a value", {"foo", "Exists", "bar", ""},
       {p + ".operator: Invalid value: \"bar\": value must be empty when `operator` is 'Exists'"}},
      {"value not a label value", {"foo", "Equal", "bar!", ""},
       {p + ".operator: Invalid value: \"bar!\": " + kLabelValueRegex}},
      {"unsupported operator", {"foo", "In", "bar", ""},
       {p + ".operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\""}},
      {"Gt without its feature gate", {"node.kubernetes.io/sla", "Gt", "950", "NoSchedule"},
       {p + ".operator: Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\""}},
      {"unsupported effect", {"foo", "Exists", "", "NoScheduleNoAdmit"},
       {p + ".effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: \"NoSchedule\", "
            "\"PreferNoSchedule\", \"NoExecute\""}},
      {"bad key", {"nospecialchars%^=@", "Exists", "", ""}, {p + ".key: Invalid value: \"nospecialchars%^=@\": " + kNamePartRegex}},
      {"empty key, bad operator, bad effect: all reported in order", {"", "In", "", "Bogus"},
       {p + ".operator: Invalid value: \"In\": " + kEmptyKeyOperator,
        p + ".operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
        p + ".effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", "
            "\"NoExecute\""}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod pod = MakePod();
    pod.tolerations = {c.t};
    EXPECT_EQ(Messages(ValidatePod(pod)), c.expect);
  }
}

// ValidatePodSpec's checks of nodeSelector (ValidateLabels at the map's
// path), nodeName (ValidateNodeName), priorityClassName
// (ValidatePriorityClassName) and preemptionPolicy (ValidatePreemptionPolicy,
// whose supported values are listed PreemptLowerPriority first).
TEST(ValidatePodSpecTest, SchedulingFields) {
  struct Case {
    const char* name;
    void (*set)(Pod&);
    Strings expect;
  };
  const std::vector<Case> cases = {
      {"valid", [](Pod& p) {
         p.node_selector["kubernetes.io/hostname"] = "gpu-0";
         p.node_name = "gpu-0.example.com";
         p.priority_class_name = "high-priority";
         p.preemption_policy = "Never";
       }, {}},
      {"bad node selector value", [](Pod& p) { p.node_selector["accelerator"] = "nvidia a100"; },
       {"spec.nodeSelector: Invalid value: \"nvidia a100\": " + kLabelValueRegex}},
      {"bad node selector key", [](Pod& p) { p.node_selector["a/b/c"] = "x"; },
       {"spec.nodeSelector: Invalid value: \"a/b/c\": " + kTooManySlashes}},
      {"bad node name", [](Pod& p) { p.node_name = "Node_1"; },
       {"spec.nodeName: Invalid value: \"Node_1\": " + kSubdomainRegex}},
      {"bad priority class name", [](Pod& p) { p.priority_class_name = "High"; },
       {"spec.priorityClassName: Invalid value: \"High\": " + kSubdomainRegex}},
      {"bad preemption policy", [](Pod& p) { p.preemption_policy = "Sometimes"; },
       {"spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", "
        "\"Never\""}},
      // ValidatePodSpec order: containers, initContainers, nodeSelector,
      // nodeName, tolerations, priorityClassName, preemptionPolicy, overhead.
      {"spec order", [](Pod& p) {
         p.overhead = RL({{"cpu", "-1"}});
         p.preemption_policy = "Sometimes";
         p.priority_class_name = "High";
         p.tolerations = {Toleration{"foo", "In", "", ""}};
         p.node_name = "Node_1";
         p.node_selector["a"] = "-";
         p.init_containers = {Container{"", "image", {}, {}, "", {}}};
         p.containers[0].image = "";
       }, {"spec.containers[0].image: Required value", "spec.initContainers[0].name: Required value",
           "spec.nodeSelector: Invalid value: \"-\": " + kLabelValueRegex,
           "spec.nodeName: Invalid value: \"Node_1\": " + kSubdomainRegex,
           "spec.tolerations[0].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"",
           "spec.priorityClassName: Invalid value: \"High\": " + kSubdomainRegex,
           "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", "
           "\"Never\"",
           "spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Pod p = MakePod();
    c.set(p);
    EXPECT_EQ(Messages(ValidatePod(p)), c.expect);
  }
}

// A workload template is validated at its own spec path.
TEST(ValidatePodSpecTest, TemplateSpecPath) {
  Pod p = MakePod("");
  p.containers[0].limits = RL({{"nvidia.com/gpu", "1.5"}});
  EXPECT_EQ(Messages(ValidatePod(p, "spec.template.spec", /*validate_meta=*/false)),
            Strings({"spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"1500m\": "
                     "must be an integer"}));
}

// --- nodes --------------------------------------------------------------

// ValidateNode: ValidateObjectMeta (not namespaced), validateNodeTaints at
// fldPath "metadata"+"taints" (so metadata.taints[i], as upstream reports it),
// ValidateNodeResources at field.NewPath("status", "capacity", name) --
// which Path.String() prints as "status.capacity.<name>" -- with only the
// quantity checked, not the name. The duplicate-taint BadValue is the
// internal core.Taint, which has no json tags.
TEST(ValidateNodeTest, UpstreamChecks) {
  struct Case {
    const char* name;
    void (*set)(Node&);
    Strings expect;
  };
  const std::vector<Case> cases = {
      {"valid GPU node", [](Node& n) {
         n.capacity = RL({{"cpu", "64"}, {"memory", "512Gi"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}});
         n.allocatable = RL({{"cpu", "63500m"}, {"memory", "500Gi"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}});
         n.has_allocatable = true;
         n.taints = {Taint{"nvidia.com/gpu", "present", "NoSchedule"}, Taint{"nvidia.com/gpu", "present", "NoExecute"}};
       }, {}},
      {"missing name", [](Node& n) { n.meta.name = ""; },
       {"metadata.name: Required value: name or generateName is required"}},
      {"bad name", [](Node& n) { n.meta.name = "GPU_0"; }, {"metadata.name: Invalid value: \"GPU_0\": " + kSubdomainRegex}},
      {"namespace not allowed", [](Node& n) { n.meta.namespace_ = "default"; },
       {"metadata.namespace: Forbidden: not allowed on this type"}},
      {"taint with no key and no effect", [](Node& n) { n.taints = {Taint{"", "", ""}}; },
       {"metadata.taints[0].key: Invalid value: \"\": name part must be non-empty",
        "metadata.taints[0].key: Invalid value: \"\": " + kNamePartRegex, "metadata.taints[0].effect: Required value"}},
      {"taint with a bad value", [](Node& n) { n.taints = {Taint{"dedicated", "ml team", "NoSchedule"}}; },
       {"metadata.taints[0].value: Invalid value: \"ml team\": " + kLabelValueRegex}},
      {"taint with an unsupported effect", [](Node& n) { n.taints = {Taint{"dedicated", "ml", "NoScheduleNoAdmit"}}; },
       {"metadata.taints[0].effect: Unsupported value: \"NoScheduleNoAdmit\": supported values: \"NoSchedule\", "
        "\"PreferNoSchedule\", \"NoExecute\""}},
      {"duplicate taint key and effect", [](Node& n) {
         n.taints = {Taint{"gpu", "a", "NoSchedule"}, Taint{"gpu", "b", "NoExecute"}, Taint{"gpu", "b", "NoSchedule"}};
       }, {"metadata.taints[2]: Duplicate value: {\"Key\":\"gpu\",\"Value\":\"b\",\"Effect\":\"NoSchedule\","
           "\"TimeAdded\":null}: taints must be unique by key and effect pair"}},
      {"fractional GPU allocatable", [](Node& n) {
         n.allocatable = RL({{"nvidia.com/gpu", "1500m"}, {"pods", "110"}});
         n.has_allocatable = true;
       }, {"status.allocatable.nvidia.com/gpu: Invalid value: \"1500m\": must be an integer"}},
      // SetDefaults_NodeStatus copies capacity into a missing allocatable
      // before validation, so both are reported.
      {"fractional GPU capacity, allocatable defaulted from it",
       [](Node& n) { n.capacity = RL({{"nvidia.com/gpu", "0.5"}}); },
       {"status.capacity.nvidia.com/gpu: Invalid value: \"500m\": must be an integer",
        "status.allocatable.nvidia.com/gpu: Invalid value: \"500m\": must be an integer"}},
      {"negative cpu and fractional pods", [](Node& n) {
         n.capacity = RL({{"cpu", "-1"}, {"pods", "110.5"}});
         n.allocatable = RL({{"cpu", "1"}});
         n.has_allocatable = true;
       }, {"status.capacity.cpu: Invalid value: \"-1\": must be greater than or equal to 0",
           "status.capacity.pods: Invalid value: \"110500m\": must be an integer"}},
      {"resource names are not checked on nodes", [](Node& n) {
         n.capacity = RL({{"gpu", "1"}, {"Example.com/x", "1"}});
       }, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Node n = MakeNode();
    c.set(n);
    EXPECT_EQ(Messages(ValidateNode(n)), c.expect);
  }
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// ValidatePod runs the gate, pod-level resource and claim checks in ValidatePodSpec's order (resource
// claims, containers, pod-level resources, ..., scheduling gates) and
// ValidatePodCreate's gated-nodeName rule for Pods only.
TEST(ValidatePodIssue12Test, GatesClaimsAndPodLevelResources) {
  Pod p;
  p.meta.name = "p";
  p.meta.namespace_ = "ns";
  p.node_name = "node-1";
  p.containers.push_back(Container{"ctr", "image", {}, {}, "", {ContainerClaim{"gpu", ""}}});
  auto e = std::make_shared<PodSpecExtras>();
  e->scheduling_gates = {"foo", "foo"};
  e->resource_claims = {PodResourceClaim{"gpu", "", "", "", false}};
  ResourceList pod_req;
  pod_req.emplace("ephemeral-storage", *Quantity::Parse("1Gi"));
  e->resources = PodLevelResources{pod_req, {}, false};
  p.extras = e;
  std::vector<std::string> want = {
      "spec.resourceClaims[0]: Invalid value: {\"name\":\"gpu\"}: must specify one of: `resourceClaimName`, "
      "`resourceClaimTemplateName`",
      "spec.resources.requests[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported values: "
      "\"cpu\", \"hugepages-\", \"memory\"",
      "spec.schedulingGates[1]: Duplicate value: \"foo\"",
      "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared",
  };
  std::vector<std::string> got;
  for (const auto& err : ValidatePod(p)) got.push_back(err.ToString());
  EXPECT_EQ(got, want);
  // A template has no nodeName rule (ValidatePodCreate is for Pods).
  got.clear();
  for (const auto& err : ValidatePod(p, "spec.template.spec", false)) got.push_back(err.ToString());
  EXPECT_EQ(got.size(), 3u);
}

TEST(ValidatePodIssue12Test, DefaultPodFillsPodLevelRequests) {
  Pod p;
  p.meta.name = "p";
  ResourceList lim;
  lim.emplace("memory", *Quantity::Parse("1Gi"));
  p.containers.push_back(Container{"ctr", "image", {}, lim, "", {}});
  auto e = std::make_shared<PodSpecExtras>();
  ResourceList pod_lim;
  pod_lim.emplace("memory", *Quantity::Parse("2Gi"));
  e->resources = PodLevelResources{{}, pod_lim, false};
  p.extras = e;
  DefaultPod(p);
  // Containers first (request = limit 1Gi), then the pod: its request is
  // the containers' aggregate, not its limit.
  EXPECT_EQ(p.Extras().resources->requests.at("memory").String(), "1Gi");
}

}  // namespace
}  // namespace gpusched
