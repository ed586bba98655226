#include "gpusched/cli/run_flags.h"

#include <CLI/CLI.hpp>

#include <limits>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/flag_checks.h"
#include "gpusched/run/defaults.h"
#include "gpusched/sched/framework/queue_order.h"
#include "gpusched/sched/policies/policy_registry.h"

namespace gpusched {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// What the flag does, for `command`'s help; the default follows.
std::string Purpose(Setting s, Command command) {
  const bool simulate = command == Command::kSimulate;
  switch (s) {
    case Setting::kPolicy:
      return (simulate ? "Policy, or several separated by commas: " : "Node choice: ") + Join(PolicyNames());
    case Setting::kOrder:
      return std::string("Queue order: ") + kQueueOrderNames;
    case Setting::kSeed:
      return simulate ? "Seed (tie-breaking, synthetic workloads)" : "Seed of the random generator (tie-breaking)";
    case Setting::kConfig:
      if (command == Command::kServe) return "KubeSchedulerConfiguration whose first profile's filters gpusched runs";
      return simulate ? "KubeSchedulerConfiguration file (profile, backoff)"
                      : "KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1)";
    case Setting::kFeatureGates:
      if (simulate)
        return "kube-scheduler feature gates, e.g. SchedulerPopFromBackoffQ=false (the v1.32 queue), "
               "SchedulerQueueingHints=false (every event requeues every pod)";
      return "kube-scheduler feature gates, e.g. GangScheduling=true (alpha in v1.35, for a --config profile enabling "
             "GangScheduling)";
    case Setting::kSchedulerName:
      return "Serve the pods of another scheduler (spec.schedulerName NAME, e.g. kai-scheduler) with a gpusched "
             "policy: NAME=POLICY; repeatable";
    case Setting::kPreemptGangs:
      return "What DefaultPreemption does to a victim's gang: upstream (evicts the victims only, as kube-scheduler) "
             "or whole (a gang left below minCount loses every member, as KAI/Volcano)";
  }
  return "";
}

std::string MarkdownFlag(Setting s) { return "`" + FlagName(s) + "`"; }

}  // namespace

std::string FlagName(Setting s) {
  switch (s) {
    case Setting::kPolicy:
      return "--policy";
    case Setting::kOrder:
      return "--order";
    case Setting::kSeed:
      return "--seed";
    case Setting::kConfig:
      return "--config";
    case Setting::kFeatureGates:
      return "--feature-gates";
    case Setting::kSchedulerName:
      return "--scheduler-name";
    case Setting::kPreemptGangs:
      return "--preempt-gangs";
  }
  return "";
}

void AddSettingFlags(CLI::App* cmd, RunOptions& o, Command command, std::initializer_list<Setting> settings) {
  for (Setting s : settings) {
    const std::string help = Purpose(s, command) + " (default: " + DefaultText(s, command).Render(FlagName) + ")";
    const std::string name = FlagName(s);
    switch (s) {
      case Setting::kPolicy:
        cmd->add_option(name, o.policy, help);
        break;
      case Setting::kOrder:
        cmd->add_option(name, o.order, help);
        break;
      case Setting::kSeed:
        cmd->add_option_function<uint64_t>(name, [&o](const uint64_t& v) { o.seed = v; }, help)
            ->check(WholeNumber(0, std::numeric_limits<uint64_t>::max()));
        break;
      case Setting::kConfig:
        cmd->add_option(name, o.config, help);
        break;
      case Setting::kFeatureGates:
        cmd->add_option(name, o.feature_gates, help);
        break;
      case Setting::kSchedulerName:
        // One value per occurrence, so that explain's POD is never taken for one.
        cmd->add_option(name, o.scheduler_names, help)
            ->expected(1)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        break;
      case Setting::kPreemptGangs:
        cmd->add_option(name, o.preempt_gangs, help);
        break;
    }
  }
}

int PrintRunError(std::ostream& err, const RunError& error) {
  err << "error: " << error.Message(FlagName) << "\n";
  return kExitUsage;
}

void PrintWarnings(std::ostream& err, const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) err << "warning: " << w << "\n";
}

std::string DefaultsMarkdown() {
  auto cell = [](const SettingText& t) { return t.empty() ? std::string("—") : t.Render(MarkdownFlag); };
  std::string out =
      "| Setting | Flag | `schedule`, `explain` | `simulate` | `serve` | Why the commands differ |\n"
      "|---|---|---|---|---|---|\n";
  for (const DefaultRow& row : DefaultsTable()) {
    out += "| " + ConceptName(row.setting) + " | " + MarkdownFlag(row.setting) + " | " + cell(row.schedule) + " | " +
           cell(row.simulate) + " | " + cell(row.serve) + " | " + (row.why.empty() ? "" : row.why.Render(MarkdownFlag)) +
           " |\n";
  }
  return out;
}

}  // namespace gpusched
