// The default of every setting, for schedule, explain, simulate and serve:
// the one place they are decided. DefaultsTable() documents them (the README's
// "Defaults of schedule, explain, simulate and serve" table and each command's
// `gpusched help` are rendered from it), and the functions below are what
// ResolveSettings uses; tests check that the two agree.
//
// The commands share each default except where the table says why not:
// without a configuration, schedule/explain/serve choose with first-fit in
// fifo order (the seed's batch, which the documented examples show) while
// simulate replays under kube-default in priority order (kube-scheduler's own
// queue, which its documented examples show).
#ifndef GPUSCHED_RUN_DEFAULTS_H_
#define GPUSCHED_RUN_DEFAULTS_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "gpusched/run/setting.h"
#include "gpusched/sched/framework/gang_preemption.h"
#include "gpusched/sched/framework/queue_order.h"

namespace gpusched {

inline constexpr std::string_view kKubeDefaultPolicy = "kube-default";
inline constexpr std::string_view kFirstFitPolicy = "first-fit";
inline constexpr uint64_t kDefaultSeed = 1;
inline constexpr PreemptGangs kDefaultPreemptGangs = PreemptGangs::kUpstream;

// The policy when none is given: kube-default with a configuration file,
// else first-fit; simulate: kube-default.
std::string_view DefaultPolicy(Command command, bool with_config);

// The queue order when none is given: priority for kube-default, else fifo;
// simulate: priority, whatever the policies.
QueueOrder DefaultOrder(Command command, std::string_view policy);

// One row of the table: the default as each command has it. `serve` is empty
// for a setting serve does not take; `why` is empty when the commands agree.
struct DefaultRow {
  Setting setting;
  SettingText schedule;  // schedule and explain
  SettingText simulate;
  SettingText serve;
  SettingText why;
};
std::span<const DefaultRow> DefaultsTable();

// The default of `setting` as `command` has it (its DefaultsTable() cell).
SettingText DefaultText(Setting setting, Command command);

}  // namespace gpusched

#endif  // GPUSCHED_RUN_DEFAULTS_H_
