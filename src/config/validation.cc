// Validation of KubeSchedulerConfiguration
// (pkg/scheduler/apis/config/validation/validation.go and
// validation_pluginargs.go), with upstream's messages and field paths, and
// BadValues rendered as k8s.io/apimachinery field.Error renders them: int32
// and int64 with %v, Go strings with %q, anything else (a *field.Path, a
// PluginSet, a typed string such as ScoringStrategyType) with encoding/json.
#include <map>
#include <set>

#include "gpusched/config/plugin_names.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/model/object_meta_validation.h"
#include "gpusched/model/resources.h"

namespace gpusched {
namespace {

constexpr const char* kApiVersion = "kubescheduler.config.k8s.io/v1";

std::string Idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

FieldError InvalidInt(std::string field, int64_t value, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), std::to_string(value), std::move(detail)};
}

// invalidPluginsByVersion for kubescheduler.config.k8s.io/v1.
bool IsPluginInvalid(const std::string& name) {
  return name == "AzureDiskLimits" || name == "CinderLimits" || name == "EBSLimits" || name == "GCEPDLimits";
}

std::string InvalidPluginDetail() {
  return std::string("was invalid in version ") + GoQuote(kApiVersion) + " (KubeSchedulerConfiguration is version " +
         GoQuote(kApiVersion) + ")";
}

void ValidatePercentage(const std::string& path, const std::optional<int32_t>& pct, std::vector<FieldError>& errs) {
  if (pct && (*pct < 0 || *pct > 100)) errs.push_back(InvalidInt(path, *pct, "not in valid range [0-100]"));
}

// validateFunctionShape.
void ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape, const std::string& path,
                           std::vector<FieldError>& errs) {
  if (shape.empty()) {
    errs.push_back(FieldError::Required(path, "at least one point must be specified"));
    return;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.push_back(InvalidInt(Idx(path, i) + ".utilization", shape[i].utilization,
                                "values must be sorted in increasing order"));
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i].utilization < 0 || shape[i].utilization > 100)
      errs.push_back(InvalidInt(Idx(path, i) + ".utilization", shape[i].utilization, "not in valid range [0, 100]"));
    if (shape[i].score < 0 || shape[i].score > kMaxCustomPriorityScore)
      errs.push_back(InvalidInt(Idx(path, i) + ".score", shape[i].score,
                                "not in valid range [0, " + std::to_string(kMaxCustomPriorityScore) + "]"));
  }
}

// validateResources.
void ValidateResources(const std::vector<ResourceSpec>& resources, const std::string& path,
                       std::vector<FieldError>& errs) {
  for (size_t i = 0; i < resources.size(); ++i) {
    const auto& r = resources[i];
    if (r.weight <= 0 || r.weight > 100)
      errs.push_back(InvalidInt(Idx(path, i) + ".weight", r.weight,
                                "resource weight of " + r.name + " not in valid range (0, 100]"));
  }
}

// field.ErrorList.ToAggregate drops repeated messages.
void AppendDeduplicated(std::vector<FieldError> list, std::vector<FieldError>& errs) {
  std::set<std::string> seen;
  for (auto& e : list)
    if (seen.insert(e.ToString()).second) errs.push_back(std::move(e));
}

}  // namespace

// ValidateNodeResourcesFitArgs.
std::vector<FieldError> ValidateNodeResourcesFitArgs(const std::string& path, const NodeResourcesFitArgs& args) {
  std::vector<FieldError> errs;
  const std::string prefix = path.empty() ? "" : path + ".";
  for (size_t i = 0; i < args.ignored_resources.size(); ++i)
    ValidateLabelName(args.ignored_resources[i], Idx(prefix + "ignoredResources", i), errs);
  for (size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& group = args.ignored_resource_groups[i];
    const std::string p = Idx(prefix + "ignoredResourceGroups", i);
    if (group.find('/') != std::string::npos)
      errs.push_back(FieldError::Invalid(p, group, "resource group name can't contain '/'"));
    ValidateLabelName(group, p, errs);
  }
  const std::string strategy = prefix + "scoringStrategy";
  if (args.unsupported_type) {
    // The BadValue is a config.ScoringStrategyType: JSON, not %q.
    FieldError e = FieldError::NotSupported(strategy + ".type", *args.unsupported_type,
                                            {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
    e.value = JsonQuote(*args.unsupported_type);
    errs.push_back(std::move(e));
  }
  ValidateResources(args.resources, strategy + ".resources", errs);
  if (!args.unsupported_type && args.type == ScoringStrategyType::kRequestedToCapacityRatio) {
    if (!args.has_requested_to_capacity_ratio) {
      errs.push_back(FieldError::Required(strategy + ".requestedToCapacityRatio",
                                          "must be specified when type is RequestedToCapacityRatio"));
    } else {
      ValidateFunctionShape(args.shape, strategy + ".requestedToCapacityRatio.shape", errs);
    }
  } else if (args.has_requested_to_capacity_ratio) {
    errs.push_back(FieldError::Forbidden(strategy + ".requestedToCapacityRatio",
                                         "must be nil when type is not RequestedToCapacityRatio"));
  }
  std::vector<FieldError> out;
  AppendDeduplicated(std::move(errs), out);
  return out;
}

// ValidateNodeResourcesBalancedAllocationArgs.
std::vector<FieldError> ValidateNodeResourcesBalancedAllocationArgs(const std::string& path,
                                                                    const NodeResourcesBalancedAllocationArgs& args) {
  std::vector<FieldError> errs;
  const std::string res = (path.empty() ? "" : path + ".") + "resources";
  std::set<std::string> seen;
  for (size_t i = 0; i < args.resources.size(); ++i) {
    const auto& r = args.resources[i];
    if (!seen.insert(r.name).second) errs.push_back(FieldError::Duplicate(Idx(res, i) + ".name", r.name));
    if (r.weight != 1) errs.push_back(InvalidInt(Idx(res, i) + ".weight", r.weight, "must be 1"));
  }
  std::vector<FieldError> out;
  AppendDeduplicated(std::move(errs), out);
  return out;
}

namespace {

// validatePluginConfig.
void ValidatePluginConfig(const std::string& path, const SchedulerProfile& prof, std::vector<FieldError>& errs) {
  // stagesToPluginSet is a Go map, so upstream reports these in random
  // order; here they come in the order of the map literal.
  const std::pair<const char*, const PluginSet*> stages[] = {
      {"queueSort", &prof.plugins.queue_sort}, {"preFilter", &prof.plugins.pre_filter},
      {"filter", &prof.plugins.filter},        {"postFilter", &prof.plugins.post_filter},
      {"preScore", &prof.plugins.pre_score},   {"score", &prof.plugins.score},
      {"reserve", &prof.plugins.reserve},      {"bind", &prof.plugins.bind},
  };
  for (const auto& [stage, set] : stages) {
    for (size_t i = 0; i < set->enabled.size(); ++i) {
      if (IsPluginInvalid(set->enabled[i].name))
        errs.push_back(FieldError::Invalid(Idx(path + ".plugins." + stage + ".enabled", i), set->enabled[i].name,
                                           InvalidPluginDetail()));
    }
  }
  std::set<std::string> seen;
  bool fit_done = false;
  bool balanced_done = false;
  for (size_t i = 0; i < prof.plugin_config.size(); ++i) {
    const std::string& name = prof.plugin_config[i];
    const std::string p = Idx(path + ".pluginConfig", i);
    if (!seen.insert(name).second) errs.push_back(FieldError::Duplicate(p, name));
    if (IsPluginInvalid(name)) {
      errs.push_back(FieldError::Invalid(p, name, InvalidPluginDetail()));
    } else if (name == names::kNodeResourcesBalancedAllocation && !balanced_done) {
      balanced_done = true;
      for (auto& e : ValidateNodeResourcesBalancedAllocationArgs(p + ".args", prof.balanced_args))
        errs.push_back(std::move(e));
    } else if (name == names::kNodeResourcesFit && !fit_done) {
      // Upstream's table keys this validator by "NodeResourcesFitArgs", so
      // config validation never reaches it and NewFit validates the args
      // when the profile is built (field paths without the
      // "profiles[i].pluginConfig[j].args." prefix). Same checks and
      // messages here, with the full path.
      fit_done = true;
      for (auto& e : ValidateNodeResourcesFitArgs(p + ".args", prof.fit_args)) errs.push_back(std::move(e));
    }
  }
  // Args that SetDefaults did not get to list (an undefaulted profile).
  if (!fit_done)
    for (auto& e : ValidateNodeResourcesFitArgs(Idx(path + ".pluginConfig", prof.plugin_config.size()) + ".args",
                                                prof.fit_args))
      errs.push_back(std::move(e));
}

// config.PluginSet as encoding/json prints it (the internal type has no json
// tags; an empty list is null).
std::string PluginSetJson(const PluginSet& s) {
  auto list = [](const std::vector<PluginRef>& v) {
    if (v.empty()) return std::string("null");
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i)
      out += (i ? "," : "") + std::string("{\"Name\":") + JsonQuote(v[i].name) +
             ",\"Weight\":" + std::to_string(v[i].weight) + "}";
    return out + "]";
  };
  return "{\"Enabled\":" + list(s.enabled) + ",\"Disabled\":" + list(s.disabled) + "}";
}

bool SamePluginSet(const PluginSet& a, const PluginSet& b) {
  auto same = [](const std::vector<PluginRef>& x, const std::vector<PluginRef>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].name != y[i].name || x[i].weight != y[i].weight) return false;
    return true;
  };
  return same(a.enabled, b.enabled) && same(a.disabled, b.disabled);
}

// validateCommonQueueSort (the queue sort plugin's args are not compared:
// gpusched reads no args for it).
void ValidateCommonQueueSort(const std::vector<SchedulerProfile>& profiles, std::vector<FieldError>& errs) {
  const PluginSet& canon = profiles[0].plugins.queue_sort;
  if (canon.enabled.size() > 1)
    errs.push_back(FieldError{FieldError::Type::kInvalid, "profiles[0].plugins.queueSort.Enabled",
                              std::to_string(canon.enabled.size()), "only one queue sort plugin can be enabled"});
  for (size_t i = 1; i < profiles.size(); ++i) {
    const PluginSet& curr = profiles[i].plugins.queue_sort;
    if (!SamePluginSet(canon, curr))
      errs.push_back(FieldError{FieldError::Type::kInvalid, Idx("profiles", i) + ".plugins.queueSort",
                                PluginSetJson(curr), "must be the same for all profiles"});
  }
}

}  // namespace

std::vector<FieldError> ValidateSchedulerConfiguration(const KubeSchedulerConfiguration& cc) {
  std::vector<FieldError> errs;
  if (cc.parallelism <= 0)
    errs.push_back(InvalidInt("parallelism", cc.parallelism, "should be an integer value greater than zero"));
  if (cc.profiles.empty()) {
    errs.push_back(FieldError::Required("profiles", ""));
  } else {
    std::map<std::string, size_t> existing;
    for (size_t i = 0; i < cc.profiles.size(); ++i) {
      const SchedulerProfile& prof = cc.profiles[i];
      const std::string path = Idx("profiles", i);
      // validateKubeSchedulerProfile.
      if (prof.scheduler_name.empty()) errs.push_back(FieldError::Required(path + ".schedulerName", ""));
      ValidatePercentage(path + ".percentageOfNodesToScore", prof.percentage_of_nodes_to_score, errs);
      ValidatePluginConfig(path, prof, errs);
      if (existing.count(prof.scheduler_name)) {
        // The BadValue is the *field.Path of the first profile's name; its
        // fields are unexported, so encoding/json prints {}.
        errs.push_back(FieldError{FieldError::Type::kDuplicate, path + ".schedulerName", "{}", ""});
      }
      existing[prof.scheduler_name] = i;
    }
    ValidateCommonQueueSort(cc.profiles, errs);
  }
  ValidatePercentage("percentageOfNodesToScore", cc.percentage_of_nodes_to_score, errs);
  if (cc.pod_initial_backoff_seconds <= 0)
    errs.push_back(InvalidInt("podInitialBackoffSeconds", cc.pod_initial_backoff_seconds, "must be greater than 0"));
  if (cc.pod_max_backoff_seconds < cc.pod_initial_backoff_seconds)
    errs.push_back(InvalidInt("podMaxBackoffSeconds", cc.pod_max_backoff_seconds,
                              "must be greater than or equal to PodInitialBackoffSeconds"));
  for (FieldError& e : ValidateExtenders(cc.extenders)) errs.push_back(std::move(e));
  return errs;
}

// validateExtenders and validateExtendedResourceName.
std::vector<FieldError> ValidateExtenders(const std::vector<Extender>& extenders) {
  std::vector<FieldError> errs;
  int binders = 0;
  std::set<std::string> managed;
  for (size_t i = 0; i < extenders.size(); ++i) {
    const Extender& e = extenders[i];
    const std::string path = Idx("extenders", i);
    if (!e.prioritize_verb.empty() && e.weight <= 0)
      errs.push_back(InvalidInt(path + ".weight", e.weight, "must have a positive weight applied to it"));
    if (!e.bind_verb.empty()) ++binders;
    for (size_t j = 0; j < e.managed_resources.size(); ++j) {
      const std::string& name = e.managed_resources[j].name;
      const std::string p = Idx(path + ".managedResources", j) + ".name";
      std::vector<std::string> msgs = IsQualifiedName(name);
      for (const std::string& m : msgs) errs.push_back(FieldError::Invalid(p, name, m));
      if (msgs.empty() && !IsExtendedResourceName(name))
        errs.push_back(FieldError::Invalid(p, name, "is an invalid extended resource name"));
      if (managed.count(name)) errs.push_back(FieldError::Invalid(p, name, "duplicate extender managed resource name"));
      managed.insert(name);
    }
  }
  if (binders > 1)
    errs.push_back(FieldError::Invalid("extenders", "found " + std::to_string(binders) + " extenders implementing bind",
                                       "only one extender can implement bind"));
  return errs;
}

}  // namespace gpusched
