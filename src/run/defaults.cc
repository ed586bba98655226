#include "gpusched/run/defaults.h"

#include <string>
#include <vector>

#include "gpusched/run/feature_gates.h"

namespace gpusched {

std::string_view DefaultPolicy(Command command, bool with_config) {
  if (command == Command::kSimulate) return kKubeDefaultPolicy;
  return with_config ? kKubeDefaultPolicy : kFirstFitPolicy;
}

QueueOrder DefaultOrder(Command command, std::string_view policy) {
  if (command == Command::kSimulate) return QueueOrder::kPriority;
  return policy == kKubeDefaultPolicy ? QueueOrder::kPriority : QueueOrder::kFifo;
}

namespace {

std::vector<DefaultRow> MakeTable() {
  const std::string kube_default(kKubeDefaultPolicy), first_fit(kFirstFitPolicy);
  const std::string priority = QueueOrderName(DefaultOrder(Command::kSchedule, kKubeDefaultPolicy));
  const std::string fifo = QueueOrderName(DefaultOrder(Command::kSchedule, kFirstFitPolicy));
  const std::string seed = std::to_string(kDefaultSeed);
  const SettingText config = "kube-scheduler's default configuration: one profile, default-scheduler, with the default "
                             "plugins";
  const SettingText preempt(PreemptGangsName(kDefaultPreemptGangs));
  std::vector<DefaultRow> rows;
  rows.push_back({Setting::kPolicy, SettingText() << kube_default << " with " << Setting::kConfig << ", else " << first_fit,
                  SettingText(DefaultPolicy(Command::kSimulate, false)),
                  SettingText() << kube_default << " with " << Setting::kConfig << ", else " << first_fit,
                  SettingText() << "without " << Setting::kConfig << ", schedule, explain and serve keep the seed's "
                                << first_fit << " while simulate replays kube-scheduler itself; each command's "
                                   "documented examples show its default"});
  rows.push_back({Setting::kOrder, SettingText() << priority << " with " << kube_default << ", else " << fifo,
                  SettingText(QueueOrderName(DefaultOrder(Command::kSimulate, first_fit))), SettingText(),
                  SettingText() << "a batch under a simple policy takes the pods in input order, as the seed does; "
                                   "over time pods wait in kube-scheduler's queue, one order for every policy "
                                   "compared; serve: kube-scheduler orders its own queue"});
  rows.push_back({Setting::kSeed, SettingText(seed),
                  SettingText() << seed << "; a SyntheticWorkload spec's own seed generates its workload unless "
                                << Setting::kSeed << " is given",
                  SettingText(seed), SettingText() << "only simulate generates workloads"});
  rows.push_back({Setting::kConfig, config, config, config, SettingText()});
  rows.push_back({Setting::kFeatureGates, GateDefaults(Command::kSchedule), GateDefaults(Command::kSimulate),
                  SettingText(), SettingText() << "kube-scheduler v1.35's defaults, read where they change something: "
                                                  "schedule has no queue; serve: kube-scheduler reads its gates"});
  rows.push_back({Setting::kSchedulerName, SettingText("none"), SettingText("none"), SettingText(), SettingText()});
  rows.push_back({Setting::kPreemptGangs, preempt, preempt, SettingText(), SettingText()});
  return rows;
}

}  // namespace

std::span<const DefaultRow> DefaultsTable() {
  static const std::vector<DefaultRow> table = MakeTable();
  return table;
}

SettingText DefaultText(Setting setting, Command command) {
  for (const DefaultRow& row : DefaultsTable()) {
    if (row.setting != setting) continue;
    switch (command) {
      case Command::kSchedule:
      case Command::kExplain:
        return row.schedule;
      case Command::kSimulate:
        return row.simulate;
      case Command::kServe:
        return row.serve;
    }
  }
  return SettingText();
}

}  // namespace gpusched
