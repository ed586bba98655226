// DynamicResources' PreFilter, Filter and Reserve (see dynamic_resources.h).
#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

#include "gpusched/model/node_affinity.h"
#include "gpusched/sched/plugins/normalize_score.h"

namespace gpusched {

DynamicResources::DynamicResources(DraFeatures features)
    : features_(features), cache_(cel::CompileOptions{.consumable_capacity = features.consumable_capacity}) {}

std::string_view DynamicResources::Intern(std::string text) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const std::string& t : texts_)
    if (t == text) return t;
  return texts_.emplace_back(std::move(text));
}

std::unique_ptr<PreFilterData> DynamicResources::PreFilter(const PodInfo& pod, const ClusterState& cluster,
                                                           SchedStatus& reject) const {
  const Pod& p = *pod.pod;
  if (!p.HasResourceClaims()) return nullptr;  // Skip
  auto s = std::make_unique<State>();
  s->objects = &cluster.objects().dra;
  s->claims = ResolvePodClaims(p, *s->objects);
  if (!s->claims.error.empty()) {
    reject = SchedStatus::Unresolvable(s->claims.error);
    return nullptr;
  }
  if (s->claims.claims.empty()) return nullptr;  // every entry needs no claim: Skip
  const ClaimAllocations& allocations = cluster.dra_allocations();
  const std::string pod_key = p.ns() + "/" + p.name();
  for (size_t i = 0; i < s->claims.claims.size(); ++i) {
    const PodClaim& pc = s->claims.claims[i];
    if (const ClaimAllocations::Entry* e = allocations.Find(pc.key)) {
      // resourceclaim.CanBeReserved / IsReservedForPod.
      if (e->reserved_for.size() >= kResourceClaimReservedForMaxSize && !e->reserved_for.count(pod_key)) {
        reject = SchedStatus::Unresolvable(kReasonClaimInUse);
        return nullptr;
      }
      if (e->allocation.node_selector) s->allocated_selectors.push_back(&*e->allocation.node_selector);
      continue;
    }
    for (const DeviceRequest& r : pc.claim->spec.requests) {
      // validateDeviceClass, for the request or each subrequest.
      auto class_exists = [&](const std::string& cls, const std::string& request) {
        if (s->objects->FindClass(cls)) return true;
        reject = SchedStatus::Unresolvable("request " + request + ": device class " + cls + " does not exist");
        return false;
      };
      if (r.exactly) {
        if (!class_exists(r.exactly->device_class_name, r.name)) return nullptr;
      } else if (!r.first_available.empty()) {
        if (!features_.prioritized_list) {
          reject = SchedStatus::Unresolvable("resource claim " + pc.key + ", request " + r.name +
                                             ": has subrequests, but the DRAPrioritizedList feature is disabled");
          return nullptr;
        }
        for (const ExactDeviceRequest& sub : r.first_available)
          if (!class_exists(sub.device_class_name, r.name + "/" + sub.name)) return nullptr;
      }
    }
    s->to_allocate.push_back(pc.claim);
    s->to_allocate_index.push_back(i);
  }
  s->allocated = &allocations.state();
  s->allocations = &allocations;
  s->generation = GenerationFor(cluster);
  for (size_t k : s->to_allocate_index) {
    const ResourceClaimTemplate* t = s->claims.claims[k].from_template;
    if (t == nullptr) {
      s->signature.clear();  // a claim of its own: its answer is not shared
      break;
    }
    s->signature.push_back(t);
  }
  s->memoized = memoize_ && !s->signature.empty();
  return s;
}

bool DynamicResources::Check(const PodInfo& pod, const Node& node, const NodeState&, FilterVerdict* why) const {
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return true;
  constexpr auto kCode = SchedStatus::Code::kUnschedulableAndUnresolvable;
  if (!s->to_allocate.empty()) {
    Result<NodeAnswer> r = AnswerFor(*s, node);
    if (!r.ok()) {
      // The step limit stands for upstream's filter timeout, whose status
      // is the reason below; other errors are named as they are.
      const std::string& m = r.status().message();
      const bool timed_out = IsFailedAllocationOnNode(r.status()) && m.rfind("filter operation aborted", 0) == 0;
      if (why) why->Fail(kCode, timed_out ? std::string_view(kReasonAllocationTimedOut) : Intern(m));
      return false;
    }
    if (r->results == nullptr) {
      if (why) why->Fail(kCode, kReasonCannotAllocateAllClaims);
      return false;
    }
    // A memoized answer is found again in the memo: kept here otherwise.
    if (!s->memoized) {
      std::lock_guard<std::mutex> lock(s->mu);
      s->node_answers.insert_or_assign(node.name(), std::move(*r));
    }
  }
  for (const std::vector<NodeSelectorTerm>* selector : s->allocated_selectors) {
    if (!MatchesAnyNodeSelectorTerm(*selector, node)) {
      if (why) why->Fail(kCode, kReasonClaimNotAvailableOnNode);
      return false;
    }
  }
  return true;
}

std::vector<ClaimDevices> DynamicResources::Reserve(const PodInfo& pod, ClusterState& cluster, size_t node) const {
  std::vector<ClaimDevices> out;
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return out;
  // Filter's allocation on this node; allocated again only when Filter did
  // not run there in this attempt.
  std::shared_ptr<const std::vector<AllocationResult>> made;
  if (!s->to_allocate.empty()) {
    if (s->memoized) {
      Result<NodeAnswer> r = AnswerFor(*s, cluster.node(node));  // Filter's, from the memo
      if (r.ok()) made = r->results;
    } else {
      std::lock_guard<std::mutex> lock(s->mu);
      auto it = s->node_answers.find(cluster.node(node).name());
      if (it != s->node_answers.end()) made = it->second.results;
    }
    if (made == nullptr) {
      Result<std::optional<std::vector<AllocationResult>>> r = Allocate(*s, cluster.node(node), nullptr);
      if (r.ok() && r->has_value() && (*r)->size() == s->to_allocate.size())
        made = std::make_shared<const std::vector<AllocationResult>>(std::move(**r));
    }
  }
  const std::string pod_key = pod.pod->ns() + "/" + pod.pod->name();
  ClaimAllocations& allocations = cluster.mutable_dra_allocations();
  for (size_t i = 0; i < s->claims.claims.size(); ++i) {
    const PodClaim& pc = s->claims.claims[i];
    bool allocated_now = false;
    if (made) {
      for (size_t k = 0; k < s->to_allocate_index.size(); ++k)
        if (s->to_allocate_index[k] == i) {
          allocations.Allocate(pc.key, (*made)[k], pod_key);
          allocated_now = true;
        }
    }
    if (!allocated_now) allocations.Reserve(pc.key, pod_key);
    ClaimDevices cd{pc.pod_claim_name, pc.key, {}};
    if (const ClaimAllocations::Entry* e = allocations.Find(pc.key)) cd.results = e->allocation.results;
    out.push_back(std::move(cd));
  }
  return out;
}

bool DynamicResources::PreScore(const PodInfo& pod, const ClusterState&) const {
  if (!features_.prioritized_list) return false;
  const State* s = pod.cycle ? pod.cycle->GetByName<State>(Name()) : nullptr;
  if (s == nullptr) return false;
  for (const ResourceClaim* c : s->to_allocate)
    for (const DeviceRequest& r : c->spec.requests)
      if (!r.first_available.empty()) return true;
  return false;
}

int64_t DynamicResources::Score(const PodInfo& pod, const Node& node, const NodeState&) const {
  // The filter instance's state (this scorer is another instance).
  const State* s = pod.cycle ? pod.cycle->GetByName<State>(Name()) : nullptr;
  if (s == nullptr) return 0;
  if (s->memoized) {
    if (s->to_allocate.empty()) return 0;
    Result<NodeAnswer> r = AnswerFor(*s, node);  // Filter's, from the memo
    return r.ok() && r->results ? r->score : 0;
  }
  std::lock_guard<std::mutex> lock(s->mu);
  auto it = s->node_answers.find(node.name());
  return it == s->node_answers.end() ? 0 : it->second.score;
}

void DynamicResources::NormalizeScore(const PodInfo&, std::vector<int64_t>& scores) const {
  DefaultNormalizeScore(kMaxNodeScore, false, scores);
}

int DynamicResources::NeverPasses(const PodInfo& pod, const Node& node, const NodeState& state) const {
  if (Check(pod, node, state, nullptr)) return 0;
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return 0;
  // A claim allocated already, its devices elsewhere: the pods reserving it
  // keep it there (it is deallocated only when none does).
  for (const std::vector<NodeSelectorTerm>* selector : s->allocated_selectors)
    if (!MatchesAnyNodeSelectorTerm(*selector, node)) return kNeverClaimElsewhere;
  // Would the claims fit with every device free? Then they wait for the
  // claims holding the devices to go; otherwise the node never serves them.
  static const AllocatedState kNothingInUse;
  Result<std::optional<std::vector<AllocationResult>>> r = Allocate(*s, node, &kNothingInUse);
  return r.ok() && r->has_value() ? 0 : kNeverNoDevices;
}

std::string DynamicResources::ExclusionPhrase(const PodInfo&, const ClusterState&, int reason) const {
  if (reason == kNeverClaimElsewhere)
    return "where the pod's claims, allocated already, cannot be used (their devices are on another node)";
  return "whose devices cannot satisfy the pod's resource claims even when all are free (no devices, or none "
         "that the claims' device classes, selectors and constraints admit)";
}

}  // namespace gpusched
