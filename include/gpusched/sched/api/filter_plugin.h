// FilterPlugin: the Filter extension point of the scheduling framework. A
// plugin says whether one pod may run on one node given what is in use there.
// Plugins are stateless once made and registered by name
// (sched/plugins/registry.h). Beside Filter, a filter answers what the
// framework asks of whatever may reject a pod: its queueing hints (which
// cluster events may make a rejected pod schedulable) and its part in the
// diagnosis (why a node it rejects will never take the pod).
#ifndef GPUSCHED_SCHED_API_FILTER_PLUGIN_H_
#define GPUSCHED_SCHED_API_FILTER_PLUGIN_H_

#include <memory>
#include <string>
#include <string_view>

#include "gpusched/model/cluster_state.h"
#include "gpusched/model/node.h"
#include "gpusched/sched/api/cycle_state.h"
#include "gpusched/sched/api/filter_verdict.h"
#include "gpusched/sched/api/plugin.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/sched/api/status.h"

namespace gpusched {

// What a filter declares about itself, for the scheduler's fast paths and
// caches: each one that skips running the chain on some node relies on
// these, never on the filter's class. Everything defaults to false, so a
// filter that declares nothing turns those paths off instead of being
// skipped silently.
struct FilterTraits {
  // For a pod the filter's PreFilter skips (or every pod, for a filter
  // without PreFilter): reads of a pod only its class (pod_class.h) and of a node only its name,
  // labels, taints, unschedulable flag and free resources and devices; a
  // bind can only turn its verdict on a node from pass to fail; beyond
  // `checks_fit` and `checks_devices` it never rejects a schedulable node
  // without NoSchedule/NoExecute taints for a pod without nodeName,
  // nodeSelector or required node affinity (Scheduler::SyncPlain). The
  // failure summaries, the diagnosis cache and the index's "decided by the
  // index" case need every filter of the chain to declare it.
  bool in_tree = false;
  // Rejects every node whose free amounts fall short of the pod's requests
  // (NodeResourcesFit): the node index may prune on them.
  bool checks_fit = false;
  // With checks_fit: nvidia.com/gpu is among the resources checked.
  bool checks_gpu_count = false;
  // Rejects every node without `count` devices with the pod's share free
  // (GpuShare): the index may prune on the largest free share.
  bool checks_devices = false;
};

class FilterPlugin : public virtual Plugin {
 public:
  // PreFilter (upstream's, with its Skip status): called once per pod and
  // scheduling attempt before any Check, with the whole cluster, when
  // HasPreFilter() says the plugin has one. Returns the pod's state for
  // Check, which reads it as pod.cycle->Get<T>(this) (cycle_state.h has the
  // contract), or nullptr: Skip, the plugin has nothing to check for this
  // pod and Check passes every node without state. Setting `reject` to an
  // Unschedulable or UnschedulableAndUnresolvable status rejects the pod on
  // every node with that message (FitError.pre_filter_message, as upstream's
  // Diagnosis.PreFilterMsg). Must be cheap when it skips: it runs for every
  // pod, also where the fast paths serve the rest.
  virtual bool HasPreFilter() const { return false; }
  virtual std::unique_ptr<PreFilterData> PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                   SchedStatus& reject) const {
    (void)pod, (void)cluster, (void)reject;
    return nullptr;
  }
  // True when the node passes. Otherwise, when `why` is given, sets its code
  // and appends the reasons (`why` arrives Reset). Allocation-free apart from
  // `why`'s reused buffer: the scheduler calls it for every node it visits.
  // Passing nullptr lets the plugin stop at the first failed check.
  virtual bool Check(const PodInfo& pod, const Node& node, const NodeState& state, FilterVerdict* why) const = 0;
  // See FilterTraits; a subclass that reads more than its base must say so.
  virtual FilterTraits Traits() const { return {}; }
  // A resource the filter is configured not to check although it checks
  // resources (NodeResourcesFitArgs.ignoredResources): the diagnosis never
  // blames it.
  virtual bool IgnoresResource(std::string_view resource) const { (void)resource; return false; }

  // Queueing hints (upstream EnqueueExtensions: EventsToRegister with a
  // QueueingHintFn per event), asked by the simulator's scheduling queue for a
  // pod this filter rejected: true is Queue (the event may make it fit),
  // false is QueueSkip. A filter without hints queues on every event.
  virtual bool QueueOnNodeAdded(const PodInfo& pod, const Node& node, const NodeState& state) const {
    (void)pod, (void)node, (void)state;
    return true;
  }
  virtual bool QueueOnAssignedPodDeleted() const { return true; }
  // A bound pod, `deleted`, finished or was evicted (AssignedPodDelete with
  // the pod known): for filters whose hint reads the deleted pod
  // (InterPodAffinity). Defaults to QueueOnAssignedPodDeleted().
  virtual bool QueueOnPodDeleted(const PodInfo& pod, const Pod& deleted) const {
    (void)pod, (void)deleted;
    return QueueOnAssignedPodDeleted();
  }
  // A pod was bound (upstream's AssignedPodAdd, which InterPodAffinity and
  // PodTopologySpread register): `added` on `node`. Binds only ever turned
  // verdicts from pass to fail before pod affinity, so the default is
  // QueueSkip.
  virtual bool QueueOnAssignedPodAdded(const PodInfo& pod, const Pod& added, const Node& node) const {
    (void)pod, (void)added, (void)node;
    return false;
  }

  // The diagnosis ("can never fit: every node is excluded before resources
  // are even compared: ..."). NeverPasses says why the filter rejects `node`
  // whatever runs on it, as a reason code > 0 of its own, or 0 when what runs
  // there may matter (filters whose verdict depends only on the pod and the
  // node answer with their verdict: 1 for a failure). ExclusionPhrase ends
  // "N node(s) <phrase>" for the nodes it rejected with `reason`; "" says
  // nothing of them.
  virtual int NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const {
    return Check(pod, node, state, nullptr) ? 0 : 1;
  }
  virtual std::string ExclusionPhrase(const PodInfo& pod, const ClusterState& cluster, int reason) const {
    (void)pod, (void)cluster, (void)reason;
    return {};
  }
  // What `gpusched explain` adds to the reasons of a node this filter
  // rejected (NodeExplain::detail), naming what on or around the node is in
  // the way ("node a runs web-0, which holds hostPort 8080/TCP"); "" adds
  // nothing. The diagnosis asks it too, also of a dry-run copy of a node's
  // state (pods taken off), and names a running pod it returns. A filter
  // that needs the cluster reads it from its PreFilter state (pod.cycle).
  // Never part of the FitError, whose text stays upstream's.
  virtual std::string ExplainRejection(const PodInfo& pod, const Node& node, const NodeState& state) const {
    (void)pod, (void)node, (void)state;
    return {};
  }
  // The verdict as kube-scheduler's Status (without the plugin name), built
  // from Check so the two can never disagree.
  SchedStatus Filter(const PodInfo& pod, const Node& node, const NodeState& state) const {
    FilterVerdict v;
    if (Check(pod, node, state, &v)) return SchedStatus::Success();
    return v.ToStatus();
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_FILTER_PLUGIN_H_
