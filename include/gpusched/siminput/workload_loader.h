// Turning loaded Kubernetes manifests into a simulation Workload. Time comes
// from annotations (names in sim/workload.h):
//   Pod  gpusched.io/arrival-time  when it is submitted (default 0)
//   Pod  gpusched.io/duration      how long it runs once bound (default: forever)
//   Node gpusched.io/add-time      it joins the cluster then (a kAdd event)
//                                  instead of being there from the start
//   Node gpusched.io/remove-time   it leaves then (a kRemove event)
// Values are seconds ("90", "1.5") or Go-style durations ("90s", "5m",
// "1h30m", "250ms"). An object with a value that is not one, or negative, is
// rejected (file, line, object and annotation named, in kubectl's words) and
// takes no part in the simulation.
#ifndef GPUSCHED_SIMINPUT_WORKLOAD_LOADER_H_
#define GPUSCHED_SIMINPUT_WORKLOAD_LOADER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/duration.h"
#include "gpusched/model/node.h"
#include "gpusched/model/validation.h"
#include "gpusched/sim/workload.h"
#include "gpusched/util/status.h"

namespace gpusched {

// Seconds from "90", "1.5", ".5" or a Go duration (model/duration.h's
// ParseDurationSeconds, which this names for the timing annotations).
std::optional<double> ParseSimSeconds(std::string_view text);

// The error for a time value that ParseSimSeconds refuses: "must be greater
// than or equal to 0" for a negative one, else "must be a number of seconds
// or a duration such as 90s, 5m or 1h30m".
FieldError InvalidSimSeconds(std::string field, std::string_view text);

// Fills `initial_nodes` with the nodes present at time 0 (every node without
// gpusched.io/add-time, in input order) and `out` with the pods (in input
// order, with their file and line) and the node events. A node with both
// annotations joins at add-time and leaves at remove-time, which must not be
// earlier. `m.rejected` and `m.warnings` are put into `out` first, so that
// `out` holds everything to report. Both outputs are appended to. `m` is
// taken by value: pass it with std::move and no pod or node is copied.
// Every problem concerns one object and lands in out.rejected, so the Status
// is OK today; it is kept so that callers treat this step like the loaders
// that read files.
Status LoadManifestWorkload(Manifests m, std::vector<Node>& initial_nodes, Workload& out);

}  // namespace gpusched

#endif  // GPUSCHED_SIMINPUT_WORKLOAD_LOADER_H_
