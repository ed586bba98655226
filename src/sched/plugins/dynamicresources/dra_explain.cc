// DynamicResources::ExplainRejection: what `gpusched explain` says of a node
// the plugin rejected, request by request (see dynamic_resources.h).
#include <map>

#include "gpusched/sched/plugins/dynamicresources/dynamic_resources.h"

namespace gpusched {
namespace {

// "request gpu (class gpu.nvidia.com, 2 devices)".
std::string RequestLabel(const std::string& name, const ExactDeviceRequest& r) {
  const std::string count = r.AllocateAll() ? std::string("all matching devices")
                                            : std::to_string(r.count) + (r.count == 1 ? " device" : " devices");
  return "request " + name + " (class " + r.device_class_name + ", " + count + ")";
}

}  // namespace

std::string DynamicResources::ExplainRejection(const PodInfo& pod, const Node& node, const NodeState&) const {
  const State* s = pod.cycle ? pod.cycle->Get<State>(this) : nullptr;
  if (s == nullptr) return {};
  // Which claim holds each device, for naming them.
  std::map<DeviceId, std::string> holder;
  for (const auto& [key, e] : s->allocations->claims())
    for (const DeviceRequestAllocationResult& r : e.allocation.results)
      holder[DeviceId{r.driver, r.pool, r.device}] = key;
  std::vector<const ResourceSlice*> slices = SlicesFor(*s, node.name());
  std::string out;
  auto add = [&](const std::string& text) { out += (out.empty() ? "" : "; ") + text; };
  for (const PodClaim& pc : s->claims.claims) {
    if (const ClaimAllocations::Entry* e = s->allocations->Find(pc.key)) {
      if (e->allocation.node_selector && !MatchesAnyNodeSelectorTerm(*e->allocation.node_selector, node))
        add("claim " + pc.key + " is allocated already, to devices of another node");
      continue;
    }
    for (const DeviceRequest& req : pc.claim->spec.requests) {
      std::vector<std::pair<std::string, const ExactDeviceRequest*>> ways;
      if (req.exactly) ways.emplace_back(req.name, &*req.exactly);
      for (const ExactDeviceRequest& sub : req.first_available) ways.emplace_back(req.name + "/" + sub.name, &sub);
      for (const auto& [name, r] : ways) {
        const DeviceClass* cls = s->objects->FindClass(r->device_class_name);
        if (cls == nullptr) continue;  // PreFilter said so already
        int64_t match = 0;
        std::vector<std::string> taken;
        std::string error;
        for (const ResourceSlice* sl : slices) {
          for (const Device& d : sl->devices) {
            bool ok = true;
            auto eval = [&](const std::vector<std::string>& selectors, const std::string& whose) {
              for (size_t i = 0; ok && i < selectors.size(); ++i) {
                Result<cel::DeviceSelector> sel = cache_.Get(selectors[i]);
                Result<bool> m = sel.ok() ? sel->Matches(sl->driver, d) : Result<bool>(sel.status());
                if (!m.ok()) {
                  if (error.empty())
                    error = whose + " selector #" + std::to_string(i) + " fails on device " + d.name + ": " +
                            m.status().message();
                  ok = false;
                } else {
                  ok = *m;
                }
              }
            };
            eval(cls->selectors, "class " + cls->meta.name + "'s");
            eval(r->selectors, "the request's");
            if (!ok) continue;
            ++match;
            auto h = holder.find(DeviceId{sl->driver, sl->pool.name, d.name});
            if (h != holder.end()) taken.push_back(d.name + " (claim " + h->second + ")");
          }
        }
        std::string text = RequestLabel(name, *r) + ": ";
        if (match == 0) {
          text += "no device on the node matches its class and selectors";
        } else {
          text += std::to_string(match) + (match == 1 ? " device matches" : " devices match") + ", " +
                  std::to_string(match - static_cast<int64_t>(taken.size())) + " free";
          if (!taken.empty()) {
            text += "; taken: ";
            for (size_t k = 0; k < taken.size(); ++k) text += (k ? ", " : "") + taken[k];
          }
        }
        if (!error.empty()) text += "; " + error;
        add(text);
      }
    }
    if (!pc.claim->spec.constraints.empty()) {
      std::string names;
      for (const DeviceConstraint& c : pc.claim->spec.constraints)
        if (c.match_attribute) names += (names.empty() ? "" : ", ") + *c.match_attribute;
      if (!names.empty()) add("claim " + pc.key + " requires one value of " + names + " across its devices");
    }
  }
  return out;
}

}  // namespace gpusched
