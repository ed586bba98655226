// LabelGate: a throw-away scheduler plugin that only tests define, added to
// the registry with PluginRegistry::With and nowhere else, to prove that one
// registry row is all a plugin needs to be configured
// (profiles[].plugins and pluginConfig args), run as a Filter and a Score in
// one class, and explained. Args (LabelGateArgs):
//   label:  the node label a node must carry (required);
//   prefer: a value of that label whose nodes score 100 (others score 0).
#ifndef GPUSCHED_TESTS_SUPPORT_LABEL_GATE_PLUGIN_H_
#define GPUSCHED_TESTS_SUPPORT_LABEL_GATE_PLUGIN_H_

#include <memory>
#include <string>
#include <utility>

#include "gpusched/config/plugin_args.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/sched/api/filter_plugin.h"
#include "gpusched/sched/api/score_plugin.h"
#include "gpusched/sched/plugins/registry.h"

namespace gpusched::testing {

inline constexpr const char kLabelGate[] = "LabelGate";

struct LabelGateArgs : PluginArgs {
  std::string label;
  std::string prefer;
};

class LabelGate : public FilterPlugin, public ScorePlugin {
 public:
  explicit LabelGate(LabelGateArgs args) : args_(std::move(args)) {}
  std::string_view Name() const override { return kLabelGate; }

  bool Check(const PodInfo&, const Node& node, const NodeState&, FilterVerdict* why) const override {
    if (node.meta.labels.count(args_.label)) return true;
    if (why) why->Fail(SchedStatus::Code::kUnschedulableAndUnresolvable, "node(s) didn't have label ", args_.label);
    return false;
  }
  std::string ExclusionPhrase(const PodInfo&, const ClusterState&, int) const override {
    return "without the label " + args_.label + " (LabelGate)";
  }

  int64_t Score(const PodInfo&, const Node& node, const NodeState&) const override {
    auto it = node.meta.labels.find(args_.label);
    return it != node.meta.labels.end() && it->second == args_.prefer ? kMaxNodeScore : 0;
  }

 private:
  LabelGateArgs args_;
};

inline void DecodeLabelGateArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                                SchedulerProfile& profile) {
  r.WarnUnknown(args, path, {"apiVersion", "kind", "label", "prefer"});
  auto a = std::make_shared<LabelGateArgs>();
  a->label = r.Str(args, "label", path + ".label");
  a->prefer = r.Str(args, "prefer", path + ".prefer");
  if (a->label.empty()) r.Error(path + ".label", args, "Required value: the node label LabelGate checks");
  profile.plugin_args[kLabelGate] = std::move(a);
}

inline std::unique_ptr<Plugin> MakeLabelGate(const ResolvedProfile& profile) {
  const LabelGateArgs* args = PluginArgsOf<LabelGateArgs>(profile, kLabelGate);
  return std::make_unique<LabelGate>(args ? *args : LabelGateArgs{});
}

// The in-tree registry plus LabelGate.
inline PluginRegistry RegistryWithLabelGate() {
  return PluginRegistry::InTree().With(
      PluginRegistration{{kLabelGate, kFilter | kScore, DecodeLabelGateArgs}, MakeLabelGate});
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SUPPORT_LABEL_GATE_PLUGIN_H_
