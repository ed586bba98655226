// ApiObjects: the API objects of the input that scheduler plugins read
// beside nodes and pods, as upstream's plugins read them from informers
// (listers): namespaces for InterPodAffinity's namespaceSelector, the
// Services, ReplicationControllers, ReplicaSets and StatefulSets whose
// selectors give PodTopologySpread's system default constraints, and the
// storage objects the volume plugins check. A ClusterState holds them
// (ClusterState::objects) so that a plugin's PreFilter reaches them with
// the cluster; they do not change while a run lasts.
//
// Each plugin family keeps its own section; an input without such objects
// leaves it empty (the plugins then see what kube-scheduler sees in a
// cluster without them).
#ifndef GPUSCHED_MODEL_API_OBJECTS_H_
#define GPUSCHED_MODEL_API_OBJECTS_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "gpusched/model/label_selector.h"  // InterPodAffinity

namespace gpusched {

struct ApiObjects {
  // --- InterPodAffinity (namespaces) ---
  // The labels of each Namespace of the input (`kubectl get namespaces -o
  // json`), by name, for pod affinity terms' namespaceSelector; a namespace
  // not listed has none (upstream's GetNamespaceLabelsSnapshot).
  std::map<std::string, LabelMap, std::less<>> namespace_labels;
  const LabelMap* NamespaceLabels(std::string_view ns) const {
    auto it = namespace_labels.find(ns);
    return it == namespace_labels.end() ? nullptr : &it->second;
  }
  // --- end InterPodAffinity ---

  // --- PodTopologySpread (selectors of Services, RCs, RSs, StatefulSets) ---
  // --- end PodTopologySpread ---

  // --- Volume plugins (PVs, PVCs, StorageClasses, CSINodes) ---
  // --- end volume plugins ---

  // Adds the objects of another input (a second manifest path of a
  // simulation): an object whose name was seen keeps its first definition.
  // Each section merges its own fields.
  void Merge(ApiObjects&& other) {
    (void)other;
    // --- InterPodAffinity ---
    for (auto& [name, labels] : other.namespace_labels) namespace_labels.emplace(name, std::move(labels));
    // --- PodTopologySpread ---
    // --- volume plugins ---
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_API_OBJECTS_H_
