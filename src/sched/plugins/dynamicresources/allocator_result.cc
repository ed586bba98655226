// Allocation results, after the end of Allocator.Allocate and
// createNodeSelector in v1.35's
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/experimental/allocator_experimental.go.
#include "gpusched/sched/plugins/dynamicresources/allocator_result.h"

#include <algorithm>
#include <map>
#include <set>

namespace gpusched::dra {

namespace {

// containsNodeSelectorRequirement: same key, operator and set of values.
bool ContainsRequirement(const std::vector<NodeSelectorRequirement>& list, const NodeSelectorRequirement& r) {
  const std::set<std::string> values(r.values.begin(), r.values.end());
  return std::any_of(list.begin(), list.end(), [&](const NodeSelectorRequirement& e) {
    return e.key == r.key && e.op == r.op && std::set<std::string>(e.values.begin(), e.values.end()) == values;
  });
}

void AddNew(const std::vector<NodeSelectorRequirement>& from, std::vector<NodeSelectorRequirement>& to) {
  for (const NodeSelectorRequirement& r : from) {
    if (!ContainsRequirement(to, r)) to.push_back(r);
  }
}

// lookupRequest: the request (or subrequest) a result was allocated for.
const ExactDeviceRequest* LookupRequest(const ResourceClaim& claim, const DeviceResult& r) {
  const std::string& name = r.has_parent ? r.parent : r.request;
  for (const DeviceRequest& request : claim.spec.requests) {
    if (request.name != name) continue;
    if (!r.has_parent) return request.exactly ? &*request.exactly : nullptr;
    for (const ExactDeviceRequest& sub : request.first_available) {
      if (sub.name == r.request) return &sub;
    }
  }
  return nullptr;
}

void AddConfig(AllocationResult& out, const DeviceConfiguration& config, std::vector<std::string> requests,
               const char* source) {
  DeviceConfiguration c = config;
  c.requests = std::move(requests);
  out.config.push_back(std::move(c));
  out.config_source.push_back(source);
}

}  // namespace

Result<std::optional<std::vector<NodeSelectorTerm>>> CreateNodeSelector(const std::vector<DeviceResult>& devices,
                                                                      const std::string& node_name,
                                                                      bool binds_to_node) {
  NodeSelectorTerm term;
  for (const DeviceResult& r : devices) {
    const ResourceSlice& slice = *r.ref.slice;
    const Device& device = *r.ref.device;
    const bool per_device = slice.per_device_node_selection;
    const std::string& local_to = per_device ? device.node_name : slice.node_name;
    const auto& selector = per_device ? device.node_selector : slice.node_selector;
    if (!local_to.empty() || (binds_to_node && device.binds_to_node)) {
      // One device is local to (or binds to) a node: the claim is too.
      NodeSelectorTerm local;
      local.match_fields.push_back(NodeSelectorRequirement{"metadata.name", "In", {node_name}});
      return std::optional<std::vector<NodeSelectorTerm>>(std::vector<NodeSelectorTerm>{local});
    }
    if (!selector || selector->empty()) continue;
    if (selector->size() > 1) {
      // API validation keeps such slices out.
      return Status::InvalidArgument("unsupported ResourceSlice.NodeSelector with " +
                                     std::to_string(selector->size()) + " terms");
    }
    AddNew((*selector)[0].match_fields, term.match_fields);
    AddNew((*selector)[0].match_expressions, term.match_expressions);
  }
  if (term.match_fields.empty() && term.match_expressions.empty()) {
    return std::optional<std::vector<NodeSelectorTerm>>();  // available everywhere
  }
  return std::optional<std::vector<NodeSelectorTerm>>(std::vector<NodeSelectorTerm>{term});
}

Result<AllocationResult> BuildAllocationResult(const AllocationSearch& search, const DraFeatures& features,
                                               int claim_index, const ResourceClaim& claim,
                                               const std::string& node_name) {
  AllocationResult out;
  const std::vector<DeviceResult>& devices = search.Results()[claim_index];
  for (const DeviceResult& d : devices) {
    DeviceRequestAllocationResult r;
    r.request = d.FullName();
    r.driver = d.ref.id.driver;
    r.pool = d.ref.id.pool;
    r.device = d.ref.id.device;
    r.admin_access = d.admin_access;
    if (const ExactDeviceRequest* request = LookupRequest(claim, d)) r.tolerations = request->tolerations;
    if (d.has_share_id) r.share_id = d.share_id;
    r.consumed_capacity = d.consumed_capacity;
    // Devices with binding conditions are only picked with the feature on.
    if (features.device_binding_conditions) {
      r.binding_conditions = d.ref.device->binding_conditions;
      r.binding_failure_conditions = d.ref.device->binding_failure_conditions;
    }
    out.results.push_back(std::move(r));
  }

  // Class configs: each class's once, naming every request (or chosen
  // subrequest) that used the class.
  std::map<std::string, std::pair<size_t, size_t>, std::less<>> class_configs;  // class -> [start, end)
  for (int ri = 0; ri < static_cast<int>(claim.spec.requests.size()); ++ri) {
    const RequestData* data = &search.Request(claim_index, ri, 0);
    if (data->has_parent) data = &search.Request(claim_index, ri, data->selected_subrequest);
    const DeviceClass* device_class = data->device_class;
    if (device_class == nullptr) continue;
    if (auto it = class_configs.find(device_class->meta.name); it != class_configs.end()) {
      for (size_t i = it->second.first; i < it->second.second; ++i) out.config[i].requests.push_back(data->FullName());
      continue;
    }
    const size_t start = out.config.size();
    for (const DeviceConfiguration& c : device_class->config) AddConfig(out, c, {data->FullName()}, "FromClass");
    class_configs.emplace(device_class->meta.name, std::make_pair(start, out.config.size()));
  }
  // Claim configs: those for every request, and for each request (or its
  // chosen subrequest) a config names, that config once per such request.
  for (const DeviceConfiguration& c : claim.spec.config) {
    if (c.requests.empty()) {
      AddConfig(out, c, c.requests, "FromClaim");
      continue;
    }
    auto names = [&](const std::string& n) {
      return std::find(c.requests.begin(), c.requests.end(), n) != c.requests.end();
    };
    for (int ri = 0; ri < static_cast<int>(claim.spec.requests.size()); ++ri) {
      const DeviceRequest& request = claim.spec.requests[ri];
      if (names(request.name)) {
        AddConfig(out, c, c.requests, "FromClaim");
        continue;
      }
      const RequestData& data = search.Request(claim_index, ri, 0);
      if (!data.has_parent) continue;
      const ExactDeviceRequest& chosen = request.first_available[data.selected_subrequest];
      if (names(request.name + "/" + chosen.name)) AddConfig(out, c, c.requests, "FromClaim");
    }
  }

  auto selector = CreateNodeSelector(devices, node_name, ExperimentalVariant(features));
  if (!selector.ok()) {
    return Status::InvalidArgument("create NodeSelector for claim " + claim.meta.name + ": " +
                                   selector.status().message());
  }
  out.node_selector = std::move(*selector);
  return out;
}

}  // namespace gpusched::dra
