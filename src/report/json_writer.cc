#include "gpusched/report/json_writer.h"

#include <nlohmann/json.hpp>

#include "gpusched/report/device_plugin_gpus.h"
#include "gpusched/report/diagnosis_text.h"
#include "gpusched/report/explain_writer.h"
#include "gpusched/report/gang_report.h"

namespace gpusched {
namespace {

using Json = nlohmann::ordered_json;

// Quantities are strings in the Kubernetes API; we print them canonically.
std::string QuantityString(std::string_view resource, int64_t v) {
  if (resource == kResourceCPU) return Quantity::FromMilli(v).String();
  if (resource == kResourceMemory || resource == kResourceEphemeralStorage || IsHugePageResourceName(resource))
    return Quantity::FromInt(v, Quantity::Format::kBinarySI).String();
  return Quantity::FromInt(v).String();
}

Json ResourcesJson(const Resources& r, bool with_pods) {
  Json j = Json::object();
  j["cpu"] = QuantityString(kResourceCPU, r.milli_cpu);
  j["memory"] = QuantityString(kResourceMemory, r.memory);
  if (r.ephemeral_storage != 0) j["ephemeral-storage"] = QuantityString(kResourceEphemeralStorage, r.ephemeral_storage);
  if (with_pods) j["pods"] = QuantityString(kResourcePods, r.allowed_pods);
  for (const auto& [n, v] : r.scalars) j[n] = QuantityString(n, v);
  return j;
}

}  // namespace

void WriteJson(std::ostream& out, const RunReport& r) {
  Json root = Json::object();
  Json placements = Json::array();
  for (const auto& p : r.result.placements) {
    const Pod& pod = *r.pods[p.pod];
    Json j = Json{{"pod", pod.name()},
                  {"namespace", pod.ns()},
                  {"node", r.cluster.node(p.node).name()},
                  {"gpus", p.gpus},
                  {"preexisting", p.preexisting}};
    // Issue 27's contract: "claims": [{"name", "claim", "devices": [{"request",
    // "driver", "pool", "device"}]}], present for pods with resource claims.
    if (!p.claims.empty()) {
      Json claims = Json::array();
      for (const ClaimDevices& c : p.claims) {
        Json devices = Json::array();
        for (const DeviceRequestAllocationResult& d : c.results) {
          Json dj{{"request", d.request}, {"driver", d.driver}, {"pool", d.pool}, {"device", d.device}};
          if (d.admin_access.value_or(false)) dj["adminAccess"] = true;
          if (!d.share_id.empty()) dj["shareID"] = d.share_id;
          devices.push_back(std::move(dj));
        }
        claims.push_back(Json{{"name", c.pod_claim_name}, {"claim", c.claim}, {"devices", std::move(devices)}});
      }
      j["claims"] = std::move(claims);
    }
    if (p.explain) j["explain"] = ExplainJson(*p.explain, r.cluster);
    if (!p.preempted.empty()) {
      Json victims = Json::array();
      for (size_t v : p.preempted) victims.push_back(r.pods[v]->ns() + "/" + r.pods[v]->name());
      j["preempted"] = std::move(victims);
      if (p.first_attempt_explain) {
        j["first_attempt"] = Json{{"message", p.first_attempt},
                                  {"explain", ExplainJson(*p.first_attempt_explain, r.cluster)}};
      }
    }
    placements.push_back(std::move(j));
  }
  root["placements"] = std::move(placements);

  Json pending = Json::array();
  for (const auto& p : r.result.pending) {
    const Pod& pod = *r.pods[p.pod];
    Json j = Json{{"pod", pod.name()},
                  {"namespace", pod.ns()},
                  {"message", p.message},
                  {"forever", p.diagnosis.forever},
                  {"reason", DiagnosisKindName(p.diagnosis.kind)},
                  {"diagnosis", DiagnosisText(p.diagnosis)}};
    if (std::string gang = GangKeyOf(r, p.pod); !gang.empty()) j["gang"] = gang;
    if (p.explain) j["explain"] = ExplainJson(*p.explain, r.cluster);
    pending.push_back(std::move(j));
  }
  root["pending"] = std::move(pending);
  // Additive: present only when the input holds gangs.
  if (std::vector<GangRow> rows = GangRows(r); !rows.empty()) {
    Json gangs = Json::array();
    for (const GangRow& row : rows)
      gangs.push_back(Json{{"gang", row.gang->key},
                           {"api", std::string(GangApiName(row.gang->api))},
                           {"enforced_by", row.enforcer.empty() ? Json(nullptr) : Json(row.enforcer)},
                           {"min_count", row.gang->min_count},
                           {"members", row.members},
                           {"placed", row.placed.total},
                           {"pending", row.pending},
                           {"gpus_held_idle", row.gpus_held_idle},
                           {"state", row.state}});
    root["gangs"] = std::move(gangs);
  }

  // Pods DefaultPreemption evicted, in eviction order.
  Json preempted = Json::array();
  for (const auto& p : r.result.preempted) {
    const Pod& pod = *r.pods[p.pod];
    const Pod& by = *r.pods[p.by];
    preempted.push_back(Json{{"pod", pod.name()},
                             {"namespace", pod.ns()},
                             {"node", r.cluster.node(p.node).name()},
                             {"by", by.ns() + "/" + by.name()}});
  }
  root["preempted"] = std::move(preempted);
  // Gangs an eviction left below minCount placed (--preempt-gangs; docs/preemption.md).
  if (!r.result.broken_gangs.empty()) {
    Json broken = Json::array();
    for (const auto& b : r.result.broken_gangs) {
      const Pod& by = *r.pods[b.by];
      broken.push_back(Json{{"gang", b.gang->key}, {"min_count", b.gang->min_count}, {"by", by.ns() + "/" + by.name()}});
    }
    root["gangs_broken_by_preemption"] = std::move(broken);
  }

  Json rejected = Json::array();
  for (const auto& e : r.rejected) {
    Json j{{"object", e.object}, {"file", e.file}, {"line", e.line}, {"error", e.message}};
    if (!e.advice.empty()) j["advice"] = e.advice;  // only where gpusched has words of its own
    rejected.push_back(std::move(j));
  }
  for (const auto& f : r.result.refused) {
    const Pod& pod = *r.pods[f.pod];
    rejected.push_back(
        Json{{"object", "Pod/" + pod.ns() + "/" + pod.name()}, {"file", ""}, {"line", 0}, {"error", f.error}});
  }
  root["rejected"] = std::move(rejected);

  Json nodes = Json::array();
  for (size_t i = 0; i < r.cluster.size(); ++i) {
    const NodeState& s = r.cluster.state(i);
    Resources requested = s.requested;
    requested.allowed_pods = s.num_pods;
    nodes.push_back(Json{{"name", r.cluster.node(i).name()},
                         {"gpus_total", s.GpuAllocatable()},
                         {"gpus_used", s.GpuRequested()},
                         {"allocatable", ResourcesJson(s.allocatable, true)},
                         {"requested", ResourcesJson(requested, true)}});
  }
  root["nodes"] = std::move(nodes);

  const Summary s = Summarize(r);
  root["summary"] = Json{{"policy", r.policy},
                         {"order", r.order},
                         {"nodes", s.nodes},
                         {"pods", s.pods},
                         {"placed", s.placed},
                         {"preexisting", s.preexisting},
                         {"pending", s.pending},
                         {"pending_forever", s.pending_forever},
                         {"preempted", s.preempted},
                         {"rejected", s.rejected_objects + s.refused},
                         {"gpus_capacity", s.gpus_capacity},
                         {"gpus_requested", s.gpus_requested},
                         {"gpus_allocated", s.gpus_allocated},
                         {"gpus_free", s.gpus_free},
                         {"gpus_pending", s.gpus_pending},
                         {"gpu_milli_requested", s.gpu_milli_requested},
                         {"gpu_milli_pending", s.gpu_milli_pending},
                         {"gpus_holding_shares", s.gpus_holding_shares},
                         {"gpu_milli_in_shares", s.gpu_milli_in_shares},
                         {"verdict", s.verdict}};
  // The device plugin's MIG devices and shared replicas (report/device_plugin_gpus.h),
  // only for a cluster that has them: a fraction of a GPU in milli-GPU.
  const DevicePluginGpus dp = CountDevicePluginGpus(r.cluster);
  if (dp.mig_devices > 0 || !dp.shared.empty()) {
    Json j = Json::object();
    if (dp.mig_devices > 0)
      j["mig"] = Json{{"devices", dp.mig_devices},         {"nodes", dp.mig_nodes},
                      {"gpu_milli", dp.mig_milli},         {"held", dp.mig_held},
                      {"held_gpu_milli", dp.mig_held_milli}, {"unsized", dp.mig_unsized},
                      {"single_strategy_devices", dp.single_devices}, {"single_strategy_pods", dp.single_pods}};
    Json shared = Json::array();
    for (const auto& k : dp.shared)
      shared.push_back(Json{{"sharing", k.kind == "MPS" ? "mps" : "time-slicing"}, {"gpus", k.gpus}, {"nodes", k.nodes},
                            {"replicas", k.replicas}, {"held", k.held}, {"pods", k.pods},
                            {"pods_over_one_replica", k.pods_over_one}});
    if (!shared.empty()) j["shared"] = std::move(shared);
    root["summary"]["device_plugin"] = std::move(j);
  }
  root["warnings"] = r.warnings;
  if (!r.unimplemented.empty()) root["unimplemented_plugins"] = r.unimplemented;
  // Input text can hold bytes that are not UTF-8 (names in warnings and
  // errors); they are replaced by U+FFFD rather than failing the dump.
  out << root.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace gpusched
