#include "gpusched/run/run_settings.h"

#include <algorithm>
#include <string_view>

#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/run/defaults.h"
#include "gpusched/run/scheduler_names.h"
#include "gpusched/sched/framework/gang_serving.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/sched/policies/policy_registry.h"

namespace gpusched {
namespace {

RunError UnknownName(Setting s, std::string_view value, std::string_view known) {
  return RunError{RunError::Kind::kUnknownName, s, UnknownNameText(s, value, SplitNameList(known))};
}

// One name, or for simulate a comma-separated list (empty items skipped).
RunResult<std::vector<std::string>> ResolvePolicies(const RunOptions& o, Command command) {
  const std::string_view text =
      o.policy.empty() ? DefaultPolicy(command, !o.config.empty()) : std::string_view(o.policy);
  std::vector<std::string> policies;
  if (command != Command::kSimulate) {
    policies.emplace_back(text);
  } else {
    for (size_t start = 0; start <= text.size();) {
      const size_t comma = std::min(text.find(',', start), text.size());
      if (comma > start) policies.emplace_back(text.substr(start, comma - start));
      start = comma + 1;
    }
  }
  for (const std::string& p : policies)
    if (!IsKnownPolicy(p))
      return RunError{RunError::Kind::kUnknownName, Setting::kPolicy, UnknownPolicyText(Setting::kPolicy, p)};
  return policies;
}

RunResult<KubeSchedulerConfiguration> LoadConfig(const std::string& path, const PluginRegistry& plugins,
                                                 std::vector<std::string>* warnings) {
  if (path.empty()) return DefaultSchedulerConfiguration();
  Result<KubeSchedulerConfiguration> loaded = LoadSchedulerConfigFile(path, warnings, plugins.Catalog());
  if (!loaded.ok()) {
    SettingText message(EngineMessage(loaded.status()));
    // The file itself cannot be read: say which flag named it.
    const Status::Code code = loaded.status().code();
    if (code == Status::Code::kNotFound || code == Status::Code::kIOError)
      message << "; " << Setting::kConfig << " takes a KubeSchedulerConfiguration file";
    return RunError{RunError::Kind::kConfigInvalid, Setting::kConfig, message};
  }
  return std::move(loaded).value();
}

// Which profile enforces which gangs. The one refusal (a profile enabling
// GangScheduling with its gate off) is found first, to name the setting.
RunResult<GangServing> ResolveGangServing(const RunSettings& s) {
  if (std::optional<std::string> profile = GangSchedulingWithoutGate(s.config, s.gates.gang, *s.plugins)) {
    SettingText m;
    m << "profile \"" << *profile << "\" enables GangScheduling, alpha in v1.35 and off by default: add "
      << Setting::kFeatureGates << " GangScheduling=true";
    return RunError{RunError::Kind::kGateOff, Setting::kFeatureGates, m};
  }
  Result<GangServing> serving = BuildGangServing(s.config, s.extra, s.gates.gang, *s.plugins);
  if (!serving.ok()) return RunError{RunError::Kind::kGateOff, Setting::kFeatureGates, EngineMessage(serving.status())};
  return std::move(serving).value();
}

}  // namespace

RunResult<RunSettings> ResolveSettings(const RunOptions& o, Command command, std::vector<std::string>* warnings) {
  RunSettings s;
  RunResult<std::vector<std::string>> policies = ResolvePolicies(o, command);
  if (!policies.ok()) return policies.error();
  s.policies = std::move(policies).value();
  if (!o.order.empty()) {
    std::optional<QueueOrder> order = ParseQueueOrder(o.order);
    if (!order) return UnknownName(Setting::kOrder, o.order, kQueueOrderNames);
    s.order = *order;
  } else {
    s.order = DefaultOrder(command, s.policies.size() == 1 ? s.policies.front() : "");
  }
  s.preempt_gangs = kDefaultPreemptGangs;
  if (!o.preempt_gangs.empty()) {
    std::optional<PreemptGangs> p = ParsePreemptGangs(o.preempt_gangs);
    if (!p) return UnknownName(Setting::kPreemptGangs, o.preempt_gangs, kPreemptGangsNames);
    s.preempt_gangs = *p;
  }
  RunResult<FeatureGates> gates = ParseFeatureGates(o.feature_gates, command);
  if (!gates.ok()) return gates.error();
  s.gates = *gates;
  if (o.plugins) s.plugins = o.plugins;
  RunResult<KubeSchedulerConfiguration> config = LoadConfig(o.config, *s.plugins, warnings);
  if (!config.ok()) return config.error();
  s.config = std::move(config).value();
  RunResult<std::vector<ExtraProfile>> extra = ParseSchedulerNames(o.scheduler_names, s.config);
  if (!extra.ok()) return extra.error();
  s.extra = std::move(extra).value();
  // serve holds no gangs back (kube-scheduler's own Permit does, and reads
  // its own feature gates): it neither checks the gang gates nor serves gangs.
  if (command != Command::kServe) {
    RunResult<GangServing> serving = ResolveGangServing(s);
    if (!serving.ok()) return serving.error();
    s.gang_serving = std::move(serving).value();
  }
  s.seed = o.seed.value_or(kDefaultSeed);
  s.seed_given = o.seed.has_value();
  return s;
}

TypicalPods TypicalPodsOf(const std::vector<const Pod*>& pods) {
  std::vector<PodShape> shapes;
  shapes.reserve(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) shapes.push_back(ShapeOf(PodInfo::Make(*pods[i], i)));
  return ComputeTypicalPods(shapes);
}

TypicalPods TypicalPodsFor(const RunSettings& settings, const std::vector<const Pod*>& pods) {
  auto needs = [](std::string_view policy) {
    const PolicyEntry* e = FindPolicy(policy);
    return e != nullptr && e->needs_workload;
  };
  bool needed = std::any_of(settings.policies.begin(), settings.policies.end(), needs);
  for (const ExtraProfile& e : settings.extra) needed = needed || needs(e.policy);
  return needed ? TypicalPodsOf(pods) : ComputeTypicalPods({});
}

Result<SchedulerSet> SchedulersFor(const RunSettings& settings, std::string_view policy, const TypicalPods& typical) {
  PolicyOptions options;
  options.typical = &typical;
  options.dra_features = settings.gates.dra;
  return BuildSchedulers(settings.config, policy, settings.seed, options, settings.extra, *settings.plugins);
}

}  // namespace gpusched
