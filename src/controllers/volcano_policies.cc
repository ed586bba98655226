#include "gpusched/controllers/volcano_policies.h"

#include <algorithm>
#include <set>

#include "gpusched/model/field_error.h"

namespace gpusched {
namespace {

// policyEventMap and policyActionMap: true for what a user may write
// (volcano.sh/apis pkg/apis/bus/v1alpha1 events.go and actions.go).
struct Allowed {
  const char* name;
  bool allow;
};
constexpr Allowed kEvents[] = {{"*", true},          {"PodFailed", true},     {"PodEvicted", true},
                               {"PodPending", true}, {"Unknown", true},       {"TaskCompleted", true},
                               {"TaskFailed", true}, {"JobUpdated", true},    {"OutOfSync", false},
                               {"CommandIssued", false}, {"PodRunning", false}};
constexpr Allowed kActions[] = {{"AbortJob", true},     {"RestartJob", true},       {"RestartTask", true},
                                {"RestartPod", true},   {"RestartPartition", true}, {"TerminateJob", true},
                                {"CompleteJob", true},  {"ResumeJob", true},        {"SyncJob", false},
                                {"EnqueueJob", false},  {"SyncQueue", false},       {"OpenQueue", false},
                                {"CloseQueue", false}};

template <size_t N>
bool IsAllowed(const Allowed (&table)[N], const std::string& name) {
  for (const Allowed& a : table)
    if (name == a.name) return a.allow;
  return false;
}

template <size_t N>
std::string GoSliceOfAllowed(const Allowed (&table)[N]) {
  std::string s = "[";
  bool first = true;
  for (const Allowed& a : table) {
    if (!a.allow) continue;
    s += (first ? "" : " ") + std::string(a.name);
    first = false;
  }
  return s + "]";
}

// hashicorp/go-multierror's ListFormatFunc.
std::string MultiError(const std::vector<std::string>& errs) {
  if (errs.size() == 1) return "1 error occurred:\n\t* " + errs[0] + "\n\n";
  std::string s = std::to_string(errs.size()) + " errors occurred:\n\t";
  for (size_t i = 0; i < errs.size(); ++i) s += (i ? "\n\t* " : "* ") + errs[i];
  return s + "\n\n";
}

}  // namespace

std::string ValidateVolcanoPolicies(const std::vector<VolcanoPolicy>& policies, const std::string& field_path) {
  std::vector<std::string> errs;
  std::set<std::string> seen_events;
  std::set<int64_t> seen_codes;
  for (const VolcanoPolicy& policy : policies) {
    if (policy.has_event && policy.exit_code) {
      errs.push_back("must not specify event and exitCode simultaneously");
      break;
    }
    if (!policy.has_event && !policy.exit_code) {
      errs.push_back("either event and exitCode should be specified");
      break;
    }
    if (policy.has_event) {
      bool stop = false;
      for (const std::string& event : policy.events) {
        if (!IsAllowed(kEvents, event)) {
          errs.push_back(FieldError::Invalid(field_path, event, "invalid policy event").ToString());
          stop = true;
          break;
        }
        if (!IsAllowed(kActions, policy.action)) {
          errs.push_back(FieldError::Invalid(field_path, policy.action, "invalid policy action").ToString());
          stop = true;
          break;
        }
        if (!seen_events.insert(event).second) {
          errs.push_back("duplicate event " + event + "  across different policy");
          stop = true;
          break;
        }
      }
      if (stop) break;
    } else {
      if (*policy.exit_code == 0) {
        errs.push_back("0 is not a valid error code");
        break;
      }
      if (!seen_codes.insert(*policy.exit_code).second) {
        errs.push_back("duplicate exitCode " + std::to_string(*policy.exit_code));
        break;
      }
    }
  }
  if (seen_events.count("*") && seen_events.size() > 1) errs.push_back("if there's * here, no other policy should be here");
  if (errs.empty()) return "";
  return MultiError(errs) + " valid events are " + GoSliceOfAllowed(kEvents) + ", valid actions are " +
         GoSliceOfAllowed(kActions) + ";";
}

std::vector<std::pair<std::string, std::string>> PolicyEventActions(const std::vector<VolcanoPolicy>& policies) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const VolcanoPolicy& p : policies)
    for (const std::string& e : p.events) out.emplace_back(e, p.action);
  return out;
}

}  // namespace gpusched
