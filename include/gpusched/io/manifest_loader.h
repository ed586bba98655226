// Loading Kubernetes manifests as kubectl reads them: files or directories of
// YAML (multi-document, YAML 1.1 as go-yaml v2 reads it) and JSON (one
// object, a List such as `kubectl get -A -o json` writes, read item by item,
// or a stream of objects) holding Node, Pod, PriorityClass, the workload
// controllers Deployment, ReplicaSet, StatefulSet, Job, DaemonSet and
// CronJob, and resource.k8s.io objects. apiVersion and kind select the type.
// Every object is decoded strictly (unknown fields, duplicate keys and
// values of the wrong type are refused, as `kubectl apply` with server-side
// field validation Strict refuses them), defaulted and validated as the API
// server would; invalid ones are reported (with file, line and kubectl's
// message) and skipped, the rest are kept. Once every file is read, the
// workload controllers and operators make the pods they do not have yet,
// with deterministic names, and the gangs are formed (src/controllers:
// controllers/operator_expansion.h, controllers/gang_inputs.h). Other kinds
// are skipped with one warning per kind.
#ifndef GPUSCHED_IO_MANIFEST_LOADER_H_
#define GPUSCHED_IO_MANIFEST_LOADER_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gpusched/controllers/cluster_objects.h"
#include "gpusched/model/api_objects.h"
#include "gpusched/model/pdb.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/util/status.h"

namespace gpusched {

// A PodDisruptionBudget as read.
struct LoadedPdb {
  PodDisruptionBudget pdb;
  std::string file;
  int line = 0;
};

// What was read, as the controllers see it (controllers/cluster_objects.h:
// nodes, pods, workload controllers, operator workloads, group objects, and
// what the controllers make of them), with what only reading needs.
struct Manifests : ClusterObjects {
  // Node names taken, to refuse a second create ("nodes \"x\" already exists").
  std::unordered_set<std::string> node_keys;
  // How many objects got a name from the same generateName and content.
  std::unordered_map<uint64_t, int> generated_names;

  // PriorityClass objects (scheduling.k8s.io/v1) seen, by name.
  struct PriorityClass {
    int32_t value = 0;
    bool global_default = false;
    std::string preemption_policy;
  };
  std::map<std::string, PriorityClass, std::less<>> priority_classes;

  // resource.k8s.io objects (ResourceClaim, ResourceClaimTemplate,
  // ResourceSlice, DeviceClass): read and counted; gpusched does not
  // allocate devices, but the scheduler names missing claims and classes.
  DraObjects dra;
  // What plugins read beside nodes and pods (model/api_objects.h): handed
  // to the ClusterState of a run.
  ApiObjects api_objects;
  // Objects of kinds gpusched does not model, by kind ("ConfigMap", or
  // "Job (batch.volcano.sh/v1alpha1)" for a custom resource): reported as
  // one warning per kind once loading ends.
  struct Skipped {
    size_t count = 0;
    size_t order = 0;  // among the skipped kinds, by first appearance
    std::string file;
    int line = 0;  // of the first one
    std::string first_name;
    std::string why;
  };
  std::map<std::string, Skipped> skipped;

  // PodDisruptionBudgets, in input order.
  std::vector<LoadedPdb> pdbs;
  // Objects read, valid or not (a List's items one by one, the List
  // itself not): none at all is kubectl's "no objects passed".
  size_t objects_read = 0;
  // "resource/ns/name" of the group, PDB and operator objects read, to
  // refuse a second one.
  std::unordered_set<std::string> gang_object_keys;
};

// What the Priority admission plugin does once all objects are read
// (plugin/pkg/admission/priority): a pod with priorityClassName gets that
// class's value (the built-in system-cluster-critical and
// system-node-critical included), a pod without one gets the globalDefault
// class's, and a pod naming an unknown class is rejected. Pods that already
// carry spec.priority (e.g. from `kubectl get -o yaml`) keep it.
void ResolvePriorities(Manifests& m);

struct LoadOptions {
  bool recursive = false;  // descend into subdirectories (kubectl -R)
};

// Reads every path (a file, a directory's *.yaml/*.yml/*.json files in name
// order, or "-" for standard input) into `out`. Returns a non-OK status when
// a path cannot be read at all, or when no path holds a single object (an
// empty file, an empty standard input: most often the command before the
// pipe failed), as kubectl refuses "no objects passed" (the CLI exits 2);
// problems inside files land in out.rejected / out.warnings, and objects
// without a single Node or Pod among them (after the controllers made
// theirs) get a warning.
Status LoadManifestPaths(const std::vector<std::string>& paths, const LoadOptions& options, Manifests& out);

// Parses one file's contents; `file` is the name used in messages.
void LoadManifestText(std::string_view text, const std::string& file, Manifests& out);

}  // namespace gpusched

#endif  // GPUSCHED_IO_MANIFEST_LOADER_H_
