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
#include <vector>

#include "gpusched/model/label_selector.h"   // InterPodAffinity
#include "gpusched/model/resource_claims.h"  // DynamicResources
#include "gpusched/model/topology_spread.h"  // PodTopologySpread's section
#include "gpusched/model/volume_objects.h"   // volume plugins

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
  // helper.DefaultSelector's inputs, in input order: the Services, and the
  // ReplicationControllers, ReplicaSets and StatefulSets (with, for a
  // Deployment whose pods gpusched made without its ReplicaSet in the
  // input, the ReplicaSet its controller would have made: see
  // controllers/spread_selectors.h).
  std::vector<ServiceSelector> services;
  std::vector<ControllerSelector> spread_controllers;
  // --- end PodTopologySpread ---

  // --- Volume plugins (PVs, PVCs, StorageClasses, CSINodes) ---
  VolumeObjects volumes;  // model/volume_objects.h
  // --- end volume plugins ---

  // --- DynamicResources (ResourceClaims, templates, ResourceSlices, DeviceClasses) ---
  DraObjects dra;  // model/resource_claims.h
  // --- end DynamicResources ---

  // Adds the objects of another input (a second manifest path of a
  // simulation): an object whose name was seen keeps its first definition.
  // Each section merges its own fields.
  void Merge(ApiObjects&& other) {
    // --- InterPodAffinity ---
    for (auto& [name, labels] : other.namespace_labels) namespace_labels.emplace(name, std::move(labels));
    // --- PodTopologySpread ---
    for (ServiceSelector& s : other.services) {
      bool seen = false;
      for (const ServiceSelector& t : services) seen = seen || (t.ns == s.ns && t.name == s.name);
      if (!seen) services.push_back(std::move(s));
    }
    for (ControllerSelector& c : other.spread_controllers) {
      bool seen = false;
      for (const ControllerSelector& t : spread_controllers)
        seen = seen || (t.kind == c.kind && t.ns == c.ns && t.name == c.name);
      if (!seen) spread_controllers.push_back(std::move(c));
    }
    // --- volume plugins ---
    volumes.Merge(std::move(other.volumes));
    // --- DynamicResources ---
    dra.Merge(std::move(other.dra));
  }
};

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_API_OBJECTS_H_
