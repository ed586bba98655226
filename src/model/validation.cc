// API-server defaulting and validation of the two kinds gpusched reads
// itself, Pods and Nodes (pkg/apis/core/validation/validation.go:
// ValidatePodSpec in upstream's field order, validateNodeTaints,
// ValidateNodeResources; pkg/apis/core/v1/defaults.go SetDefaults_Pod). What
// they share with other objects has its own file: field errors
// (field_error.cc), names (name_validation.cc), metadata
// (object_meta_validation.cc), resources (resource_validation.cc). Pods and
// Nodes stay together because the toleration and taint checks share the
// taint effects and the label-value message, and each kind is one walk in
// upstream's order.
#include "gpusched/model/validation.h"

#include "gpusched/model/volume_validation.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/container_port_validation.h"
#include "gpusched/model/gang.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/model/host_ports.h"
#include "gpusched/model/object_meta_validation.h"
#include "gpusched/model/pod_level_resources.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/model/resource_validation.h"
#include "gpusched/model/scheduling_gates.h"

namespace gpusched {
namespace {

void ValidateResourceRequirements(const ResourceList& limits, const ResourceList& requests, const std::string& path,
                                  std::vector<FieldError>& errs) {
  ValidateResourceRequirementsWith(limits, requests, path, ValidateContainerResourceName, errs);
}

// validateContainerCommon, reduced to the fields the model keeps.
void ValidateContainerCommon(const Container& c, const std::vector<ContainerPort>& ports, const std::string& p,
                             std::vector<FieldError>& errs) {
  if (c.name.empty()) {
    errs.push_back(FieldError::Required(p + ".name", ""));
  } else {
    for (const auto& msg : IsDNS1123Label(c.name)) errs.push_back(FieldError::Invalid(p + ".name", c.name, msg));
  }
  if (c.image.empty()) errs.push_back(FieldError::Required(p + ".image", ""));
  ValidateContainerPorts(ports, p + ".ports", errs);
  ValidateResourceRequirements(c.limits, c.requests, p + ".resources", errs);
}

// validateContainers. An empty restart_policy stands for an unset one.
void ValidateContainers(const Pod& pod, const std::vector<Container>& cs, const std::string& path,
                        std::vector<FieldError>& errs) {
  if (cs.empty()) {
    errs.push_back(FieldError::Required(path, ""));
    return;
  }
  std::set<std::string> all_names;
  for (size_t i = 0; i < cs.size(); ++i) {
    const Container& c = cs[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ValidateContainerCommon(c, PortsOf(pod, /*init=*/false, i), p, errs);
    if (!all_names.insert(c.name).second) errs.push_back(FieldError::Duplicate(p + ".name", c.name));
    // A regular container's own restartPolicy was Forbidden ("may not be set
    // for non-init containers") until ContainerRestartRules, beta and on by
    // default since v1.35 (pkg/features/kube_features.go), allowed it with
    // the ContainerRestartPolicy values (k8s.io/api core/v1 types.go). The
    // scheduler's resource accounting does not depend on it.
    if (!c.restart_policy.empty() && c.restart_policy != "Always" && c.restart_policy != "Never" &&
        c.restart_policy != "OnFailure")
      errs.push_back(FieldError::NotSupportedJson(p + ".restartPolicy", c.restart_policy, {"Always", "Never", "OnFailure"}));
  }
  CheckHostPortConflicts(pod, path, errs);  // across the regular containers
}

// validateInitContainers: names must be unique across regular and init containers.
void ValidateInitContainers(const Pod& pod, const std::vector<Container>& cs, const std::vector<Container>& regular,
                            const std::string& path, std::vector<FieldError>& errs) {
  std::set<std::string> all_names;
  for (const auto& c : regular) all_names.insert(c.name);
  for (size_t i = 0; i < cs.size(); ++i) {
    const Container& c = cs[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ValidateContainerCommon(c, PortsOf(pod, /*init=*/true, i), p, errs);
    // Always makes it a sidecar. Never and OnFailure were "Unsupported
    // value" (only "Always") until ContainerRestartRules, on by default
    // since v1.35, let a regular init container override the Pod's policy
    // too (KEP-5307; pod-lifecycle "Individual container restart policy and
    // rules"). It stays a regular init container for resource accounting.
    if (!c.restart_policy.empty() && c.restart_policy != "Always" && c.restart_policy != "Never" &&
        c.restart_policy != "OnFailure")
      errs.push_back(FieldError::NotSupportedJson(p + ".restartPolicy", c.restart_policy, {"Always", "Never", "OnFailure"}));
    if (all_names.count(c.name)) {
      errs.push_back(FieldError::Duplicate(p + ".name", c.name));
    } else if (!c.name.empty()) {
      all_names.insert(c.name);
    }
  }
}

// validateContainersOnlyForPod.
void ValidateContainersOnlyForPod(const std::vector<Container>& cs, const std::string& path,
                                  std::vector<FieldError>& errs) {
  auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'; };
  for (size_t i = 0; i < cs.size(); ++i) {
    const std::string& img = cs[i].image;
    if (!img.empty() && (space(img.front()) || space(img.back())))
      errs.push_back(FieldError::Invalid(path + "[" + std::to_string(i) + "].image", img,
                                         "must not have leading or trailing whitespace"));
  }
}

const std::vector<std::string> kTaintEffects = {kTaintEffectNoSchedule, kTaintEffectPreferNoSchedule,
                                                kTaintEffectNoExecute};
bool IsTaintEffect(const std::string& e) {
  return e == kTaintEffectNoSchedule || e == kTaintEffectPreferNoSchedule || e == kTaintEffectNoExecute;
}

// The internal core.Taint as encoding/json renders it (the internal type has
// no json tags, so the Go field names are used).
std::string TaintJson(const Taint& t) {
  return "{\"Key\":" + JsonQuote(t.key) + ",\"Value\":" + JsonQuote(t.value) + ",\"Effect\":" + JsonQuote(t.effect) +
         ",\"TimeAdded\":null}";
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? std::string(sep) : "") + parts[i];
  return s;
}

}  // namespace

void DefaultPod(Pod& pod) {
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  // SetDefaults_Pod: a limit with no request becomes the request, for
  // containers and init containers.
  auto default_requests = [](std::vector<Container>& cs) {
    for (auto& c : cs)
      for (const auto& [name, q] : c.limits)
        if (!c.requests.count(name)) c.requests.emplace(name, q);
  };
  default_requests(pod.containers);
  default_requests(pod.init_containers);
  DefaultPodPorts(pod);  // protocol TCP; hostPort from containerPort with hostNetwork
  // Pod-level defaults come after the containers' (SetDefaults_Pod).
  DefaultPodLevelResources(pod);
}

std::vector<FieldError> ValidatePod(const Pod& pod, std::string_view spec_path, bool validate_meta) {
  // validatePodMetadataAndSpec: ValidateObjectMeta, then ValidatePodSpec in
  // upstream's field order (for the fields the model keeps), then the checks
  // made only for Pods, not for pod templates.
  std::vector<FieldError> errs;
  if (validate_meta) ValidateObjectMeta(pod.meta, /*namespaced=*/true, errs);
  const std::string spec(spec_path);
  // ValidatePodSpec's order: resource claims, containers, init containers,
  // pod-level resources (validatePodResources).
  ValidatePodVolumes(pod.Extras().volumes, spec + ".volumes", errs);  // ValidateVolumes comes first
  ValidatePodResourceClaims(pod, spec, errs);
  ValidateContainers(pod, pod.containers, spec + ".containers", errs);
  ValidateInitContainers(pod, pod.init_containers, pod.containers, spec + ".initContainers", errs);
  ValidatePodHostNetworkDeps(pod, spec, errs);
  ValidatePodLevelResources(pod, spec + ".resources", errs);
  ValidateLabels(pod.node_selector, spec + ".nodeSelector", errs);
  if (!pod.node_name.empty())
    for (const auto& m : IsDNS1123Subdomain(pod.node_name))
      errs.push_back(FieldError::Invalid(spec + ".nodeName", pod.node_name, m));
  // ValidateTolerations.
  for (size_t i = 0; i < pod.tolerations.size(); ++i) {
    const Toleration& t = pod.tolerations[i];
    const std::string p = spec + ".tolerations[" + std::to_string(i) + "]";
    if (!t.key.empty()) ValidateLabelName(t.key, p + ".key", errs);
    // An empty key only makes sense with Exists ("match all").
    if (t.key.empty() && t.op != "Exists")
      errs.push_back(FieldError::InvalidJson(p + ".operator", t.op,
                                 "operator must be Exists when `key` is empty, which means \"match all values and "
                                 "all keys\""));
    if (t.op.empty() || t.op == "Equal") {
      std::vector<std::string> v = IsValidLabelValue(t.value);
      if (!v.empty()) errs.push_back(FieldError::Invalid(p + ".operator", t.value, Join(v, ";")));
    } else if (t.op == "Exists") {
      if (!t.value.empty())
        errs.push_back(FieldError::Invalid(p + ".operator", t.value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push_back(FieldError::NotSupportedJson(p + ".operator", t.op, {"Equal", "Exists"}));
    }
    if (!t.effect.empty() && !IsTaintEffect(t.effect))
      errs.push_back(FieldError::NotSupportedJson(p + ".effect", t.effect, kTaintEffects));
  }
  if (pod.node_affinity) ValidateNodeAffinity(*pod.node_affinity, spec + ".affinity.nodeAffinity", errs);
  if (pod.pod_affinity) ValidatePodAffinity(*pod.pod_affinity, spec + ".affinity", errs);
  ValidateSchedulingGates(pod.Extras().scheduling_gates, spec + ".schedulingGates", errs);
  ValidateTopologySpreadConstraints(pod.Extras().topology_spread_constraints, spec + ".topologySpreadConstraints",
                                    errs);
  ValidateGangPodFields(pod, spec, errs);  // workloadRef, schedulingGroup
  if (!pod.priority_class_name.empty())
    for (const auto& m : IsDNS1123Subdomain(pod.priority_class_name))
      errs.push_back(FieldError::Invalid(spec + ".priorityClassName", pod.priority_class_name, m));
  if (!pod.preemption_policy.empty() && pod.preemption_policy != "Never" &&
      pod.preemption_policy != "PreemptLowerPriority")
    errs.push_back(FieldError::NotSupportedJson(spec + ".preemptionPolicy", pod.preemption_policy, {"PreemptLowerPriority", "Never"}));
  // validateOverhead reuses the container resource-requirements checks on
  // ResourceRequirements{Limits: overhead}.
  if (!pod.overhead.empty()) ValidateResourceRequirements(pod.overhead, {}, spec + ".overhead", errs);
  // gpusched's own check (not the API server's): GPU-share annotations must
  // be well formed, since a scheduler reads them as a request.
  std::string meta = spec.size() >= 4 && spec.compare(spec.size() - 4, 4, "spec") == 0
                         ? spec.substr(0, spec.size() - 4) + "metadata"
                         : "metadata";
  for (FieldError& e : ValidateGpuAnnotations(pod, meta)) errs.push_back(std::move(e));
  if (validate_meta) {
    ValidateContainersOnlyForPod(pod.containers, spec + ".containers", errs);
    ValidateContainersOnlyForPod(pod.init_containers, spec + ".initContainers", errs);
    ValidateGatedNodeName(pod, spec, errs);  // ValidatePodCreate
  }
  return errs;
}

std::vector<FieldError> ValidateNode(const Node& node) {
  std::vector<FieldError> errs;
  ValidateObjectMeta(node.meta, /*namespaced=*/false, errs);
  // validateNodeTaints. Upstream passes fldPath "metadata" + "taints", so
  // the errors read metadata.taints[i], not spec.taints[i].
  std::map<std::string, std::set<std::string>> unique;  // effect -> keys
  for (size_t i = 0; i < node.taints.size(); ++i) {
    const Taint& t = node.taints[i];
    const std::string p = "metadata.taints[" + std::to_string(i) + "]";
    ValidateLabelName(t.key, p + ".key", errs);
    std::vector<std::string> v = IsValidLabelValue(t.value);
    if (!v.empty()) errs.push_back(FieldError::Invalid(p + ".value", t.value, Join(v, ";")));
    if (t.effect.empty()) {
      errs.push_back(FieldError::Required(p + ".effect", ""));
    } else if (!IsTaintEffect(t.effect)) {
      errs.push_back(FieldError::NotSupportedJson(p + ".effect", t.effect, kTaintEffects));
    }
    if (!unique[t.effect].insert(t.key).second)
      errs.push_back(FieldError{FieldError::Type::kDuplicate, p, TaintJson(t),
                                "taints must be unique by key and effect pair"});
  }
  // ValidateNodeResources: quantities only, at field.NewPath("status",
  // "capacity", name) -- a child, not a [key]. Allocatable is checked after
  // defaulting, so a node without one checks its capacity twice.
  for (const auto& [name, q] : node.capacity) ValidateResourceQuantityValue(name, q, "status.capacity." + name, errs);
  for (const auto& [name, q] : node.EffectiveAllocatable())
    ValidateResourceQuantityValue(name, q, "status.allocatable." + name, errs);
  return errs;
}

}  // namespace gpusched
