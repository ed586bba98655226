#include "gpusched/server/extender.h"

#include "gpusched/io/object_decoder.h"
#include "gpusched/server/preempt_verb.h"

namespace gpusched {
namespace {

Reply BadRequest(std::string message) { return Reply{400, std::move(message) + "\n", "text/plain; charset=utf-8"}; }

}  // namespace

Reply ExtenderService::NotReady() {
  return Reply{503, "gpusched has not listed the cluster yet: no decision before its first list of nodes and pods\n",
               "text/plain; charset=utf-8"};
}

namespace {

int64_t UnixNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

ExtenderService::ExtenderService(SchedulerFactory factory, ExtenderOptions options, Binder* binder, Metrics* metrics)
    : factory_(std::move(factory)), options_(options), binder_(binder), metrics_(metrics) {
  view_.set_max_pending(options_.max_pending_pods);
}

void ExtenderService::Update(const std::function<void(ClusterView&)>& f) {
  std::lock_guard<std::mutex> l(mu_);
  f(view_);
  SyncNamesLocked();
  UpdateGauges();
}

void ExtenderService::SyncNamesLocked() {
  if (options_.plain) return;
  {
    std::lock_guard<std::mutex> n(names_mu_);
    if (names_ && names_->Matches(view_.cluster())) return;
  }
  auto index = std::make_shared<const NodeNameIndex>(view_.cluster());
  std::lock_guard<std::mutex> n(names_mu_);
  names_ = std::move(index);
}

std::shared_ptr<const NodeNameIndex> ExtenderService::Resolve(const std::vector<std::string_view>& names,
                                                              std::vector<int64_t>& slots) const {
  std::shared_ptr<const NodeNameIndex> index;
  {
    std::lock_guard<std::mutex> n(names_mu_);
    index = names_;
  }
  slots.assign(names.size(), -1);
  if (index)
    for (size_t i = 0; i < names.size(); ++i) slots[i] = index->Find(names[i]);
  return index;
}

Status ExtenderService::MarkSynced() {
  std::lock_guard<std::mutex> l(mu_);
  if (!schedulers_) {
    Result<SchedulerSet> s = factory_(view_);
    if (!s.ok()) return s.status();
    schedulers_.emplace(std::move(s).value());
    if (schedulers_->profiles.empty()) return Status::InvalidArgument("no scheduler profile to decide with");
    decisions_ =
        std::make_unique<ExtenderDecisions>(*schedulers_->profiles.front().second, options_.seed, options_.plain);
  }
  synced_ = true;
  SyncNamesLocked();
  UpdateGauges();
  return Status::Ok();
}

void ExtenderService::UpdateGauges() {
  if (!metrics_) return;
  metrics_->ClusterSize(static_cast<double>(view_.num_nodes()), static_cast<double>(view_.num_bound_pods()),
                        static_cast<double>(view_.num_assumed()));
}

void ExtenderService::ExpireAssumedLocked(Clock::time_point now) {
  if (now < next_expiry_) return;
  next_expiry_ = now + std::chrono::seconds(1);
  if (view_.ExpireAssumed(now) > 0) UpdateGauges();
}

Reply ExtenderService::WithArgs(std::string_view verb, std::string_view body,
                         const std::function<Reply(const ExtenderArgs&, const Pod&)>& f) {
  Reply reply;
  Status parsed = WithJsonBody(body, [&](const DocNode& root) {
    ExtenderArgs args;
    if (Status s = DecodeExtenderArgs(root, args); !s.ok()) {
      reply = BadRequest(s.message());
      return;
    }
    if (!args.has_node_names && !args.has_nodes) {
      reply = BadRequest("ExtenderArgs has neither NodeNames (nodeCacheCapable: true) nor Nodes: no node to consider");
      return;
    }
    ObjectDecodeOptions opts;
    opts.strict = false;
    opts.source = "request";
    Result<DecodedPod> pod = DecodePodObject(args.pod, opts);
    if (!pod.ok()) {
      reply = BadRequest("ExtenderArgs.Pod: " + pod.status().message());
      return;
    }
    reply = f(args, pod->pod);
  });
  if (!parsed.ok()) reply = BadRequest(parsed.message());
  if (reply.status == 400 && metrics_) metrics_->Error(verb, "bad_request");
  if (reply.status == 503 && metrics_) metrics_->Error(verb, "not_ready");
  return reply;
}

namespace {

// The request's nodes by name, in request order: NodeNames when given (as
// kube-scheduler sends them to a nodeCacheCapable extender), else the names
// of Nodes.items.
std::vector<std::string_view> RequestNodeNames(const ExtenderArgs& args) {
  if (args.has_node_names) return args.node_names;
  std::vector<std::string_view> names;
  names.reserve(args.node_items.size());
  for (const DocNode& item : args.node_items) names.push_back(NodeItemName(item));
  return names;
}

}  // namespace

void ExtenderService::FilterLocked(const PodInfo& info, const std::vector<std::string_view>& names,
                                   std::shared_ptr<const NodeNameIndex>& index, std::vector<int64_t>& slots,
                                   std::vector<const NodeVerdict*>& verdicts) {
  const ClusterState& cluster = view_.cluster();
  verdicts.assign(names.size(), nullptr);
  // A pod with PreFilter state is answered node by node without the cache:
  // its verdicts depend on other pods, not only on its class and the node.
  const bool prefiltered = decisions_->PreFilter(info, cluster);
  if (options_.plain || prefiltered) {
    slots.assign(names.size(), -1);
    plain_verdicts_.assign(names.size(), NodeVerdict{});
    for (size_t i = 0; i < names.size(); ++i) {
      slots[i] = cluster.FindNode(names[i]);
      if (slots[i] < 0) continue;
      const size_t n = static_cast<size_t>(slots[i]);
      plain_verdicts_[i] = prefiltered ? decisions_->FilterPreFiltered(cluster, n) : decisions_->Filter(info, cluster, n);
      verdicts[i] = &plain_verdicts_[i];
    }
    return;
  }
  if (!index || !index->Matches(cluster)) {
    // The nodes changed since the names were resolved.
    SyncNamesLocked();
    index = Resolve(names, slots);
  }
  FilterCache::Row& row = filter_cache_.RowFor(info, cluster);
  for (size_t i = 0; i < names.size(); ++i)
    if (slots[i] >= 0) verdicts[i] = &row.Get(static_cast<size_t>(slots[i]), *decisions_, info, cluster);
}

Reply ExtenderService::Filter(std::string_view body) {
  FastArgs a;
  if (!options_.plain && DecodeFast(body, a)) return FilterFast(a);
  return FilterGeneric(body);
}

Reply ExtenderService::Prioritize(std::string_view body) {
  FastArgs a;
  if (!options_.plain && DecodeFast(body, a)) return PrioritizeFast(a);
  return PrioritizeGeneric(body);
}

Reply ExtenderService::FilterGeneric(std::string_view body) {
  return WithArgs("filter", body, [&](const ExtenderArgs& args, const Pod& pod) {
    const std::vector<std::string_view> names = RequestNodeNames(args);
    const PodInfo info = PodInfo::Make(pod, 0);
    ExtenderFilterResult r;
    r.names = args.has_node_names;
    size_t passed = 0, failed = 0, unresolvable = 0, unknown = 0;
    std::vector<int64_t> slots;
    std::shared_ptr<const NodeNameIndex> index = options_.plain ? nullptr : Resolve(names, slots);
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!decisions_) return NotReady();
      ExpireAssumedLocked(Clock::now());
      view_.RememberPending(pod);
      std::vector<const NodeVerdict*> verdicts;
      FilterLocked(info, names, index, slots, verdicts);
      // The answer is read off the verdicts under the lock: the cached ones
      // change with the view.
      for (size_t i = 0; i < names.size(); ++i) {
        const NodeVerdict* v = verdicts[i];
        if (!v) {
          r.failed[std::string(names[i])] = kReasonUnknownNode;
          ++unknown;
        } else if (v->passed) {
          if (r.names) {
            r.node_names.push_back(names[i]);
          } else {
            r.nodes.push_back(args.node_items[i]);
          }
          ++passed;
        } else if (v->unresolvable) {
          r.failed_unresolvable[std::string(names[i])] = v->reason;
          ++unresolvable;
        } else {
          r.failed[std::string(names[i])] = v->reason;
          ++failed;
        }
      }
    }
    if (metrics_) {
      if (passed) metrics_->Decision("filter", "passed", static_cast<double>(passed));
      if (failed) metrics_->Decision("filter", "failed", static_cast<double>(failed));
      if (unresolvable) metrics_->Decision("filter", "unresolvable", static_cast<double>(unresolvable));
      if (unknown) metrics_->Decision("filter", "unknown", static_cast<double>(unknown));
    }
    return Reply{200, EncodeFilterResult(r)};
  });
}

Reply ExtenderService::PrioritizeGeneric(std::string_view body) {
  return WithArgs("prioritize", body, [&](const ExtenderArgs& args, const Pod& pod) {
    const std::vector<std::string_view> names = RequestNodeNames(args);
    const PodInfo info = PodInfo::Make(pod, 0);
    std::vector<HostPriority> list(names.size());
    std::vector<int64_t> slots;
    std::shared_ptr<const NodeNameIndex> index = options_.plain ? nullptr : Resolve(names, slots);
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!decisions_) return NotReady();
      ExpireAssumedLocked(Clock::now());
      const ClusterState& cluster = view_.cluster();
      // Only the nodes that pass the filters now are scored; the policy
      // chooses among them as ScheduleOne would.
      std::vector<const NodeVerdict*> verdicts;
      std::vector<size_t> feasible, at;
      FilterLocked(info, names, index, slots, verdicts);
      for (size_t i = 0; i < names.size(); ++i) {
        list[i].host = names[i];
        if (!verdicts[i] || !verdicts[i]->passed) continue;
        feasible.push_back(static_cast<size_t>(slots[i]));
        at.push_back(i);
      }
      std::vector<int64_t> scores;
      decisions_->Prioritize(info, cluster, feasible, scores);
      for (size_t k = 0; k < at.size(); ++k) list[at[k]].score = scores[k];
    }
    if (metrics_) metrics_->Decision("prioritize", "scored");
    return Reply{200, EncodeHostPriorityList(list)};
  });
}

Reply ExtenderService::Preempt(std::string_view body) {
  Reply reply;
  Status parsed = WithJsonBody(body, [&](const DocNode& root) {
    ExtenderPreemptionArgs args;
    if (Status s = DecodeExtenderPreemptionArgs(root, args); !s.ok()) {
      reply = BadRequest(s.message());
      return;
    }
    ObjectDecodeOptions opts;
    opts.strict = false;
    Result<DecodedPod> pod = DecodePodObject(args.pod, opts);
    if (!pod.ok()) {
      reply = BadRequest("ExtenderPreemptionArgs.Pod: " + pod.status().message());
      return;
    }
    const PodInfo info = PodInfo::Make(pod->pod, 0);
    std::lock_guard<std::mutex> l(mu_);
    if (!synced_ || !schedulers_) {
      reply = NotReady();
      return;
    }
    ExpireAssumedLocked(Clock::now());
    // DefaultPreemption's victim selection on gpusched's view
    // (server/preempt_verb.h).
    const NodeToMetaVictims chosen =
        ExtenderPreemptVictims(info, view_.cluster(), *schedulers_->profiles.front().second, args.victims,
                               [&](uint64_t id) { return view_.UidOf(id); });
    reply = Reply{200, EncodePreemptionResult(chosen)};
  });
  if (!parsed.ok()) reply = BadRequest(parsed.message());
  if (metrics_) {
    if (reply.status == 400) metrics_->Error("preempt", "bad_request");
    if (reply.status == 503) metrics_->Error("preempt", "not_ready");
    if (reply.status == 200) metrics_->Decision("preempt", "victims_chosen");
  }
  return reply;
}

Reply ExtenderService::Bind(std::string_view body) {
  ExtenderBindingArgs args;
  Status decoded;
  Status parsed = WithJsonBody(body, [&](const DocNode& root) { decoded = DecodeExtenderBindingArgs(root, args); });
  if (parsed.ok() && decoded.ok() && (args.pod_name.empty() || args.node.empty()))
    decoded = Status::InvalidArgument("ExtenderBindingArgs needs PodName and Node");
  if (!parsed.ok() || !decoded.ok()) {
    if (metrics_) metrics_->Error("bind", "bad_request");
    return BadRequest(parsed.ok() ? decoded.message() : parsed.message());
  }
  const std::string ns = args.pod_namespace.empty() ? std::string(kDefaultNamespace) : args.pod_namespace;
  const std::string id = ns + "/" + args.pod_name;
  auto fail = [&](std::string error) {
    if (metrics_) metrics_->Decision("bind", "failed");
    return Reply{200, EncodeBindingResult(error)};
  };
  std::shared_ptr<const Pod> pod;
  std::map<std::string, std::string> annotations;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!decisions_) {
      if (metrics_) metrics_->Error("bind", "not_ready");
      return NotReady();
    }
    const Clock::time_point now = Clock::now();
    ExpireAssumedLocked(now);
    pod = view_.FindPending(ns, args.pod_name, args.pod_uid);
    if (!pod) {
      auto placements = view_.Placements();
      if (auto it = placements.find(id); it != placements.end())
        return fail("pod " + id + " is already on node " + it->second.node);
      return fail("gpusched has not seen pod " + id +
                  ": it learns a pod's spec from filter requests and from the API server's watch");
    }
    const ClusterState& cluster = view_.cluster();
    const int64_t n = cluster.FindNode(args.node);
    if (n < 0) return fail("node \"" + args.node + "\" is not in gpusched's cluster view");
    const PodInfo info = PodInfo::Make(*pod, 0);
    // Another pod may have taken what this one was filtered against.
    NodeVerdict v = decisions_->PreFilter(info, cluster) ? decisions_->FilterPreFiltered(cluster, static_cast<size_t>(n))
                                                        : decisions_->Filter(info, cluster, static_cast<size_t>(n));
    if (!v.passed) return fail("pod " + id + " no longer fits on node " + args.node + ": " + v.reason);
    std::vector<int32_t> devices = decisions_->ChooseDevices(info, cluster, static_cast<size_t>(n));
    annotations = BindAnnotations(*pod, info.gpu, devices, UnixNanos());
    view_.Assume(*pod, static_cast<size_t>(n), devices, Clock::time_point::max());
    if (options_.static_snapshot) view_.Confirm(ns, args.pod_name);
    UpdateGauges();
  }
  const BindResult result = binder_ ? binder_->Bind(*pod, args.node, annotations) : BindResult();
  const Status& bound = result.status;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!bound.ok() && !result.maybe_bound) {
      view_.Forget(ns, args.pod_name);
      view_.RememberPending(*pod);
    } else if (!options_.static_snapshot) {
      // Bound, or perhaps: the pod keeps its node and devices until the
      // watch confirms it there, or the TTL lapses, so that no other pod is
      // given them meanwhile.
      view_.SetAssumeDeadline(ns, args.pod_name,
                              Clock::now() + std::chrono::milliseconds(
                                                 static_cast<int64_t>(options_.assume_ttl_seconds * 1000)));
    }
    UpdateGauges();
  }
  if (!bound.ok()) {
    if (metrics_) metrics_->Error("bind", result.maybe_bound ? "timeout" : "api_server");
    return fail(bound.message());
  }
  if (metrics_) metrics_->Decision("bind", "bound");
  return Reply{200, EncodeBindingResult("")};
}

}  // namespace gpusched
