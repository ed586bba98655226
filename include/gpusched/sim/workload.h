// Workload: what a simulation replays — pods with an arrival time and a run
// time, and cluster events (nodes added or removed at given times). It is
// built by the loaders in siminput/ (manifests with gpusched.io/* annotations, the
// Alibaba GPU trace) or by the synthetic generator (sim/synthetic.h).
#ifndef GPUSCHED_SIM_WORKLOAD_H_
#define GPUSCHED_SIM_WORKLOAD_H_

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/model/pdb.h"
#include "gpusched/model/pod.h"
#include "gpusched/util/input_error.h"

namespace gpusched {

// Annotations that give a manifest pod its place in time. Values are seconds
// ("90", "1.5") or Go-style durations ("90s", "5m", "1h30m").
inline constexpr std::string_view kAnnotationArrivalTime = "gpusched.io/arrival-time";
inline constexpr std::string_view kAnnotationDuration = "gpusched.io/duration";
// On a Node: the simulated time it joins (absent: present from 0) or leaves.
inline constexpr std::string_view kAnnotationNodeAddTime = "gpusched.io/add-time";
inline constexpr std::string_view kAnnotationNodeRemoveTime = "gpusched.io/remove-time";

// The name of the file objects were read from, shared by all of them: a
// million-row trace would otherwise hold a million copies of its path (32
// bytes inline plus a heap block each). Copies share one string.
class SourceFile {
 public:
  SourceFile() = default;
  // Implicit: wherever a file name was a std::string, it still can be.
  SourceFile(std::string path) : path_(std::make_shared<const std::string>(std::move(path))) {}
  SourceFile(const char* path) : SourceFile(std::string(path)) {}

  const std::string& str() const { return path_ ? *path_ : Empty(); }
  operator const std::string&() const { return str(); }
  bool empty() const { return str().empty(); }

  friend bool operator==(const SourceFile& a, std::string_view b) { return a.str() == b; }
  friend std::ostream& operator<<(std::ostream& os, const SourceFile& f) { return os << f.str(); }

 private:
  static const std::string& Empty() {
    static const std::string empty;
    return empty;
  }
  std::shared_ptr<const std::string> path_;
};

struct WorkloadPod {
  Pod pod;
  double arrival = 0;     // simulated seconds
  double duration = -1;   // run time once bound; < 0 = runs until the end
  SourceFile file;        // where it came from, for messages
  int line = 0;
};

struct NodeEvent {
  enum class Kind { kAdd, kRemove };
  double time = 0;
  Kind kind = Kind::kAdd;
  Node node;          // kAdd: the node that joins
  std::string name;   // kRemove: the node that leaves
};

struct Workload {
  std::vector<WorkloadPod> pods;       // in input order
  std::vector<NodeEvent> node_events;  // any order; the simulator sorts by time, stably
  std::vector<InputError> rejected;    // invalid rows/objects, never silently dropped
  // policy/v1 PodDisruptionBudgets DefaultPreemption respects; their
  // disruptionsAllowed is computed at each preemption from the pods present
  // (running ones healthy, terminating or waiting ones not), unless the
  // object carries a status.
  std::vector<PodDisruptionBudget> pdbs;
  std::vector<std::string> warnings;
};

}  // namespace gpusched

#endif  // GPUSCHED_SIM_WORKLOAD_H_
