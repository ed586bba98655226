// `gpusched schedule` and `gpusched explain`: load manifests (and a
// KubeSchedulerConfiguration), schedule the pods in one batch, print the
// report or one pod's explanation.
#include <algorithm>

#include "gpusched/cli/cli.h"
#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/model/cluster_state.h"
#include "gpusched/report/explain_writer.h"
#include "gpusched/report/json_writer.h"
#include "gpusched/report/table_writer.h"
#include "gpusched/sched/batch.h"
#include "gpusched/sched/frag.h"
#include "gpusched/sched/policy_registry.h"
#include "gpusched/sched/profile_factory.h"

namespace gpusched {

int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err) {
  const std::string policy = !flags.policy.empty() ? flags.policy : (flags.config.empty() ? "first-fit" : "kube-default");
  const std::string order_name = !flags.order.empty() ? flags.order : (policy == "kube-default" ? "priority" : "fifo");
  std::optional<QueueOrder> order = ParseQueueOrder(order_name);
  if (!order) {
    err << "error: unknown --order \"" << order_name << "\" (known: " << kQueueOrderNames << ")\n";
    return kExitUsage;
  }
  if (flags.output != "table" && flags.output != "json") {
    err << "error: unknown --output \"" << flags.output << "\" (known: table, json)\n";
    return kExitUsage;
  }

  KubeSchedulerConfiguration config = DefaultSchedulerConfiguration();
  if (!flags.config.empty()) {
    std::vector<std::string> cfg_warnings;
    Result<KubeSchedulerConfiguration> loaded = LoadSchedulerConfigFile(flags.config, &cfg_warnings);
    for (const auto& w : cfg_warnings) err << "warning: " << w << "\n";
    if (!loaded.ok()) {
      err << "error: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    config = std::move(loaded).value();
  }
  if (!IsKnownPolicy(policy)) {
    err << UnknownPolicyMessage(policy) << "\n";
    return kExitUsage;
  }
  std::vector<ExtraProfile> extra;
  for (const std::string& v : flags.scheduler_names) {
    Result<ExtraProfile> e = ParseSchedulerNameFlag(v);
    if (!e.ok()) {
      err << e.status().message() << "\n";
      return kExitUsage;
    }
    extra.push_back(std::move(e).value());
  }

  Manifests m;
  Status st = LoadManifestPaths(flags.files, LoadOptions{flags.recursive}, m);
  if (!st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& w : m.warnings) err << "warning: " << w << "\n";

  // FGD's target workload: the pods given (GetTypicalPods).
  std::vector<PodShape> shapes;
  shapes.reserve(m.pods.size());
  for (size_t i = 0; i < m.pods.size(); ++i) shapes.push_back(ShapeOf(PodInfo::Make(m.pods[i].pod, i)));
  const TypicalPods typical = ComputeTypicalPods(shapes);
  PolicyOptions popts;
  popts.typical = &typical;
  Result<SchedulerSet> schedulers = BuildSchedulers(config, policy, flags.seed, popts, extra);
  if (!schedulers.ok()) {
    err << schedulers.status().message() << "\n";
    return kExitUsage;
  }

  std::vector<Node> nodes;
  nodes.reserve(m.nodes.size());
  for (auto& n : m.nodes) nodes.push_back(std::move(n.node));
  ClusterState cluster(std::move(nodes));
  std::vector<const Pod*> pods;
  pods.reserve(m.pods.size());
  for (const auto& p : m.pods) pods.push_back(&p.pod);

  BatchOptions bopts{*order, flags.explain};
  bopts.dra = &m.dra;
  BatchResult result = ScheduleBatch(pods, cluster, schedulers->profiles, bopts);

  RunReport report{cluster, pods, result, m.rejected, m.warnings, policy, QueueOrderName(*order)};
  if (flags.explain) report.unimplemented = schedulers->unimplemented;
  const bool any_rejected = !m.rejected.empty() || !result.refused.empty();

  if (!flags.explain_pod.empty()) {
    const std::string& want = flags.explain_pod;
    for (size_t i = 0; i < pods.size(); ++i) {
      if (pods[i]->name() == want || pods[i]->ns() + "/" + pods[i]->name() == want) {
        WriteExplain(out, report, i);
        return any_rejected ? kExitRejected : kExitOk;
      }
    }
    for (const auto& e : m.rejected) {
      if (e.object.size() >= want.size() + 1 && e.object.ends_with("/" + want)) {
        out << "rejected, not scheduled: " << e.ToString() << "\n";
        return kExitRejected;
      }
    }
    err << "error: pod \"" << want << "\" is not in the input\n";
    return kExitUsage;
  }

  if (flags.output == "json") {
    WriteJson(out, report);
    // The table lists rejected objects itself; with JSON on stdout, a person
    // still sees them on stderr.
    for (const auto& e : m.rejected) err << "error: " << e.ToString() << "\n";
  } else {
    WriteTable(out, report);
  }
  return any_rejected ? kExitRejected : kExitOk;
}

}  // namespace gpusched
