// The settings of one run, resolved once for every command: what the user
// asked (RunOptions, as given; "" or nullopt takes the default of defaults.h)
// becomes typed values (RunSettings) — the policies, the queue order, gang
// preemption, the feature gates, the configuration read from its file, the
// extra scheduler names and which profile enforces which gangs. The
// commands differ only in what they then do with them.
#ifndef GPUSCHED_RUN_RUN_SETTINGS_H_
#define GPUSCHED_RUN_RUN_SETTINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/run/feature_gates.h"
#include "gpusched/run/run_error.h"
#include "gpusched/run/setting.h"
#include "gpusched/sched/framework/gang_batch.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/sched/framework/queue_order.h"
#include "gpusched/sched/index/frag.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/util/status.h"

namespace gpusched {

struct RunOptions {
  std::string policy;  // a name; simulate compares several: "kube-default,best-fit"
  std::string order;   // a queue order (sched/framework/queue_order.h)
  std::string preempt_gangs;  // upstream | whole (sched/framework/gang_preemption.h)
  std::string feature_gates;  // "GangScheduling=true,..." (feature_gates.h)
  std::vector<std::string> scheduler_names;  // "NAME=POLICY" each (scheduler_names.h)
  std::string config;  // a KubeSchedulerConfiguration file, "-" for standard input
  std::optional<uint64_t> seed;
  // The plugins a configuration may name; null: kube-scheduler's in-tree
  // registry (sched/plugins/registry.h). A build or a test with plugins of
  // its own passes its registry here, as kube-scheduler's app.WithPlugin.
  const PluginRegistry* plugins = nullptr;
};

struct RunSettings {
  std::vector<std::string> policies;  // one, except for simulate
  QueueOrder order = QueueOrder::kPriority;
  PreemptGangs preempt_gangs = PreemptGangs::kUpstream;
  FeatureGates gates;
  KubeSchedulerConfiguration config;
  std::vector<ExtraProfile> extra;  // after the configuration's profiles
  GangServing gang_serving;         // which profile enforces which gangs (none for serve)
  uint64_t seed = 0;
  bool seed_given = false;  // a SyntheticWorkload spec's own seed yields to a given one
  const PluginRegistry* plugins = &PluginRegistry::InTree();  // makes the profiles' plugins
};

// Checks the settings in the order of the fields above (the policy first:
// the default order depends on it). A setting `command` does not take must
// be left empty. The configuration file's warnings ("file:line: text") go to
// `warnings`, also when a later setting is the error.
RunResult<RunSettings> ResolveSettings(const RunOptions& options, Command command,
                                       std::vector<std::string>* warnings);

// FGD's target workload (GetTypicalPods) of `pods`.
TypicalPods TypicalPodsOf(const std::vector<const Pod*>& pods);
// The same when one of the settings' policies or extra scheduler names needs
// it (fgd); empty otherwise, so that a batch works a pod's request out once.
TypicalPods TypicalPodsFor(const RunSettings& settings, const std::vector<const Pod*>& pods);

// The schedulers of `policy` (one of settings.policies): one per profile of
// the configuration, then one per extra scheduler name, seeded from the
// settings' seed; FGD's target workload is `typical`. Fails only where the
// engine refuses them (sched/framework/profile_factory.h).
Result<SchedulerSet> SchedulersFor(const RunSettings& settings, std::string_view policy, const TypicalPods& typical);

}  // namespace gpusched

#endif  // GPUSCHED_RUN_RUN_SETTINGS_H_
