#include "gpusched/controllers/template_key.h"

#include <map>
#include <string_view>

#include "gpusched/model/controller.h"

namespace gpusched {
namespace {

void AddKey(std::string& k, std::string_view s) {
  k += std::to_string(s.size());
  k += ':';
  k += s;
}

void AddResources(std::string& k, const ResourceList& r) {
  AddKey(k, std::to_string(r.size()));
  for (const auto& [name, q] : r) {
    AddKey(k, name);
    AddKey(k, q.String());
  }
}

void AddMap(std::string& k, const std::map<std::string, std::string, std::less<>>& m, std::string_view skip = {}) {
  for (const auto& [key, v] : m) {
    if (key == skip) continue;
    AddKey(k, key);
    AddKey(k, v);
  }
  k += '|';
}

void AddRequirements(std::string& k, const std::vector<NodeSelectorRequirement>& rs) {
  AddKey(k, std::to_string(rs.size()));
  for (const auto& r : rs) {
    AddKey(k, r.key);
    AddKey(k, r.op);
    for (const auto& v : r.values) AddKey(k, v);
    k += '|';
  }
}

void AddContainers(std::string& k, const std::vector<Container>& cs) {
  AddKey(k, std::to_string(cs.size()));
  for (const Container& c : cs) {
    AddKey(k, c.name);
    AddKey(k, c.image);
    AddKey(k, c.restart_policy);
    AddResources(k, c.requests);
    AddResources(k, c.limits);
  }
}

}  // namespace

std::string TemplateKey(const Pod& t) {
  std::string k;
  AddMap(k, t.meta.labels, kPodTemplateHashLabel);
  AddMap(k, t.meta.annotations);
  AddContainers(k, t.containers);
  AddContainers(k, t.init_containers);
  AddResources(k, t.overhead);
  AddKey(k, t.node_name);
  AddKey(k, t.priority ? std::to_string(*t.priority) : "-");
  AddKey(k, t.priority_class_name);
  AddKey(k, t.preemption_policy);
  AddKey(k, t.scheduler_name);
  AddMap(k, t.node_selector);
  for (const Toleration& tol : t.tolerations) {
    AddKey(k, tol.key);
    AddKey(k, tol.op);
    AddKey(k, tol.value);
    AddKey(k, tol.effect);
  }
  k += '|';
  if (t.node_affinity) {
    const NodeAffinity& a = *t.node_affinity;
    AddKey(k, a.has_required ? "required" : "-");
    for (const auto& term : a.required) {
      AddRequirements(k, term.match_expressions);
      AddRequirements(k, term.match_fields);
    }
    k += '|';
    for (const auto& p : a.preferred) {
      AddKey(k, std::to_string(p.weight));
      AddRequirements(k, p.preference.match_expressions);
      AddRequirements(k, p.preference.match_fields);
    }
  }
  return k;
}

}  // namespace gpusched
