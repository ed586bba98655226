// gpusched's manifest loader against kubectl itself: every example and
// generated variants built like the loader tests' fixtures (anchors, merge keys, octal/hex/exponent numbers, quoted and plain
// values, CRLF, BOM, several documents, JSON streams, duplicate keys, values
// of the wrong type) go through `kubectl label --local -f FILE
// gpusched/probe=1 -o json` and through LoadManifestPaths. Both must read
// the same objects with the same values on the fields gpusched models, or
// both refuse an object; where gpusched refuses what kubectl's client-side
// decoding lets through (it is stricter because `kubectl apply` with
// server-side field validation Strict would refuse it), the case says why.
// Skips, saying so, where kubectl is not installed.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpusched/io/json_documents.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/quantity.h"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

std::string Kubectl() {
  if (const char* env = std::getenv("GPUSCHED_KUBECTL")) return env;
  for (const char* p : {"/usr/bin/kubectl", "/usr/local/bin/kubectl", "/usr/lib/google-cloud-sdk/bin/kubectl"})
    if (fs::exists(p)) return p;
  return "";
}

struct Run {
  int status = 0;
  std::string out, err;
};

Run Exec(const std::string& cmd) {
  Run r;
  const std::string err_file = ::testing::TempDir() + "/kubectl_stderr.txt";
  FILE* p = popen((cmd + " 2>" + err_file).c_str(), "r");
  if (!p) return r;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  r.status = pclose(p);
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

// The fields gpusched models, as text, per object ("Pod/ns/name").
using Fields = std::map<std::string, std::string>;

std::string QuantityText(std::string_view s) {
  Result<Quantity> q = Quantity::Parse(s);
  return q.ok() ? q->String() : "?" + std::string(s);
}

std::string StrMap(const DocNode& m, bool drop_probe = false) {
  std::string s;
  for (auto [k, v] : m.Entries()) {
    if (drop_probe && k.Scalar() == "gpusched/probe") continue;
    s += std::string(k.Scalar()) + "=" + std::string(v.Scalar()) + ";";
  }
  return s;
}

std::string Quantities(const DocNode& m) {
  std::string s;
  for (auto [k, v] : m.Entries()) s += std::string(k.Scalar()) + "=" + QuantityText(v.Scalar()) + ";";
  return s;
}

// From kubectl's JSON.
void FromKubectl(const DocNode& o, std::map<std::string, Fields>& out) {
  const std::string kind(o["kind"].Scalar());
  const DocNode meta = o["metadata"];
  std::string ns(meta["namespace"].Scalar());
  if (kind == "Pod" && ns.empty()) ns = "default";
  const std::string id = kind + "/" + ns + "/" + std::string(meta["name"].Scalar());
  Fields f;
  f["labels"] = StrMap(meta["labels"], true);
  f["annotations"] = StrMap(meta["annotations"]);
  if (kind == "Pod") {
    const DocNode spec = o["spec"];
    std::string containers;
    for (DocNode c : spec["containers"]) {
      // The API server's SetDefaults_Pod: a request defaults to its limit
      // (gpusched's model holds the defaulted pod).
      std::map<std::string, std::string> requests;
      for (auto [k, v] : c["resources"]["limits"].Entries()) requests[std::string(k.Scalar())] = QuantityText(v.Scalar());
      for (auto [k, v] : c["resources"]["requests"].Entries())
        requests[std::string(k.Scalar())] = QuantityText(v.Scalar());
      std::string r;
      for (const auto& [k, v] : requests) r += k + "=" + v + ";";
      containers += std::string(c["name"].Scalar()) + ":" + Quantities(c["resources"]["limits"]) + "|" + r + ";";
    }
    f["containers"] = containers;
    f["nodeName"] = spec["nodeName"].Scalar();
    f["nodeSelector"] = StrMap(spec["nodeSelector"]);
    f["priorityClassName"] = spec["priorityClassName"].Scalar();
    std::string tolerations;
    for (DocNode t : spec["tolerations"])
      tolerations += std::string(t["key"].Scalar()) + "," + std::string(t["operator"].Scalar()) + "," +
                     std::string(t["value"].Scalar()) + "," + std::string(t["effect"].Scalar()) + ";";
    f["tolerations"] = tolerations;
  } else if (kind == "Node") {
    f["allocatable"] = Quantities(o["status"]["allocatable"]);
    f["capacity"] = Quantities(o["status"]["capacity"]);
    f["unschedulable"] = o["spec"]["unschedulable"].Scalar() == "true" ? "true" : "false";
    std::string taints;
    for (DocNode t : o["spec"]["taints"])
      taints += std::string(t["key"].Scalar()) + "," + std::string(t["value"].Scalar()) + "," +
                std::string(t["effect"].Scalar()) + ";";
    f["taints"] = taints;
  } else {
    return;
  }
  out[id] = f;
}

std::string Map(const std::map<std::string, std::string, std::less<>>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += k + "=" + v + ";";
  return s;
}
std::string Map(const ResourceList& m) {
  std::string s;
  for (const auto& [k, v] : m) s += k + "=" + v.String() + ";";
  return s;
}

// From gpusched's model (defaulted as the API server defaults a pod).
void FromGpusched(const Manifests& m, std::map<std::string, Fields>& out, std::set<std::string>& expanded) {
  for (const auto& lp : m.pods) {
    const Pod& p = lp.pod;
    if (!p.owner.empty()) {
      expanded.insert(p.owner);
      continue;
    }
    Fields f;
    f["labels"] = Map(p.meta.labels);
    f["annotations"] = Map(p.meta.annotations);
    std::string containers;
    for (const auto& c : p.containers) containers += c.name + ":" + Map(c.limits) + "|" + Map(c.requests) + ";";
    f["containers"] = containers;
    f["nodeName"] = p.node_name;
    f["nodeSelector"] = Map(p.node_selector);
    f["priorityClassName"] = p.priority_class_name;
    std::string tolerations;
    for (const auto& t : p.tolerations) tolerations += t.key + "," + t.op + "," + t.value + "," + t.effect + ";";
    f["tolerations"] = tolerations;
    out["Pod/" + p.ns() + "/" + p.name()] = f;
  }
  for (const auto& ln : m.nodes) {
    const Node& n = ln.node;
    Fields f;
    f["labels"] = Map(n.meta.labels);
    f["annotations"] = Map(n.meta.annotations);
    f["allocatable"] = Map(n.allocatable);
    f["capacity"] = Map(n.capacity);
    f["unschedulable"] = n.unschedulable ? "true" : "false";
    std::string taints;
    for (const auto& t : n.taints) taints += t.key + "," + t.value + "," + t.effect + ";";
    f["taints"] = taints;
    out["Node//" + n.name()] = f;
  }
}

struct Case {
  std::string name;
  std::string text;
  // Why gpusched refuses objects kubectl's client reads (empty: it must not).
  std::string stricter;
  const char* ext = ".yaml";
};

class Differ {
 public:
  explicit Differ(std::string kubectl) : kubectl_(std::move(kubectl)) {}

  void Check(const Case& c) {
    SCOPED_TRACE(c.name);
    const std::string path = ::testing::TempDir() + "/differential" + c.ext;
    std::ofstream(path, std::ios::binary) << c.text;
    Run k = Exec(kubectl_ + " label --local -f " + path + " gpusched/probe=1 -o json");
    std::map<std::string, Fields> want, got;
    JsonStreamEvents ev;
    ev.item = [&](const DocNode& item) { FromKubectl(item, want); };
    ev.end = [&](const DocNode& v, size_t) {
      if (!v["items"].IsDefined()) FromKubectl(v, want);
    };
    ParseJsonStream(k.out, 1, ev);
    size_t kubectl_errors = 0;
    for (size_t p = k.err.find("error:"); p != std::string::npos; p = k.err.find("error:", p + 1)) ++kubectl_errors;

    Manifests m;
    ASSERT_TRUE(LoadManifestPaths({path}, LoadOptions{}, m).ok());
    std::set<std::string> expanded;
    FromGpusched(m, got, expanded);
    ++checked_;

    // Everything gpusched read, kubectl read the same way.
    for (const auto& [id, fields] : got) {
      auto it = want.find(id);
      ASSERT_NE(it, want.end()) << id << " read by gpusched, not by kubectl; kubectl said: " << k.err;
      EXPECT_EQ(fields, it->second) << id;
    }
    // What kubectl read and gpusched did not is refused (or skipped with a
    // warning, e.g. a finished pod) by gpusched, for a reason the case gives.
    size_t missing = 0;
    for (const auto& [id, fields] : want) {
      if (got.count(id)) continue;
      ++missing;
      const std::string name = id.substr(id.rfind('/') + 1);
      bool accounted = false;
      for (const auto& r : m.rejected) accounted = accounted || r.object.find(name) != std::string::npos;
      for (const auto& w : m.warnings) accounted = accounted || w.find(name) != std::string::npos;
      EXPECT_TRUE(accounted) << id << " read by kubectl, silently dropped by gpusched";
    }
    if (missing > 0 || m.rejected.size() > kubectl_errors) {
      EXPECT_FALSE(c.stricter.empty()) << "gpusched refused more than kubectl: " << m.rejected.size()
                                       << " rejections against " << kubectl_errors << " kubectl errors; first: "
                                       << (m.rejected.empty() ? "" : m.rejected[0].ToString());
    } else {
      EXPECT_TRUE(c.stricter.empty()) << "the case says gpusched is stricter, but it refused nothing more";
    }
    // kubectl's errors are gpusched's too.
    EXPECT_GE(m.rejected.size(), kubectl_errors) << "kubectl: " << k.err;
  }
  int checked() const { return checked_; }

 private:
  std::string kubectl_;
  int checked_ = 0;
};

std::vector<Case> Variants() {
  const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n";
  const std::string spec = "spec:\n  containers:\n  - name: c\n    image: i\n";
  const std::string node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n";
  auto json_pod = [](const std::string& name, const std::string& extra) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"" + extra +
           "},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}";
  };
  return {
      {"YAML 1.1 numbers as quantities",
       node + "status:\n  allocatable: {cpu: 010, memory: 0x10, pods: 1_10, nvidia.com/gpu: 1e1, ephemeral-storage: 08}\n"},
      {"exponents and decimals", node + "status:\n  allocatable: {cpu: 1.5, memory: 1e3, pods: 110.0, nvidia.com/gpu: +4}\n"},
      {"quoted and plain strings", pod + "  labels: {a: \"010\", b: '0x2', c: plain, d: \"yes\"}\n" + spec},
      {"anchors and aliases",
       "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: &l {gpu: a100, zone: z1}\n  annotations: *l\n"
       "status:\n  capacity: &c {cpu: '4', pods: '110'}\n  allocatable: *c\n"},
      {"merge keys", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: &base {app: web, tier: x}\n"
                     "  annotations:\n    <<: *base\n    tier: y\n    <<: [{extra: '1'}, {extra: '2', more: '3'}]\n" + spec},
      {"merge key in a node selector", pod + "  labels: &l {zone: a}\nspec:\n  nodeSelector:\n    <<: *l\n"
                                             "  containers: [{name: c, image: i}]\n"},
      {"CRLF line ends", "apiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n  name: p\r\nspec:\r\n  containers:\r\n  - name: c\r\n"
                         "    image: i\r\n    resources: {limits: {nvidia.com/gpu: 2}}\r\n"},
      {"byte order mark", "\xEF\xBB\xBF" + pod + spec},
      {"several documents", pod + spec + "---\n" + node + "---\n# a comment\n---\napiVersion: v1\nkind: Pod\n"
                            "metadata: {name: q, namespace: ml}\n" + spec},
      {"tolerations and taints",
       pod + "spec:\n  tolerations:\n  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
             "  containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]\n---\n" + node +
           "spec:\n  unschedulable: yes\n  taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\n"},
      {"a JSON List", "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" + json_pod("a", "") + "," +
                          json_pod("b", ",\"namespace\":\"ml\"") + "]}", "", ".json"},
      {"a JSON stream (jq -c)", json_pod("a", "") + "\n" + json_pod("b", "") + "\n" + json_pod("c", "") + "\n", "", ".json"},
      {"a JSON syntax error in a stream", json_pod("a", "") + "\n" + json_pod("b", ",") + "\n" + json_pod("c", ""), "",
       ".json"},
      {"a JSON List with a trailing comma", "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" + json_pod("a", "") +
                                                "," + json_pod("b", "") + ",]}", "", ".json"},
      {"an unquoted number as an annotation", pod + "  annotations: {gpu-fraction: 0.5}\n" + spec},
      {"a boolean as a label", pod + "  labels: {enabled: yes}\n" + spec},
      {"key n is false", pod + "  labels: {n: x}\n" + spec},
      // Stricter than kubectl's client-side decoding:
      {"a duplicate key", pod + "  name: q\n" + spec,
       "a duplicate field is a strict decoding error (kubectl's client keeps the last value)"},
      {"an unknown field", pod + spec + "    resource: {limits: {nvidia.com/gpu: 1}}\n",
       "an unknown field is a strict decoding error (kubectl's client drops it)"},
      {"a string as replicas", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: \"5\"\n"
                               "  template:\n    spec:\n      containers: [{name: c, image: i}]\n",
       "a string where an int32 belongs is refused by the API server's decoding; label --local keeps the object "
       "unstructured"},
      {"no apiVersion", "kind: Pod\nmetadata: {name: p}\n" + spec,
       "kubectl's validation (kubectl apply) refuses an object without apiVersion; label --local does not validate"},
      {"a fractional GPU", pod + spec + "    resources: {limits: {nvidia.com/gpu: 0.5}}\n",
       "the API server's validation refuses a fractional extended resource; label --local does not validate"},
  };
}

TEST(KubectlDifferentialTest, GpuschedReadsManifestsAsKubectlDoes) {
  const std::string kubectl = Kubectl();
  if (kubectl.empty()) GTEST_SKIP() << "kubectl is not installed: the differential test against kubectl did not run";
  Differ differ(kubectl);
  // The examples (manifests only: not the KubeSchedulerConfigurations nor
  // the SyntheticWorkload spec, which are not Kubernetes objects).
  const fs::path root = GPUSCHED_SOURCE_DIR;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root / "examples")) {
    if (!e.is_regular_file() || e.path().extension() != ".yaml") continue;
    if (e.path().parent_path().filename() == "config" || e.path().filename() == "synthetic.yaml") continue;
    files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 9u);
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    std::string why;
    // The mistakes are meant to be refused by the API server's validation.
    if (f.string().find("fractional-gpu") != std::string::npos)
      why = "the API server's validation refuses a fractional extended resource; label --local does not validate";
    if (f.string().find("dra-invalid") != std::string::npos)
      why = "the API server's validation refuses a CEL selector that does not compile and a constraint attribute "
            "without a domain; label --local does not validate";
    // Pods naming a PriorityClass that a sibling file defines: alone, the
    // Priority admission plugin refuses them; label --local does not admit.
    if ((f.parent_path().filename() == "preemption" &&
         (f.filename() == "inference.yaml" || f.filename() == "training.yaml")) ||
        (f.parent_path().filename() == "gangs" && f.parent_path().parent_path().filename() == "preemption" &&
         f.filename() == "training.yaml"))
      why = "its PriorityClass is defined in priorityclasses.yaml; alone, Priority admission refuses the pods";
    differ.Check(Case{fs::relative(f, root).string(), text, why});
  }
  for (const Case& c : Variants()) differ.Check(c);
  EXPECT_GE(differ.checked(), 30);
}

}  // namespace
}  // namespace gpusched
