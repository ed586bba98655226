// PodTopologySpreadArgs (pkg/scheduler/apis/config/v1 types_pluginargs.go)
// read from profiles[].pluginConfig[].args, defaulted
// (SetDefaults_PodTopologySpreadArgs: defaultingType System) and checked
// as ValidatePodTopologySpreadArgs (apis/config/validation/
// validation_pluginargs.go) checks them.
#include <memory>
#include <string>

#include "gpusched/model/name_validation.h"
#include "gpusched/sched/plugins/podtopologyspread/pod_topology_spread.h"

namespace gpusched {

void DecodePodTopologySpreadArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                 SchedulerProfile& profile) {
  r.WarnUnknown(args, path, {"apiVersion", "kind", "defaultConstraints", "defaultingType"});
  auto a = std::make_shared<PodTopologySpreadArgs>();
  const std::string tp = path + ".defaultingType";
  a->defaulting_type = r.Str(args, "defaultingType", tp);
  if (a->defaulting_type.empty()) a->defaulting_type = "System";
  const std::string cp = path + ".defaultConstraints";
  const ArgsReader::Node list = r.Seq(args, "defaultConstraints", cp);
  std::vector<ArgsReader::Node> at;
  for (size_t i = 0; list.defined() && i < r.Size(list); ++i) {
    const std::string p = cp + "[" + std::to_string(i) + "]";
    const ArgsReader::Node item = r.Item(list, i, p);
    if (!item.defined()) continue;
    r.WarnUnknown(item, p, {"maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains",
                            "nodeAffinityPolicy", "nodeTaintsPolicy", "matchLabelKeys"});
    TopologySpreadConstraint c;
    c.max_skew = r.Int32(item, "maxSkew", p + ".maxSkew").value_or(0);
    c.topology_key = r.Str(item, "topologyKey", p + ".topologyKey");
    c.when_unsatisfiable = r.Str(item, "whenUnsatisfiable", p + ".whenUnsatisfiable");
    c.min_domains = r.Int32(item, "minDomains", p + ".minDomains");
    c.node_affinity_policy = r.Str(item, "nodeAffinityPolicy", p + ".nodeAffinityPolicy");
    c.node_taints_policy = r.Str(item, "nodeTaintsPolicy", p + ".nodeTaintsPolicy");
    c.match_label_keys = r.Strings(item, "matchLabelKeys", p + ".matchLabelKeys");
    // Only its presence matters: validation forbids it.
    if (r.At(item, "labelSelector").defined()) c.label_selector = LabelSelector{};
    a->default_constraints.push_back(std::move(c));
    at.push_back(item);
  }
  // validateDefaultingType.
  if (a->defaulting_type != "System" && a->defaulting_type != "List") {
    r.Error(tp, r.At(args, "defaultingType"),
            "Unsupported value: " + JsonQuote(a->defaulting_type) + ": supported values: \"System\", \"List\"");
  } else if (a->defaulting_type == "System" && !a->default_constraints.empty()) {
    r.Error(tp, r.At(args, "defaultingType"), "Invalid value: \"System\": when .defaultConstraints are not empty");
  }
  for (size_t i = 0; i < a->default_constraints.size(); ++i) {
    const TopologySpreadConstraint& c = a->default_constraints[i];
    const std::string p = cp + "[" + std::to_string(i) + "]";
    if (c.max_skew <= 0)
      r.Error(p + ".maxSkew", r.At(at[i], "maxSkew"),
              "Invalid value: " + std::to_string(c.max_skew) + ": not in valid range (0, inf)");
    // validateTopologyKey.
    if (c.topology_key.empty()) {
      r.Error(p + ".topologyKey", at[i], "Required value: can not be empty");
    } else {
      for (const std::string& m : IsQualifiedName(c.topology_key))
        r.Error(p + ".topologyKey", r.At(at[i], "topologyKey"), "Invalid value: " + GoQuote(c.topology_key) + ": " + m);
    }
    // validateWhenUnsatisfiable.
    if (c.when_unsatisfiable.empty()) {
      r.Error(p + ".whenUnsatisfiable", at[i], "Required value: can not be empty");
    } else if (c.when_unsatisfiable != kDoNotSchedule && c.when_unsatisfiable != kScheduleAnyway) {
      r.Error(p + ".whenUnsatisfiable", r.At(at[i], "whenUnsatisfiable"),
              "Unsupported value: " + JsonQuote(c.when_unsatisfiable) +
                  ": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"");
    }
    if (c.label_selector)
      r.Error(p + ".labelSelector", r.At(at[i], "labelSelector"),
              "Forbidden: constraint must not define a selector, as they deduced for each pod");
    // validateConstraintNotRepeat: against the constraints before it.
    for (size_t j = 0; j < i; ++j)
      if (a->default_constraints[j].topology_key == c.topology_key &&
          a->default_constraints[j].when_unsatisfiable == c.when_unsatisfiable) {
        r.Error(p, at[i], "Duplicate value: " + GoQuote("{" + c.topology_key + ", " + c.when_unsatisfiable + "}"));
        break;
      }
  }
  profile.plugin_args[names::kPodTopologySpread] = std::move(a);
}

}  // namespace gpusched
