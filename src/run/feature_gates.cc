#include "gpusched/run/feature_gates.h"

#include <string>
#include <vector>

#include "gpusched/util/did_you_mean.h"

namespace gpusched {
namespace {

// What a gate changes: gangs, the scheduling queue (simulate only:
// schedule has no queue to configure), DRA (DynamicResources).
enum class Group { kGang, kQueue, kDra };

struct Gate {
  std::string_view name;
  Group group;
  bool& (*field)(FeatureGates&);
};

constexpr Gate kGates[] = {
    {"GangScheduling", Group::kGang, [](FeatureGates& g) -> bool& { return g.gang.gang_scheduling; }},
    {"GenericWorkload", Group::kGang, [](FeatureGates& g) -> bool& { return g.gang.generic_workload; }},
    {"SchedulerPopFromBackoffQ", Group::kQueue, [](FeatureGates& g) -> bool& { return g.pop_from_backoff_q; }},
    {"SchedulerQueueingHints", Group::kQueue, [](FeatureGates& g) -> bool& { return g.queueing_hints; }},
    {"DRAAdminAccess", Group::kDra, [](FeatureGates& g) -> bool& { return g.dra.admin_access; }},
    {"DRAConsumableCapacity", Group::kDra, [](FeatureGates& g) -> bool& { return g.dra.consumable_capacity; }},
    {"DRADeviceBindingConditions", Group::kDra,
     [](FeatureGates& g) -> bool& { return g.dra.device_binding_conditions; }},
    {"DRADeviceTaints", Group::kDra, [](FeatureGates& g) -> bool& { return g.dra.device_taints; }},
    {"DRAPartitionableDevices", Group::kDra, [](FeatureGates& g) -> bool& { return g.dra.partitionable_devices; }},
    {"DRAPrioritizedList", Group::kDra, [](FeatureGates& g) -> bool& { return g.dra.prioritized_list; }},
};

bool Reads(Command command, const Gate& gate) {
  if (command == Command::kServe) return false;
  return gate.group != Group::kQueue || command == Command::kSimulate;
}

// "GangScheduling=true|false and GenericWorkload=true|false"; three or
// more are listed "A=true|false, B=true|false and C=true|false".
std::string Syntax(Group group) {
  std::vector<std::string> names;
  for (const Gate& g : kGates)
    if (g.group == group) names.push_back(std::string(g.name) + "=true|false");
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// "did you mean GangScheduling=true? " for an unknown gate name near one
// that `command` reads, else "".
std::string NearGate(std::string_view entry, Command command) {
  const size_t eq = entry.find('=');
  std::vector<std::string> names;
  for (const Gate& g : kGates)
    if (Reads(command, g)) names.emplace_back(g.name);
  std::vector<std::string> near = NearNames(entry.substr(0, eq), names);
  if (eq != std::string_view::npos)
    for (std::string& n : near) n += entry.substr(eq);
  const std::string phrase = DidYouMean(near);
  return phrase.empty() ? "" : phrase + " ";
}

RunError Unsupported(RunError::Kind kind, std::string_view entry, Command command) {
  SettingText m;
  m << "unsupported " << Setting::kFeatureGates << " entry \"" << entry << "\" (";
  if (kind == RunError::Kind::kUnknownName) m << NearGate(entry, command);
  if (command == Command::kSimulate) {
    m << "gpusched simulates only " << Syntax(Group::kQueue) << "), and reads " << Syntax(Group::kGang)
      << " for gangs and " << Syntax(Group::kDra) << " for DRA";
  } else {
    m << "schedule reads " << Syntax(Group::kGang) << " for gangs and " << Syntax(Group::kDra) << " for DRA)";
  }
  return RunError{kind, Setting::kFeatureGates, m};
}

}  // namespace

RunResult<FeatureGates> ParseFeatureGates(std::string_view text, Command command) {
  FeatureGates gates;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view entry = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    const size_t eq = entry.find('=');
    const std::string_view name = entry.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : entry.substr(eq + 1);
    const Gate* gate = nullptr;
    for (const Gate& g : kGates)
      if (g.name == name && Reads(command, g)) gate = &g;
    if (gate == nullptr) return Unsupported(RunError::Kind::kUnknownName, entry, command);
    if (value != "true" && value != "false") return Unsupported(RunError::Kind::kInvalidValue, entry, command);
    gate->field(gates) = value == "true";
  }
  return gates;
}

SettingText GateDefaults(Command command) {
  FeatureGates defaults;
  std::string out;
  for (const Gate& g : kGates)
    if (Reads(command, g))
      out += (out.empty() ? "" : ", ") + std::string(g.name) + "=" + (g.field(defaults) ? "true" : "false");
  return SettingText(out);
}

}  // namespace gpusched
