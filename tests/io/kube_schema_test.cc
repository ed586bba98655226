#include "gpusched/io/kube_schema.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpusched/io/json_documents.h"
#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/yaml_documents.h"

namespace gpusched {
namespace {

// A JSON value that a field of type `t` accepts.
std::string Sample(const FieldType& t, int depth) {
  switch (t.kind) {
    case FieldKind::kString: return "\"x\"";
    case FieldKind::kInt32:
    case FieldKind::kInt64:
    case FieldKind::kUint32:
    case FieldKind::kUint64: return "1";
    case FieldKind::kFloat: return "1.5";
    case FieldKind::kBool: return "true";
    case FieldKind::kAny: return "\"1\"";
    case FieldKind::kSlice: return depth > 3 ? "[]" : "[" + Sample(*t.elem, depth + 1) + "]";
    case FieldKind::kMap: return depth > 3 ? "{}" : "{\"k\": " + Sample(*t.elem, depth + 1) + "}";
    case FieldKind::kStruct: {
      if (depth > 3) return "{}";
      std::string s = "{";
      for (size_t i = 0; i < t.schema->count; ++i)
        s += (i ? ", \"" : "\"") + std::string(t.schema->fields[i].json) + "\": " +
             Sample(t.schema->fields[i].type, depth + 1);
      return s + "}";
    }
  }
  return "null";
}

StrictDecodeResult CheckJson(const std::string& json, const StructSchema& schema) {
  StrictDecodeResult r;
  JsonStreamEvents ev;
  ev.end = [&](const DocNode& v, size_t) { r = StrictDecode(v, schema); };
  ev.error = [&](int, const std::string& m) { r.type_error = "parse error: " + m; };
  ParseJsonStream(json, 1, ev);
  return r;
}

// Every field name of every struct the tables hold is accepted, with a value
// of its type, in every struct at once (so no valid field is ever refused).
TEST(KubeSchemaTest, EveryFieldOfEveryStructIsAccepted) {
  std::vector<const StructSchema*> all = AllStructSchemas();
  ASSERT_GT(all.size(), 100u);
  size_t fields = 0;
  for (const StructSchema* s : all) {
    SCOPED_TRACE(s->go_name);
    FieldType t{FieldKind::kStruct, s->go_name, s, nullptr};
    StrictDecodeResult r = CheckJson(Sample(t, 0), *s);
    EXPECT_TRUE(r.ok()) << r.Message();
    fields += s->count;
  }
  EXPECT_GT(fields, 900u);
  // The structs named in the issue refuse unknown fields.
  for (const char* name : {"ObjectMeta", "Pod", "PodSpec", "Container", "ResourceRequirements", "Toleration",
                           "Affinity", "NodeAffinity", "NodeSelectorTerm", "NodeSelectorRequirement", "Node", "NodeSpec",
                           "NodeStatus", "Taint", "Deployment", "DeploymentSpec", "Job", "JobSpec", "PriorityClass"}) {
    const StructSchema* s = FindStructSchema(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_TRUE(s->strict) << name;
  }
  // A few fields from k8s.io/api, checked by hand.
  const StructSchema* pod_spec = FindStructSchema("PodSpec");
  for (const char* f : {"containers", "initContainers", "schedulingGates", "resourceClaims", "resources", "overhead",
                        "priorityClassName", "topologySpreadConstraints", "tolerations", "affinity", "nodeName"})
    EXPECT_NE(pod_spec->Find(f), nullptr) << f;
  EXPECT_EQ(pod_spec->Find("Containers"), nullptr);  // case-sensitive, as sigs.k8s.io/json
  EXPECT_EQ(std::string(FindStructSchema("ObjectMeta")->Find("uid")->type.go_type), "types.UID");
}

TEST(KubeSchemaTest, ErrorsInKubectlWording) {
  const StructSchema& pod = *FindStructSchema("Pod");
  const StructSchema& deployment = *FindStructSchema("Deployment");
  struct Case {
    const char* name;
    std::string json;
    const StructSchema* schema;
    std::string message;
  };
  const Case cases[] = {
      {"number as an annotation", R"({"metadata": {"annotations": {"gpu-fraction": 0.5}}})", &pod,
       "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string"},
      {"string replicas", R"({"spec": {"replicas": "5"}})", &deployment,
       "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"},
      {"fractional replicas", R"({"spec": {"replicas": 5.5}})", &deployment,
       "json: cannot unmarshal number 5.5 into Go struct field DeploymentSpec.spec.replicas of type int32"},
      {"replicas out of int32", R"({"spec": {"replicas": 3000000000}})", &deployment,
       "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32"},
      {"a template's container name", R"({"spec": {"template": {"spec": {"containers": [{"name": 7}]}}}})",
       &deployment,
       "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name of type "
       "string"},
      {"bool as a string", R"({"spec": {"nodeName": true}})", &pod,
       "json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeName of type string"},
      {"object as a list", R"({"spec": {"tolerations": {}}})", &pod,
       "json: cannot unmarshal object into Go struct field PodSpec.spec.tolerations of type []v1.Toleration"},
      {"named string type", R"({"spec": {"restartPolicy": 1}})", &pod,
       "json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy"},
      {"first type error wins over unknown fields", R"({"spek": 1, "spec": {"priority": "high"}})", &pod,
       "json: cannot unmarshal string into Go struct field PodSpec.spec.priority of type int32"},
      {"unknown fields, in order, with indices",
       R"({"spec": {"containers": [{"name": "a"}, {"name": "b", "resource": {}}]}, "metdata": {}})", &pod,
       "strict decoding error: unknown field \"spec.containers[1].resource\", unknown field \"metdata\""},
      {"a field of another case", R"({"spec": {"NodeName": "a"}})", &pod,
       "strict decoding error: unknown field \"spec.NodeName\""},
      {"null is any type", R"({"spec": {"replicas": null, "template": null}, "metadata": null})", &deployment, ""},
      {"quantities read themselves", R"({"spec": {"overhead": {"cpu": 1, "memory": "1Gi"}}})", &pod, ""},
      {"unknown fields deeper down are not refused", R"({"spec": {"volumes": [{"name": "v", "futureSource": {}}]}})",
       &pod, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    StrictDecodeResult r = CheckJson(c.json, *c.schema);
    EXPECT_EQ(r.ok() ? "" : r.Message(), c.message);
  }
}

TEST(KubeSchemaTest, DuplicateKeysNameTheFieldAndBothLines) {
  Document doc;
  int line = 0;
  std::string error;
  ASSERT_TRUE(ParseYamlDocument(
      YamlDocument{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  labels: {x: '1', x: '2'}\n  name: b\n", 1}, doc,
      line, error));
  StrictDecodeResult r = StrictDecode(doc.root(), *FindStructSchema("Pod"));
  EXPECT_EQ(r.Message(),
            "strict decoding error: duplicate field \"metadata.labels.x\" (lines 5 and 5), duplicate field "
            "\"metadata.name\" (lines 4 and 6)");
  EXPECT_EQ(r.Line(), 5);
  EXPECT_EQ(doc.root()["metadata"]["name"].Scalar(), "b");  // kubectl's client-side decoding keeps the last
}

}  // namespace
}  // namespace gpusched
