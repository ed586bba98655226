#include "gpusched/run/feature_gates.h"

#include <string>
#include <vector>

#include "gpusched/util/did_you_mean.h"

namespace gpusched {
namespace {

struct Gate {
  std::string_view name;
  bool queue;  // read by simulate only: schedule has no queue to configure
  bool& (*field)(FeatureGates&);
};

constexpr Gate kGates[] = {
    {"GangScheduling", false, [](FeatureGates& g) -> bool& { return g.gang.gang_scheduling; }},
    {"GenericWorkload", false, [](FeatureGates& g) -> bool& { return g.gang.generic_workload; }},
    {"SchedulerPopFromBackoffQ", true, [](FeatureGates& g) -> bool& { return g.pop_from_backoff_q; }},
    {"SchedulerQueueingHints", true, [](FeatureGates& g) -> bool& { return g.queueing_hints; }},
};

bool Reads(Command command, const Gate& gate) {
  if (command == Command::kServe) return false;
  return !gate.queue || command == Command::kSimulate;
}

// "GangScheduling=true|false and GenericWorkload=true|false".
std::string Syntax(bool queue) {
  std::string out;
  for (const Gate& g : kGates)
    if (g.queue == queue) out += (out.empty() ? "" : " and ") + std::string(g.name) + "=true|false";
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
    m << "gpusched simulates only " << Syntax(true) << "), and reads " << Syntax(false) << " for gangs";
  } else {
    m << "schedule reads " << Syntax(false) << ")";
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
