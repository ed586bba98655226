// Builders shared by the controller tests (controller_expansion_test.cc and
// the property test): workload objects and pods as YAML documents, shaped as
// `kubectl get -o yaml` prints them, and loading several files in a given
// order through LoadManifestPaths.
#ifndef GPUSCHED_TESTS_CONTROLLERS_CONTROLLER_TEST_UTIL_H_
#define GPUSCHED_TESTS_CONTROLLERS_CONTROLLER_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpusched/io/manifest_loader.h"

namespace gpusched::controller_test {

using Labels = std::map<std::string, std::string>;

struct Owner {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
};

inline std::string Flow(const Labels& m) {
  std::string s = "{";
  bool first = true;
  for (const auto& [k, v] : m) {
    s += (first ? "" : ", ") + k + ": \"" + v + "\"";
    first = false;
  }
  return s + "}";
}

// metadata: name, namespace, uid, labels, annotations, ownerReferences.
inline std::string Meta(const std::string& name, const std::string& ns, const std::string& uid, const Labels& labels,
                        const std::optional<Owner>& owner, const Labels& annotations = {},
                        const std::string& created = "") {
  std::string s = "metadata:\n  name: " + name + "\n  namespace: " + ns + "\n";
  if (!uid.empty()) s += "  uid: " + uid + "\n";
  if (!created.empty()) s += "  creationTimestamp: \"" + created + "\"\n";
  if (!labels.empty()) s += "  labels: " + Flow(labels) + "\n";
  if (!annotations.empty()) s += "  annotations: " + Flow(annotations) + "\n";
  if (owner) {
    s += "  ownerReferences:\n  - {apiVersion: " + owner->api_version + ", kind: " + owner->kind +
         ", name: " + owner->name + ", uid: " + owner->uid + ", controller: true, blockOwnerDeletion: true}\n";
  }
  return s;
}

// A container asking for `gpus` nvidia.com/gpu and 100m cpu.
inline std::string Containers(const std::string& image, int gpus, const std::string& indent) {
  std::string s = indent + "containers:\n" + indent + "- name: main\n" + indent + "  image: " + image + "\n" + indent +
                  "  resources:\n" + indent + "    requests: {cpu: 100m" +
                  (gpus ? ", nvidia.com/gpu: \"" + std::to_string(gpus) + "\"" : "") + "}\n";
  if (gpus) s += indent + "    limits: {nvidia.com/gpu: \"" + std::to_string(gpus) + "\"}\n";
  return s;
}

struct PodSpec {
  std::string name;
  std::string ns = "default";
  std::string uid;
  Labels labels;
  std::optional<Owner> owner;
  Labels annotations;
  std::string image = "img:1";
  int gpus = 0;
  std::string node;   // spec.nodeName
  std::string phase;  // status.phase
  std::string affinity_node;  // a DaemonSet pod's matchFields term
};

inline std::string PodYaml(const PodSpec& p) {
  std::string s = "apiVersion: v1\nkind: Pod\n" + Meta(p.name, p.ns, p.uid, p.labels, p.owner, p.annotations) + "spec:\n";
  if (!p.node.empty()) s += "  nodeName: " + p.node + "\n";
  if (!p.affinity_node.empty())
    s += "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
         "        nodeSelectorTerms:\n        - matchFields:\n          - {key: metadata.name, operator: In, values: [" +
         p.affinity_node + "]}\n";
  s += Containers(p.image, p.gpus, "  ");
  if (!p.phase.empty()) s += "status:\n  phase: " + p.phase + "\n";
  return s;
}

struct WorkloadSpec {
  std::string kind;  // Deployment, ReplicaSet, StatefulSet, Job, DaemonSet, CronJob
  std::string name;
  std::string ns = "default";
  std::string uid;
  std::optional<Owner> owner;
  Labels labels;           // metadata.labels
  Labels annotations;      // metadata.annotations
  std::string created;     // metadata.creationTimestamp
  Labels selector;         // spec.selector.matchLabels; none when empty
  Labels template_labels;
  std::string image = "img:1";
  int gpus = 0;
  std::optional<int> replicas;
  std::string spec_extra;    // more lines under spec: (indented by 2)
  std::string status;        // lines under status: (indented by 2)
};

inline std::string WorkloadYaml(const WorkloadSpec& w) {
  const bool job = w.kind == "Job" || w.kind == "CronJob";
  std::string s = std::string("apiVersion: ") + (job ? "batch/v1" : "apps/v1") + "\nkind: " + w.kind + "\n" +
                  Meta(w.name, w.ns, w.uid, w.labels, w.owner, w.annotations, w.created) + "spec:\n";
  if (w.replicas) s += "  replicas: " + std::to_string(*w.replicas) + "\n";
  s += w.spec_extra;
  std::string indent = "  ";
  if (w.kind == "CronJob") {
    s += "  jobTemplate:\n    spec:\n";
    indent = "      ";
  }
  if (!w.selector.empty()) s += indent + "selector:\n" + indent + "  matchLabels: " + Flow(w.selector) + "\n";
  s += indent + "template:\n";
  if (!w.template_labels.empty()) s += indent + "  metadata:\n" + indent + "    labels: " + Flow(w.template_labels) + "\n";
  s += indent + "  spec:\n";
  if (job) s += indent + "    restartPolicy: Never\n";
  s += Containers(w.image, w.gpus, indent + "    ");
  if (!w.status.empty()) s += "status:\n" + w.status;
  return s;
}

// Writes each file (name, documents joined by "---") into a fresh directory
// and loads them with LoadManifestPaths, in the order given.
class TempFiles {
 public:
  TempFiles() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "gpusched-ctrl-XXXXXX").string();
    dir_ = mkdtemp(tmpl.data());
  }
  ~TempFiles() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string Write(const std::string& name, const std::vector<std::string>& docs) {
    const std::string path = dir_ + "/" + name;
    std::ofstream f(path);
    for (size_t i = 0; i < docs.size(); ++i) f << (i ? "---\n" : "") << docs[i];
    return path;
  }

 private:
  std::string dir_;
};

inline Manifests LoadFiles(const std::vector<std::pair<std::string, std::vector<std::string>>>& files) {
  TempFiles tmp;
  std::vector<std::string> paths;
  for (const auto& [name, docs] : files) paths.push_back(tmp.Write(name, docs));
  Manifests m;
  Status s = LoadManifestPaths(paths, LoadOptions{}, m);
  EXPECT_TRUE(s.ok()) << s.message();
  return m;
}

// "ns/name" of every pod, in order.
inline std::vector<std::string> PodKeys(const Manifests& m) {
  std::vector<std::string> out;
  for (const LoadedPod& lp : m.pods) out.push_back(lp.pod.ns() + "/" + lp.pod.name());
  return out;
}

inline const ControllerPods* Report(const Manifests& m, const std::string& kind, const std::string& name) {
  for (const ControllerPods& c : m.controller_pods)
    if (KindName(c.kind) == kind && c.name == name) return &c;
  return nullptr;
}

}  // namespace gpusched::controller_test

#endif  // GPUSCHED_TESTS_CONTROLLERS_CONTROLLER_TEST_UTIL_H_
