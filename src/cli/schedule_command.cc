// `gpusched schedule`: load manifests, schedule the pods in one batch, print
// the report.
#include <algorithm>

#include "gpusched/cli/cli.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/report/json_writer.h"
#include "gpusched/report/table_writer.h"
#include "gpusched/sched/batch.h"
#include "gpusched/sched/filters.h"
#include "gpusched/sched/policy.h"

namespace gpusched {

int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err) {
  std::unique_ptr<Policy> policy = NewPolicy(flags.policy);
  if (!policy) {
    std::string names;
    for (const auto& p : PolicyNames()) names += (names.empty() ? "" : ", ") + p;
    err << "error: unknown --policy \"" << flags.policy << "\" (known: " << names << ")\n";
    return kExitUsage;
  }
  std::optional<QueueOrder> order = ParseQueueOrder(flags.order);
  if (!order) {
    err << "error: unknown --order \"" << flags.order << "\" (known: fifo, largest-first)\n";
    return kExitUsage;
  }
  if (flags.output != "table" && flags.output != "json") {
    err << "error: unknown --output \"" << flags.output << "\" (known: table, json)\n";
    return kExitUsage;
  }

  Manifests m;
  Status st = LoadManifestPaths(flags.files, LoadOptions{flags.recursive}, m);
  if (!st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& w : m.warnings) err << "warning: " << w << "\n";

  std::vector<Node> nodes;
  nodes.reserve(m.nodes.size());
  for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
  ClusterState cluster(std::move(nodes));
  std::vector<const Pod*> pods;
  pods.reserve(m.pods.size());
  for (const auto& p : m.pods) pods.push_back(&p.pod);

  Scheduler scheduler(DefaultFilters(), std::move(policy), flags.seed);
  BatchResult result = ScheduleBatch(pods, cluster, scheduler, *order);

  RunReport report{cluster, pods, result, m.rejected, m.warnings, flags.policy, QueueOrderName(*order)};
  if (flags.output == "json") {
    WriteJson(out, report);
  } else {
    WriteTable(out, report);
  }
  // The table lists rejected objects itself; with JSON on stdout, a person
  // still sees them on stderr.
  if (flags.output == "json")
    for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
  return (m.rejected.empty() && result.refused.empty()) ? kExitOk : kExitRejected;
}

}  // namespace gpusched
