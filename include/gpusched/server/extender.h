// ExtenderService: the four verbs of a kube-scheduler HTTP extender (filter,
// prioritize, preempt, bind) over gpusched's cluster view, independent of
// HTTP (server/http_server.h serves it), so that the wire tests call it
// directly. Each verb takes the request body and returns the status code
// and body to send:
//  - 200 with the extender/v1 result;
//  - 400 with a plain-text message naming what is wrong (malformed JSON and
//    its line and column, a field of the wrong type in Go's words, a pod the
//    API server would refuse);
//  - 503 before the cluster view has its first list (live mode).
// A node the view does not know fails filter with kReasonUnknownNode and
// scores 0. Bind assumes the pod in the view (server/cluster_view.h), then
// binds through the Binder outside the lock; a bind the API server refuses
// comes back as ExtenderBindingResult.Error with the API server's message,
// and the pod is forgotten. /preempt answers kube-scheduler's candidates
// with DefaultPreemption's victim selection on the view
// (server/preempt_verb.h).
//
// Filter and prioritize by node names (nodeCacheCapable: true) take the
// fast path unless ExtenderOptions::plain: the body is scanned, not parsed
// into a tree (server/args_scanner.h), the pod decoded once for filter and
// prioritize (server/request_pod.h), a node list already seen taken with its
// slots (NameListCache, which also keeps the list filter answered: it is
// prioritize's), and the answer written from positions in the request
// (server/answer_writer.h). A body the scanner leaves alone (full Nodes,
// escapes, any error) takes the generic path: WithJsonBody, DecodeExtenderArgs
// and the ExtenderFilterResult writer, which also word every 400.
//
// Thread-safe: the decisions and the view share one mutex, held only for
// the decision itself (verdicts from the FilterCache, the policy's ranking,
// the assume cache); bodies are parsed, node names resolved (through an
// immutable NodeNameIndex of the current node set, shared) and answers
// encoded outside it.
#ifndef GPUSCHED_SERVER_EXTENDER_H_
#define GPUSCHED_SERVER_EXTENDER_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "gpusched/model/pod.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/server/args_scanner.h"
#include "gpusched/server/cluster_view.h"
#include "gpusched/server/decisions.h"
#include "gpusched/server/filter_cache.h"
#include "gpusched/server/node_name_index.h"
#include "gpusched/server/metrics.h"
#include "gpusched/server/request_pod.h"
#include "gpusched/server/wire.h"
#include "gpusched/util/status.h"

namespace gpusched {

inline constexpr const char* kReasonUnknownNode = "node(s) were not in gpusched's cluster view";

struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

// What became of a bind: done, refused (status), or not known: the request
// was sent but no answer came in time (`maybe_bound`), so the API server may
// yet carry it out; the view then keeps the pod's assumption until the
// watch tells, or the assume TTL lapses.
struct BindResult {
  BindResult(Status s = Status::Ok(), bool maybe = false) : status(std::move(s)), maybe_bound(maybe) {}  // NOLINT
  Status status;
  bool maybe_bound = false;
};

// How a bind reaches the cluster: the API server's pods/binding subresource
// with the device annotations in the Binding (server/reflector.h
// ApiBinder), or nothing for a static snapshot. Called from several
// request threads at once.
class Binder {
 public:
  virtual ~Binder() = default;
  virtual BindResult Bind(const Pod& pod, const std::string& node,
                          const std::map<std::string, std::string>& annotations) = 0;
};

// Builds the Scheduler once the view has its first list: FGD's target
// workload comes from the pods the view holds then.
using SchedulerFactory = std::function<Result<SchedulerSet>(const ClusterView&)>;

struct ExtenderOptions {
  // No API server: binds count at once and for good.
  bool static_snapshot = false;
  // How long a bound pod stays assumed without the watch confirming it
  // (kube-scheduler's assume cache expiry).
  double assume_ttl_seconds = 30;
  uint64_t seed = 1;
  // The reference decision path: every node looked up with FindNode and
  // filtered on each request, and a policy without scores asked for each of
  // its picks in turn. The default (fast) path resolves names through a
  // NodeNameIndex, keeps verdicts per pod class (FilterCache) and ranks in
  // one pass (Policy::SelectInTurn); its answers are byte-identical
  // (tests/server/extender_fast_path_test.cc). The plain path also decodes
  // every body with the generic decoder and writes with the reference
  // writers.
  bool plain = false;
  // Request-seen unbound pods kept for their bind (ClusterView).
  size_t max_pending_pods = kDefaultMaxPendingPods;
};

class ExtenderService {
 public:
  using Clock = std::chrono::steady_clock;

  ExtenderService(SchedulerFactory factory, ExtenderOptions options, Binder* binder, Metrics* metrics);

  Reply Filter(std::string_view body);
  Reply Prioritize(std::string_view body);
  Reply Preempt(std::string_view body);
  Reply Bind(std::string_view body);

  // The view, under the lock (the reflectors feed it through here).
  void Update(const std::function<void(ClusterView&)>& f);
  template <class F>
  auto Read(F f) const {
    std::lock_guard<std::mutex> l(mu_);
    return f(view_);
  }
  // The first list is in: builds the Scheduler. Until then decisions are 503.
  Status MarkSynced();
  bool synced() const { return synced_.load(); }

 private:
  static Reply NotReady();
  // A filter/prioritize body as the fast path decodes it.
  struct FastArgs {
    ScannedArgs scanned;
    std::shared_ptr<const RequestPod> pod;
  };
  // False: the generic path is to read `body`.
  bool DecodeFast(std::string_view body, FastArgs& out);
  Reply FilterFast(const FastArgs& a);
  Reply PrioritizeFast(const FastArgs& a);
  // The slots of the scanned names: the NameList's when it was resolved
  // through the current index, else looked up; and the index used.
  std::shared_ptr<const NodeNameIndex> ResolveScanned(const ScannedArgs& a, std::vector<int64_t>& slots) const;
  // Keeps the request's names with their slots unless the cache has them so.
  void RememberNames(const ScannedArgs& a, const std::shared_ptr<const NodeNameIndex>& index,
                     std::vector<int64_t> slots);
  // The generic path (WithJsonBody, DecodeExtenderArgs, the reference writers).
  Reply FilterGeneric(std::string_view body);
  Reply PrioritizeGeneric(std::string_view body);
  // Parses a filter/prioritize body, decodes its pod and resolves its nodes.
  Reply WithArgs(std::string_view verb, std::string_view body,
                 const std::function<Reply(const ExtenderArgs&, const Pod&)>& f);
  void ExpireAssumedLocked(Clock::time_point now);
  // Rebuilds names_ when the view's node set changed (under mu_).
  void SyncNamesLocked();
  // The request's node slots (-1: not in the view) through the current
  // name index, outside mu_, and the index used.
  std::shared_ptr<const NodeNameIndex> Resolve(const std::vector<std::string_view>& names,
                                               std::vector<int64_t>& slots) const;
  // The verdicts of the request's nodes (verdicts[i] null: not in the view),
  // by the fast path (with `slots` from Resolve, redone here if the view's
  // nodes changed since: `index` is then the one used) or the plain one.
  void FilterLocked(const PodInfo& info, const std::vector<std::string_view>& names,
                    std::shared_ptr<const NodeNameIndex>& index, std::vector<int64_t>& slots,
                    std::vector<const NodeVerdict*>& verdicts);
  std::vector<NodeVerdict> plain_verdicts_;  // FilterLocked's, on the plain path
  void UpdateGauges();

  SchedulerFactory factory_;
  ExtenderOptions options_;
  Binder* binder_;
  Metrics* metrics_;
  mutable std::mutex mu_;
  ClusterView view_;
  std::optional<SchedulerSet> schedulers_;
  std::unique_ptr<ExtenderDecisions> decisions_;
  // The name index of the view's current node set, rebuilt under mu_ when
  // an update changes the nodes; requests take it under names_mu_ and
  // resolve their names outside mu_.
  mutable std::mutex names_mu_;
  std::shared_ptr<const NodeNameIndex> names_;
  FilterCache filter_cache_;
  // The fast path's recent node lists and pods, by their text: 8 of each,
  // none over 1 MiB (a list of 60,000 names; 5,000 are 85 kB), so at most
  // ~25 MiB with their names and slots.
  NameListCache name_lists_{8, size_t{1} << 20};
  RequestPodCache pods_{8, size_t{1} << 20};
  std::atomic<bool> synced_{false};
  Clock::time_point next_expiry_{};
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_EXTENDER_H_
