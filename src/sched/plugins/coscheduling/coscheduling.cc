// Coscheduling's args (coscheduling.h).
#include "gpusched/sched/plugins/coscheduling/coscheduling.h"

#include <optional>
#include <type_traits>

namespace gpusched {

void DecodeCoschedulingArgs(ArgsReader& r, ArgsReader::Node args, const std::string& path,
                            SchedulerProfile& profile) {
  r.WarnUnknown(args, path, {"apiVersion", "kind", "permitWaitingTimeSeconds", "podGroupBackoffSeconds",
                             "podGroupRejectPercentage"});
  CoschedulingArgs a;
  auto read = [&](const char* key, auto& field, bool percentage) {
    const std::string p = path + "." + key;
    std::optional<int64_t> v = r.Int(args, key, p);
    if (!v) return;
    if (*v < 0 || (percentage && *v > 100))
      r.Error(p, r.At(args, key),
              "Invalid value: " + std::to_string(*v) +
                  (percentage ? ": must be between 0 and 100" : ": must be greater than 0"));
    field = static_cast<std::remove_reference_t<decltype(field)>>(*v);
  };
  read("permitWaitingTimeSeconds", a.permit_waiting_time_seconds, false);
  read("podGroupBackoffSeconds", a.pod_group_backoff_seconds, false);
  read("podGroupRejectPercentage", a.pod_group_reject_percentage, true);
  profile.coscheduling_args = a;
}

}  // namespace gpusched
