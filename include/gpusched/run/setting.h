// The settings a run is made of (policy, queue order, seed, configuration,
// feature gates, scheduler names, gang preemption), the commands that take
// them, and SettingText: a sentence that refers to settings without spelling
// them. The run layer and the engine name a setting by its concept ("unknown
// policy ..."); cli, the only layer that knows the command line, renders the
// same sentence with the flag ("unknown --policy ..."), so both read one
// sentence written once.
#ifndef GPUSCHED_RUN_SETTING_H_
#define GPUSCHED_RUN_SETTING_H_

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gpusched {

enum class Setting { kPolicy, kOrder, kSeed, kConfig, kFeatureGates, kSchedulerName, kPreemptGangs };

// The commands that run the engine. explain is schedule with one pod's
// detail; serve answers kube-scheduler's extender calls.
enum class Command { kSchedule, kExplain, kSimulate, kServe };

// "policy", "queue order", "seed", "configuration", "feature gates",
// "scheduler name", "gang preemption".
std::string ConceptName(Setting s);

// How a SettingText names a setting.
using SettingNamer = std::string (*)(Setting);

// Text and setting references, in order: SettingText() << "unknown " <<
// Setting::kPolicy << " \"" << value << "\"" renders "unknown policy \"x\""
// with ConceptName and "unknown --policy \"x\"" with a flag namer.
class SettingText {
 public:
  SettingText() = default;
  // Plain text, or one setting, is a SettingText.
  SettingText(std::string_view text) { *this << text; }                  // NOLINT
  SettingText(const char* text) : SettingText(std::string_view(text)) {}  // NOLINT
  SettingText(const std::string& text) : SettingText(std::string_view(text)) {}  // NOLINT
  SettingText(Setting s) { *this << s; }                                  // NOLINT

  SettingText& operator<<(std::string_view text);
  SettingText& operator<<(const char* text) { return *this << std::string_view(text); }
  SettingText& operator<<(const std::string& text) { return *this << std::string_view(text); }
  SettingText& operator<<(Setting s);
  SettingText& operator<<(const SettingText& other);

  std::string Render(SettingNamer name = ConceptName) const;
  bool empty() const { return parts_.empty(); }
  bool operator==(const SettingText& o) const = default;

 private:
  std::vector<std::variant<std::string, Setting>> parts_;
};

// "unknown <what> \"name\" (known: a, b, c)", with "did you mean b? " before
// "known" when names of `known` are near `name` (util/did_you_mean.h).
SettingText UnknownNameText(const SettingText& what, std::string_view name, const std::vector<std::string>& known);

// "a, b, c" as {"a", "b", "c"}.
std::vector<std::string> SplitNameList(std::string_view list);

}  // namespace gpusched

#endif  // GPUSCHED_RUN_SETTING_H_
