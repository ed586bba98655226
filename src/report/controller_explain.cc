#include "gpusched/report/controller_explain.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "gpusched/report/diagnosis_text.h"
#include "gpusched/util/ascii.h"

namespace gpusched {
namespace {

std::optional<ControllerKind> KindAlias(std::string_view s) {
  const std::string k = AsciiLower(s);
  if (k == "deployment" || k == "deployments" || k == "deploy") return ControllerKind::kDeployment;
  if (k == "replicaset" || k == "replicasets" || k == "rs") return ControllerKind::kReplicaSet;
  if (k == "statefulset" || k == "statefulsets" || k == "sts") return ControllerKind::kStatefulSet;
  if (k == "job" || k == "jobs") return ControllerKind::kJob;
  if (k == "daemonset" || k == "daemonsets" || k == "ds") return ControllerKind::kDaemonSet;
  if (k == "cronjob" || k == "cronjobs" || k == "cj") return ControllerKind::kCronJob;
  return std::nullopt;
}

std::string Short(const std::string& key) {
  const std::string prefix = std::string(kDefaultNamespace) + "/";
  return key.starts_with(prefix) ? key.substr(prefix.size()) : key;
}

std::string Gpus(const std::vector<int32_t>& g) {
  if (g.empty()) return "";
  std::string s = " (GPUs [";
  for (size_t i = 0; i < g.size(); ++i) s += (i ? "," : "") + std::to_string(g[i]);
  return s + "])";
}

}  // namespace

std::vector<size_t> FindControllers(const std::vector<ControllerPods>& controllers, std::string_view want) {
  std::vector<std::string_view> parts;
  for (size_t pos = 0;;) {
    const size_t slash = want.find('/', pos);
    parts.push_back(want.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos));
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  std::optional<ControllerKind> kind;
  std::optional<std::string_view> ns;
  std::string_view name;
  if (parts.size() == 1) {
    name = parts[0];
  } else if (parts.size() == 2) {
    kind = KindAlias(parts[0]);
    if (!kind) ns = parts[0];
    name = parts[1];
  } else if (parts.size() == 3) {
    kind = KindAlias(parts[0]);
    if (!kind) return {};
    ns = parts[1];
    name = parts[2];
  } else {
    return {};
  }
  std::vector<size_t> out;
  for (size_t i = 0; i < controllers.size(); ++i) {
    const ControllerPods& c = controllers[i];
    if (c.name != name || (kind && c.kind != *kind) || (ns && c.ns != *ns)) continue;
    out.push_back(i);
  }
  return out;
}

std::string ControllerDisplayName(const ControllerPods& c) {
  return std::string(KindName(c.kind)) + "/" + Short(c.ns + "/" + c.name);
}

void WriteControllerExplain(std::ostream& out, const RunReport& r, const ControllerPods& c) {
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < r.pods.size(); ++i) index.emplace(r.pods[i]->ns() + "/" + r.pods[i]->name(), i);
  auto outcome = [&](const std::string& key) -> std::string {
    auto it = index.find(key);
    if (it == index.end()) return "rejected (see the rejected list)";
    for (const auto& p : r.result.placements)
      if (p.pod == it->second)
        return (p.preexisting ? "already running on " : "placed on ") + r.cluster.node(p.node).name() + Gpus(p.gpus);
    for (const auto& p : r.result.pending)
      if (p.pod == it->second) return "pending: " + (p.message.empty() ? DiagnosisText(p.diagnosis) : p.message);
    for (const auto& f : r.result.refused)
      if (f.pod == it->second) return "refused: " + f.error;
    return "not scheduled";
  };
  size_t w = 0;
  for (const auto& k : c.had) w = std::max(w, Short(k).size());
  for (const auto& [k, phase] : c.had_terminated) w = std::max(w, Short(k).size());
  for (const auto& k : c.created) w = std::max(w, Short(k).size());
  auto line = [&](const std::string& key, const std::string& what) {
    const std::string name = Short(key);
    out << "  " << name << std::string(w - name.size() + 2, ' ') << what << "\n";
  };
  out << ControllerDisplayName(c) << " (" << c.file << ":" << c.line << ")\n";
  out << "  " << c.summary << "\n\n";
  out << "pods it already had (" << c.had.size() + c.had_terminated.size() << ")" << (c.had.size() + c.had_terminated.size() ? ":" : ": none") << "\n";
  for (const auto& k : c.had) line(k, outcome(k));
  for (const auto& [k, phase] : c.had_terminated) line(k, "terminated (" + phase + "): holds nothing, not scheduled");
  out << "pods gpusched created for it (" << c.created.size() << ")" << (c.created.empty() ? ": none" : ":") << "\n";
  for (const auto& k : c.created) line(k, outcome(k));
}

}  // namespace gpusched
