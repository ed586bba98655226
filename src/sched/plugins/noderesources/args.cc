// The noderesources plugins' args (v1 NodeResourcesFitArgs and
// NodeResourcesBalancedAllocationArgs, pkg/scheduler/apis/config/v1/
// types_pluginargs.go) read from profiles[].pluginConfig[].args; their
// defaulting and validation are the configuration's
// (config/scheduler_config.h), as upstream's are in apis/config.
#include <optional>
#include <string>
#include <vector>

#include "gpusched/sched/plugins/noderesources/balanced_allocation.h"
#include "gpusched/sched/plugins/noderesources/fit.h"

namespace gpusched {
namespace {

std::string Idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

// scoringStrategy.resources and the balanced args' resources: []ResourceSpec.
std::vector<ResourceSpec> ResourceSpecs(ArgsReader& r, ArgsReader::Node parent, const char* key, const std::string& path) {
  std::vector<ResourceSpec> out;
  const ArgsReader::Node list = r.Seq(parent, key, path);
  if (!list.defined()) return out;
  for (size_t i = 0; i < r.Size(list); ++i) {
    const std::string p = Idx(path, i);
    const ArgsReader::Node item = r.Item(list, i, p);
    if (!item.defined()) continue;
    r.WarnUnknown(item, p, {"name", "weight"});
    ResourceSpec spec;
    spec.name = r.Str(item, "name", p + ".name");
    spec.weight = r.Int(item, "weight", p + ".weight").value_or(0);
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

void DecodeNodeResourcesFitArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                SchedulerProfile& profile) {
  NodeResourcesFitArgs& a = profile.fit_args;
  a = NodeResourcesFitArgs{};
  r.WarnUnknown(args, path, {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"});
  a.ignored_resources = r.Strings(args, "ignoredResources", path + ".ignoredResources");
  a.ignored_resource_groups = r.Strings(args, "ignoredResourceGroups", path + ".ignoredResourceGroups");
  const std::string sp = path + ".scoringStrategy";
  const ArgsReader::Node ss = r.Map(args, "scoringStrategy", sp);
  if (!ss.defined()) return;  // defaulting supplies {LeastAllocated, cpu, memory}
  r.WarnUnknown(ss, sp, {"type", "resources", "requestedToCapacityRatio"});
  // A scoringStrategy without a type keeps "" (defaulting only fills a
  // missing scoringStrategy), which validation refuses.
  const std::string type = r.Str(ss, "type", sp + ".type");
  if (std::optional<ScoringStrategyType> t = ParseScoringStrategy(type)) {
    a.type = *t;
  } else {
    a.unsupported_type = type;
  }
  a.resources = ResourceSpecs(r, ss, "resources", sp + ".resources");
  const std::string rp = sp + ".requestedToCapacityRatio";
  const ArgsReader::Node rtc = r.Map(ss, "requestedToCapacityRatio", rp);
  if (!rtc.defined()) return;
  a.has_requested_to_capacity_ratio = true;
  r.WarnUnknown(rtc, rp, {"shape"});
  const ArgsReader::Node shape = r.Seq(rtc, "shape", rp + ".shape");
  if (!shape.defined()) return;
  for (size_t i = 0; i < r.Size(shape); ++i) {
    const std::string p = Idx(rp + ".shape", i);
    const ArgsReader::Node pt = r.Item(shape, i, p);
    if (!pt.defined()) continue;
    r.WarnUnknown(pt, p, {"utilization", "score"});
    UtilizationShapePoint point;
    point.utilization = r.Int32(pt, "utilization", p + ".utilization").value_or(0);
    point.score = r.Int32(pt, "score", p + ".score").value_or(0);
    a.shape.push_back(point);
  }
}

void DecodeNodeResourcesBalancedAllocationArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                               SchedulerProfile& profile) {
  NodeResourcesBalancedAllocationArgs& a = profile.balanced_args;
  a = NodeResourcesBalancedAllocationArgs{};
  r.WarnUnknown(args, path, {"apiVersion", "kind", "resources"});
  a.resources = ResourceSpecs(r, args, "resources", path + ".resources");
}

}  // namespace gpusched
