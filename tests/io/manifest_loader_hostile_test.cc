// Hostile input: YAML alias bombs, nesting
// 100,000 deep, huge, out-of-range, negative and NaN-like quantities,
// duplicate names and bytes that are not UTF-8, in YAML and JSON manifests;
// and the largest amounts that are valid. The loader's ordinary rules are in
// manifest_loader_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/model/resources.h"

#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Join;
using manifest_test::Load;

// Hostile input: each document is refused with
// an exact message naming the file, the line, the object (when the document
// got that far) and the field, in bounded time and memory, and the valid pod
// after it in the same file still loads. Every bound is checked before the
// YAML parser runs (CheckYamlBounds) or while decoding, so cost stays linear
// in the input: the 8 MiB scalar takes the same path as a 2 GB one would.
TEST(ManifestLoaderTest, HostileInputIsRefusedClearlyAndCheaply) {
  // Aliases are shared, never copied, in the document tree: 9^9 leaves cost 10 nodes.
  std::string map_bomb = "apiVersion: v1\nkind: Pod\nspec:\n  x:\n    a0: &a0 {a: lol, b: lol, c: lol}\n";
  for (int i = 1; i < 10; ++i) {
    map_bomb += "    a" + std::to_string(i) + ": &a" + std::to_string(i) + " {";
    for (int j = 0; j < 9; ++j) map_bomb += (j ? ", k" : "k") + std::to_string(j) + ": *a" + std::to_string(i - 1);
    map_bomb += "}\n";
  }
  map_bomb += "  containers: [{name: c, image: i}]\nmetadata:\n  name: bomb\n  labels: *a9\n";
  std::string laughs = "lols:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 10; ++i) {
    laughs += "  l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) laughs += (j ? ", *l" : "*l") + std::to_string(i - 1);
    laughs += "]\n";
  }
  laughs += "apiVersion: v1\nkind: Pod\nmetadata: {name: laughs}\nspec:\n";
  auto pod_with_cpu = [](const std::string& name, const std::string& cpu) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  containers:\n  - name: c\n    image: i\n"
           "    resources: {limits: {cpu: \"" + cpu + "\"}}\n";
  };
  auto pod_with_plain_cpu = [](const std::string& name, const std::string& cpu) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
           "}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {limits: {cpu: " + cpu + "}}\n";
  };
  const std::string kCannotHandle = "Pod in version \"v1\" cannot be handled as a Pod: ";
  const std::string kRegexp =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const std::string kRfc1123 =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
      "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const std::string valid = "---\n" + pod_with_cpu("ok", "1");
  struct Case {
    const char* name;
    std::string doc;
    std::string object;  // "" for a document refused before decoding
    std::string error;   // the one rejection, as "file:line: message"
  };
  const std::vector<Case> cases = {
      // YAML alias bombs ("billion laughs").
      // Go's decoder reports the first value of the wrong type only.
      {"alias bomb of maps", map_bomb, "Pod/default/bomb",
       "t.yaml:13: " + kCannotHandle +
           "json: cannot unmarshal object into Go struct field ObjectMeta.metadata.labels of type string"},
      {"alias bomb of lists", laughs + "  containers: *l9\n", "Pod/default/laughs",
       "t.yaml:10: " + kCannotHandle +
           "json: cannot unmarshal array into Go struct field PodSpec.spec.containers of type v1.Container"},
      {"alias bomb in tolerations", laughs + "  tolerations: *l9\n  containers: [{name: c, image: i}]\n",
       "Pod/default/laughs",
       "t.yaml:10: " + kCannotHandle +
           "json: cannot unmarshal array into Go struct field PodSpec.spec.tolerations of type v1.Toleration"},
      // Nesting 100,000 deep.
      {"flow nesting 100000 deep", "x: " + std::string(100000, '[') + std::string(100000, ']') + "\n", "",
       "t.yaml:1: cannot parse YAML: nesting deeper than 200 levels at line 1"},
      {"flow maps 100000 deep", "x: " + std::string(100000, '{') + std::string(100000, '}') + "\n", "",
       "t.yaml:1: cannot parse YAML: nesting deeper than 200 levels at line 1"},
      {"block sequences 100000 deep", "x:\n" + [] {
         std::string s;
         for (int i = 0; i < 100000; ++i) s += "- ";
         return s;
       }() + "y\n",
       "", "t.yaml:1: cannot parse YAML: nesting deeper than 200 levels at line 2"},
      // (A block map 100,000 deep needs 10^10 bytes of indentation; the same
      // indentation check refuses it at its 202nd line.)
      {"block maps 201 deep", [] {
         std::string s;
         for (int i = 0; i < 202; ++i) s += std::string(2 * static_cast<size_t>(i), ' ') + "a:\n";
         return s;
       }(),
       "", "t.yaml:1: cannot parse YAML: nesting deeper than 200 levels at line 202"},
      // Huge quantity strings: refused by length before parsing.
      {"8 MiB quoted quantity", pod_with_cpu("long", std::string(8u << 20, '1')), "",
       "t.yaml:1: cannot parse YAML: a value of 8388608 bytes at line 8 is longer than the 4 MiB gpusched accepts"},
      {"8 MiB plain quantity", pod_with_plain_cpu("long", std::string(8u << 20, '1')), "",
       "t.yaml:1: cannot parse YAML: a value of 4194305 bytes at line 8 is longer than the 4 MiB gpusched accepts"},
      // Quantities out of range, negative or not numbers.
      {"1e400", pod_with_cpu("big", "1e400"), "Pod/default/big",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: quantity too large"},
      {"2^63 milli-cpu", pod_with_cpu("big", "9223372036854775808m"), "Pod/default/big",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: quantity too large"},
      {"2^63-1 cores", pod_with_cpu("big", "9223372036854775807"), "Pod/default/big",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: quantity too large"},
      {"far beyond 2^63 milli-cpu", pod_with_cpu("big", "99999999999999999999999m"), "Pod/default/big",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: quantity too large"},
      {"NaN", pod_with_cpu("nan", "NaN"), "Pod/default/nan",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: " + kRegexp},
      {"nan", pod_with_cpu("nan", "nan"), "Pod/default/nan",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: " + kRegexp},
      {"inf", pod_with_cpu("inf", "inf"), "Pod/default/inf",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: " + kRegexp},
      {"-inf", pod_with_cpu("inf", "-inf"), "Pod/default/inf",
       "t.yaml:8: " + kCannotHandle + "spec.containers[0].resources.limits[cpu]: " + kRegexp},
      // A plain .inf is YAML 1.1's infinity, which JSON cannot hold: kubectl
      // cannot convert the document ("json: unsupported value: +Inf").
      {"plain .inf", pod_with_plain_cpu("inf", ".inf"), "",
       "t.yaml:8: cannot parse YAML at line 8, column 31: error converting YAML to JSON: json: unsupported value: "
       "+Inf"},
      {"negative", pod_with_cpu("neg", "-1"), "Pod/default/neg",
       "t.yaml:8: The Pod \"neg\" is invalid: \n"
       "* spec.containers[0].resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0\n"
       "* spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"},
      // Bytes that are not UTF-8 become U+FFFD as kubectl reads the file
      // (cli-runtime's UTF-8 decoder); then name validation refuses them.
      {"non-UTF-8 name",
       "apiVersion: v1\nkind: Pod\nmetadata: {name: \"caf\xA9\"}\nspec:\n  containers: [{name: c, image: i}]\n",
       "Pod/default/caf\xEF\xBF\xBD",
       "t.yaml:3: The Pod \"caf\xEF\xBF\xBD\" is invalid: metadata.name: Invalid value: \"caf\xEF\xBF\xBD\": " + kRfc1123},
      {"non-UTF-8 label value",
       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {a: \"\xFF\xFE\"}\nspec:\n"
       "  containers: [{name: c, image: i}]\n",
       "Pod/default/p",
       "t.yaml:5: The Pod \"p\" is invalid: metadata.labels: Invalid value: \"\xEF\xBF\xBD\xEF\xBF\xBD\": a valid label must be an "
       "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
       "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
       "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.doc + valid);
    ASSERT_EQ(m.rejected.size(), 1u);
    EXPECT_EQ(m.rejected[0].object, c.object);
    EXPECT_EQ(m.rejected[0].file, "t.yaml");
    EXPECT_EQ(m.rejected[0].ToString(), c.error);
    EXPECT_TRUE(m.warnings.empty()) << Join(m.warnings);
    ASSERT_EQ(m.pods.size(), 1u);
    EXPECT_EQ(m.pods[0].pod.name(), "ok");
  }
}

// Strict decoding looks at every field, and an alias bomb in one is refused
// at its first level, never expanded: an unknown field ("lols") is not
// descended into, a list of lists where strings belong stops at its first
// item.
TEST(ManifestLoaderTest, AliasBombIsRefusedWithoutBeingExpanded) {
  std::string laughs = "lols:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 10; ++i) {
    laughs += "  l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) laughs += (j ? ", *l" : "*l") + std::to_string(i - 1);
    laughs += "]\n";
  }
  Manifests m = Load(laughs + "apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {a: b}}\nspec:\n"
                              "  containers: [{name: c, image: i, command: *l9, args: *l9}]\n");
  EXPECT_TRUE(m.pods.empty());
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.yaml:10: Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal array into Go struct "
            "field Container.spec.containers.command of type string");
}

// The same bounds for JSON (kubectl -o json), checked by the JSON parser as
// it reads: a List refused as a whole takes the items already read from it
// with it, as kubectl decodes a List whole or not at all.
TEST(ManifestLoaderTest, HostileJsonIsRefusedClearlyAndCheaply) {
  auto json_pod = [](const std::string& name, const std::string& cpu) {
    return "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"" + name +
           "\"},\n \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\",\n"
           " \"resources\": {\"limits\": {\"cpu\": \"" + cpu + "\"}}}]}}";
  };
  auto list = [](const std::string& items) {
    return "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n" + items + "\n]}\n";
  };
  std::string deep_objects;
  for (int i = 0; i < 100000; ++i) deep_objects += "{\"a\": ";
  deep_objects += "1" + std::string(100000, '}');
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> errors;  // "object | file:line: message"
    std::vector<std::string> pods;
  };
  const std::vector<Case> cases = {
      {"arrays 100000 deep", std::string(100000, '[') + std::string(100000, ']'),
       {" | t.json:1: cannot parse JSON: nesting deeper than 200 levels at line 1"}, {}},
      {"objects 100000 deep", deep_objects,
       {" | t.json:1: cannot parse JSON: nesting deeper than 200 levels at line 1"}, {}},
      {"deep labels in a list", list(json_pod("ok", "1") + ",\n{\"kind\": \"Pod\", \"metadata\": {\"labels\": " +
                                     deep_objects + "}}"),
       {" | t.json:1: cannot parse JSON: nesting deeper than 200 levels at line 5"}, {}},
      {"8 MiB quantity", list(json_pod("long", std::string(8u << 20, '1'))),
       {" | t.json:1: cannot parse JSON: a value of 8388608 bytes at line 4 is longer than the 4 MiB gpusched "
        "accepts"},
       {}},
      {"1e400 and NaN next to a valid pod", list(json_pod("big", "1e400") + ",\n" + json_pod("nan", "NaN") + ",\n" +
                                                 json_pod("ok", "1")),
       {"Pod/default/big | t.json:4: Pod in version \"v1\" cannot be handled as a Pod: "
        "spec.containers[0].resources.limits[cpu]: quantity too large",
        "Pod/default/nan | t.json:7: Pod in version \"v1\" cannot be handled as a Pod: "
        "spec.containers[0].resources.limits[cpu]: quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
       {"ok"}},
      {"duplicate names", list(json_pod("ok", "1") + ",\n" + json_pod("ok", "2") +
                               ",\n{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"n\"}, \"status\": "
                               "{\"allocatable\": {\"pods\": \"1\"}}},\n{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": "
                               "{\"name\": \"n\"}, \"status\": {\"allocatable\": {\"pods\": \"2\"}}}"),
       {"Pod/default/ok | t.json:5: pods \"ok\" already exists", "Node/n | t.json:9: nodes \"n\" already exists"},
       {"ok"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text, "t.json");
    std::vector<std::string> errors, pods;
    for (const auto& r : m.rejected) errors.push_back(r.object + " | " + r.ToString());
    for (const auto& p : m.pods) pods.push_back(p.pod.name());
    EXPECT_EQ(errors, c.errors);
    EXPECT_EQ(pods, c.pods);
  }
}

TEST(ManifestLoaderTest, ExtremeButValidAmountsSaturateInsteadOfWrapping) {
  // A node with 2^40 GPUs and a pod asking 2^63-1 milli-cpu load as given.
  Manifests m = Load(
      "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: \"64\", pods: \"110\", "
      "nvidia.com/gpu: \"1099511627776\"}\n---\n" +
      std::string("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n"
                  "    resources: {limits: {cpu: \"9223372036854775807m\", nvidia.com/gpu: \"1099511627776\"}}\n"));
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].message;
  ASSERT_EQ(m.pods.size(), 1u);
  Resources r = Resources::FromList(m.pods[0].pod.containers[0].requests);
  EXPECT_EQ(r.milli_cpu, INT64_MAX);
  EXPECT_EQ(r.Scalar("nvidia.com/gpu"), 1LL << 40);
}

}  // namespace
}  // namespace gpusched
