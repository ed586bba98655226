// ConfigDecoder (scheduler_config_decoder.h): profiles[].pluginConfig[].args
// for the plugins gpusched acts on: NodeResourcesFit,
// NodeResourcesBalancedAllocation (pkg/scheduler/apis/config/v1) and
// scheduler-plugins' Coscheduling; other plugins' args are accepted with a
// warning.
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "gpusched/model/field_error.h"
#include "scheduler_config_decoder.h"

namespace gpusched {
namespace scheduler_config_internal {

void ConfigDecoder::DecodeArgs(const DocNode& c, const std::string& p, const std::string& plugin,
                               SchedulerProfile& prof, bool& have_fit, bool& have_balanced) {
  const std::string ap = p + ".args";
  const DocNode raw = c["args"];
  if (!raw.IsDefined() || raw.IsNull()) return;
  const bool fit = plugin == "NodeResourcesFit";
  const bool balanced = plugin == "NodeResourcesBalancedAllocation";
  const bool coscheduling = plugin == "Coscheduling";
  if (!fit && !balanced && !coscheduling) {
    ctx_.Record(ap, raw);
    ctx_.Warn(raw, ap + " (" + plugin +
                       ") is accepted and ignored: gpusched reads the args of NodeResourcesFit, "
                       "NodeResourcesBalancedAllocation and Coscheduling only");
    return;
  }
  const DocNode args = ctx_.Map(c, "args", ap);
  if (!args.IsDefined()) return;
  const std::string want = plugin + "Args";
  const std::string kind = ctx_.Str(args, "kind", ap + ".kind");
  if (!kind.empty() && kind != want) {
    // Upstream: decoding .profiles[i].pluginConfig[j]: args for plugin X
    // were not of type XArgs.kubescheduler.config.k8s.io, got K.group.
    ctx_.Error(p, args, "args for plugin " + plugin + " were not of type " + want + "." + kGroup + ", got " + kind +
                            "." + kGroup);
    return;
  }
  const std::string version = ctx_.Str(args, "apiVersion", ap + ".apiVersion");
  if (!version.empty() && version != kGroupVersion) {
    ctx_.Error(ap + ".apiVersion", args["apiVersion"],
               "no kind " + GoQuote(want) + " is registered for version " + GoQuote(version) + " in scheme " +
                   GoQuote(kScheme));
    return;
  }
  if (coscheduling) {
    // scheduler-plugins: decoded, defaulted, then ValidateCoschedulingArgs
    // (apis/config/validation/validation_pluginargs.go) when the plugin
    // is created.
    WarnUnknown(args, ap, {"apiVersion", "kind", "permitWaitingTimeSeconds", "podGroupBackoffSeconds",
                           "podGroupRejectPercentage"});
    CoschedulingArgs a;
    auto read = [&](const char* key, auto& field, bool percentage) {
      std::optional<int64_t> v = ctx_.Int(args, key, ap + "." + key);
      if (!v) return;
      if (*v < 0 || (percentage && *v > 100))
        ctx_.Error(ap + "." + key, args[key],
                   "Invalid value: " + std::to_string(*v) +
                       (percentage ? ": must be between 0 and 100" : ": must be greater than 0"));
      field = static_cast<std::remove_reference_t<decltype(field)>>(*v);
    };
    read("permitWaitingTimeSeconds", a.permit_waiting_time_seconds, false);
    read("podGroupBackoffSeconds", a.pod_group_backoff_seconds, false);
    read("podGroupRejectPercentage", a.pod_group_reject_percentage, true);
    prof.coscheduling_args = a;
    return;
  }
  if (fit) {
    NodeResourcesFitArgs a;
    DecodeFitArgs(args, ap, a);
    if (!have_fit) prof.fit_args = std::move(a);
    have_fit = true;
  } else {
    NodeResourcesBalancedAllocationArgs a;
    WarnUnknown(args, ap, {"apiVersion", "kind", "resources"});
    a.resources = Resources(args, "resources", ap + ".resources");
    if (!have_balanced) prof.balanced_args = std::move(a);
    have_balanced = true;
  }
}

std::vector<ResourceSpec> ConfigDecoder::Resources(const DocNode& parent, const char* key, const std::string& path) {
  std::vector<ResourceSpec> out;
  const DocNode list = ctx_.Seq(parent, key, path);
  if (!list.IsDefined()) return out;
  for (size_t i = 0; i < list.size(); ++i) {
    const DocNode r = list[i];
    const std::string p = Idx(path, i);
    if (!Item(r, p)) continue;
    WarnUnknown(r, p, {"name", "weight"});
    ResourceSpec spec;
    spec.name = ctx_.Str(r, "name", p + ".name");
    spec.weight = ctx_.Int(r, "weight", p + ".weight").value_or(0);
    out.push_back(std::move(spec));
  }
  return out;
}

void ConfigDecoder::DecodeFitArgs(const DocNode& args, const std::string& ap, NodeResourcesFitArgs& a) {
  WarnUnknown(args, ap, {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"});
  a.ignored_resources = Strings(args, "ignoredResources", ap + ".ignoredResources");
  a.ignored_resource_groups = Strings(args, "ignoredResourceGroups", ap + ".ignoredResourceGroups");
  const std::string sp = ap + ".scoringStrategy";
  const DocNode ss = ctx_.Map(args, "scoringStrategy", sp);
  if (!ss.IsDefined()) return;  // defaulting supplies {LeastAllocated, cpu, memory}
  WarnUnknown(ss, sp, {"type", "resources", "requestedToCapacityRatio"});
  // A scoringStrategy without a type keeps "" (defaulting only fills a
  // missing scoringStrategy), which validation refuses.
  const std::string type = ctx_.Str(ss, "type", sp + ".type");
  if (std::optional<ScoringStrategyType> t = ParseScoringStrategy(type)) {
    a.type = *t;
  } else {
    a.unsupported_type = type;
  }
  a.resources = Resources(ss, "resources", sp + ".resources");
  const std::string rp = sp + ".requestedToCapacityRatio";
  const DocNode rtc = ctx_.Map(ss, "requestedToCapacityRatio", rp);
  if (!rtc.IsDefined()) return;
  a.has_requested_to_capacity_ratio = true;
  WarnUnknown(rtc, rp, {"shape"});
  const DocNode shape = ctx_.Seq(rtc, "shape", rp + ".shape");
  if (!shape.IsDefined()) return;
  for (size_t i = 0; i < shape.size(); ++i) {
    const DocNode pt = shape[i];
    const std::string p = Idx(rp + ".shape", i);
    if (!Item(pt, p)) continue;
    WarnUnknown(pt, p, {"utilization", "score"});
    UtilizationShapePoint point;
    point.utilization = Int32(pt, "utilization", p + ".utilization").value_or(0);
    point.score = Int32(pt, "score", p + ".score").value_or(0);
    a.shape.push_back(point);
  }
}

}  // namespace scheduler_config_internal
}  // namespace gpusched
