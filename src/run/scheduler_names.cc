#include "gpusched/run/scheduler_names.h"

#include "gpusched/sched/policies/policy_registry.h"

namespace gpusched {
namespace {

RunError Invalid(std::string_view value, const SettingText& why,
                 RunError::Kind kind = RunError::Kind::kInvalidValue) {
  SettingText m;
  m << "invalid " << Setting::kSchedulerName << " \"" << value << "\": " << why;
  return RunError{kind, Setting::kSchedulerName, m};
}

RunResult<ExtraProfile> ParseOne(std::string_view value) {
  const size_t eq = value.find('=');
  if (eq == std::string_view::npos) return Invalid(value, "expected NAME=POLICY, e.g. kai-scheduler=best-fit");
  ExtraProfile e{std::string(value.substr(0, eq)), std::string(value.substr(eq + 1))};
  if (e.scheduler_name.empty()) return Invalid(value, "the scheduler name before \"=\" is empty");
  if (e.policy.empty()) return Invalid(value, "the policy after \"=\" is empty");
  if (!IsKnownPolicy(e.policy))
    return Invalid(value, UnknownPolicyText("policy", e.policy), RunError::Kind::kUnknownName);
  return e;
}

RunError Conflict(const SettingText& m) { return RunError{RunError::Kind::kConflict, Setting::kSchedulerName, m}; }

}  // namespace

SettingText UnknownPolicyText(const SettingText& what, std::string_view name) {
  return UnknownNameText(what, name, PolicyNames());
}

RunResult<std::vector<ExtraProfile>> ParseSchedulerNames(const std::vector<std::string>& values,
                                                         const KubeSchedulerConfiguration& config) {
  std::vector<ExtraProfile> extra;
  extra.reserve(values.size());
  for (const std::string& v : values) {
    RunResult<ExtraProfile> e = ParseOne(v);
    if (!e.ok()) return e.error();
    extra.push_back(std::move(e).value());
  }
  for (size_t k = 0; k < extra.size(); ++k) {
    const ExtraProfile& e = extra[k];
    for (size_t j = 0; j < k; ++j)
      if (extra[j].scheduler_name == e.scheduler_name)
        return Conflict(SettingText() << Setting::kSchedulerName << " " << e.scheduler_name << " is given twice");
    for (const SchedulerProfile& p : config.profiles) {
      if (p.scheduler_name != e.scheduler_name) continue;
      SettingText m;
      m << Setting::kSchedulerName << " " << e.scheduler_name << "=" << e.policy << ": \"" << e.scheduler_name
        << "\" is already served by ";
      if (p.scheduler_name == kDefaultSchedulerName) {
        m << Setting::kPolicy << " (or the " << Setting::kConfig << " profile of that name)";
      } else {
        m << "a profile of " << Setting::kConfig;
      }
      return Conflict(m);
    }
  }
  return extra;
}

}  // namespace gpusched
