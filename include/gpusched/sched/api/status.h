// SchedStatus: a scheduling verdict in kube-scheduler's terms
// (pkg/scheduler/framework/interface.go Status): a code, the reasons, and the
// plugin that produced it. Not an input error; see gpusched/util/status.h.
#ifndef GPUSCHED_SCHED_API_STATUS_H_
#define GPUSCHED_SCHED_API_STATUS_H_

#include <string>
#include <utility>
#include <vector>

namespace gpusched {

class SchedStatus {
 public:
  enum class Code { kSuccess, kError, kUnschedulable, kUnschedulableAndUnresolvable, kSkip };

  SchedStatus() = default;
  SchedStatus(Code code, std::vector<std::string> reasons) : code_(code), reasons_(std::move(reasons)) {}

  static SchedStatus Success() { return SchedStatus(); }
  static SchedStatus Unschedulable(std::string reason) { return SchedStatus(Code::kUnschedulable, {std::move(reason)}); }
  static SchedStatus Unresolvable(std::string reason) {
    return SchedStatus(Code::kUnschedulableAndUnresolvable, {std::move(reason)});
  }

  bool IsSuccess() const { return code_ == Code::kSuccess; }
  Code code() const { return code_; }
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::string& plugin() const { return plugin_; }
  void set_plugin(std::string p) { plugin_ = std::move(p); }

 private:
  Code code_ = Code::kSuccess;
  std::vector<std::string> reasons_;
  std::string plugin_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_STATUS_H_
