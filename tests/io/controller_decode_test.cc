// Decoding and validation of workload controllers and ownerReferences,
// through the loader (the decode functions are private to src/io). Lines are
// those of the nearest recorded field; a block map's is its first key's.
#include <gtest/gtest.h>

#include "gpusched/io/manifest_loader.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Load;

const std::string kTemplate =
    "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: i}]\n";

struct RejectCase {
  const char* name;
  std::string text;
  int line;
  std::string message;
};

TEST(ControllerDecodeTest, ValidationMessages) {
  const RejectCase cases[] = {
      {"Deployment without selector",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n" + kTemplate, 5,
       "The Deployment \"web\" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: "
       "Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`"},
      {"selector not matching the template",
       "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: api}}\n" +
           kTemplate,
       7,
       "The ReplicaSet \"web\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`"},
      {"empty selector",
       "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  selector: {}\n" + kTemplate, 5,
       "The StatefulSet \"web\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]"
       "string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset"},
      {"DaemonSet without selector",
       "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: dp}\nspec:\n" + kTemplate, 6,
       "The DaemonSet \"dp\" is invalid: spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`"},
      {"bad selector operator",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector:\n    matchExpressions:\n"
       "    - {key: app, operator: Equals, values: [web]}\n" + kTemplate,
       7,
       "The Deployment \"web\" is invalid: \n* spec.selector.matchExpressions[0].operator: Invalid value: "
       "\"Equals\": not a valid selector operator\n* spec.template.metadata.labels: Invalid value: "
       "map[string]string{\"app\":\"web\"}: `selector` does not match template `labels`"},
      {"negative replicas",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: -1\n"
       "  selector: {matchLabels: {app: web}}\n" + kTemplate,
       5, "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
      {"maxSurge and maxUnavailable both 0",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n"
       "  strategy:\n    rollingUpdate: {maxSurge: 0, maxUnavailable: 0}\n" + kTemplate,
       7,
       "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be "
       "0 when `maxSurge` is 0"},
      {"maxSurge not a percentage",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n"
       "  strategy:\n    rollingUpdate: {maxSurge: lots}\n" + kTemplate,
       7,
       "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid "
       "percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
       "validation is '[0-9]+%')"},
      {"Recreate with rollingUpdate",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n"
       "  strategy:\n    type: Recreate\n    rollingUpdate: {maxSurge: 1}\n" + kTemplate,
       8,
       "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when "
       "strategy `type` is 'Recreate'"},
      {"unknown strategy",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n"
       "  strategy: {type: BlueGreen}\n" + kTemplate,
       6,
       "The Deployment \"web\" is invalid: spec.strategy.type: Unsupported value: \"BlueGreen\": supported values: "
       "\"Recreate\", \"RollingUpdate\""},
      {"Indexed Job without completions",
       "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completionMode: Indexed\n  parallelism: 2\n" +
           kTemplate,
       5, "The Job \"j\" is invalid: spec.completions: Required value: when completion mode is Indexed"},
      {"CronJob without schedule",
       "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  jobTemplate:\n    spec:\n"
       "      template:\n        spec:\n          containers: [{name: c, image: i}]\n",
       5, "The CronJob \"c\" is invalid: spec.schedule: Required value"},
      {"pod ownerReference without uid",
       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences:\n"
       "  - {apiVersion: apps/v1, kind: ReplicaSet, name: rs, controller: true}\nspec:\n  containers: [{name: c, "
       "image: i}]\n",
       6, "The Pod \"p\" is invalid: metadata.ownerReferences.uid: Invalid value: \"\": uid must not be empty"},
      {"two controller references",
       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences:\n"
       "  - {apiVersion: apps/v1, kind: ReplicaSet, name: a, uid: u1, controller: true}\n"
       "  - {apiVersion: apps/v1, kind: ReplicaSet, name: b, uid: u2, controller: true}\nspec:\n  containers: "
       "[{name: c, image: i}]\n",
       6,
       "The Pod \"p\" is invalid: metadata.ownerReferences: Invalid value: []v1.OwnerReference{...}: Only one "
       "reference can have Controller set to true. Found \"true\" in references for ReplicaSet/a and ReplicaSet/b"},
      {"ownerReferences of the wrong type",
       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences: {kind: x}\nspec:\n  containers: [{name: c, "
       "image: i}]\n",
       5, "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference"},
  };
  for (const RejectCase& c : cases) {
    SCOPED_TRACE(c.name);
    Manifests m = Load(c.text);
    ASSERT_EQ(m.rejected.size(), 1u);
    EXPECT_EQ(m.rejected[0].line, c.line);
    EXPECT_EQ(m.rejected[0].message, c.message);
    EXPECT_TRUE(m.pods.empty());
  }
}

TEST(ControllerDecodeTest, DefaultsAndFieldsRead) {
  Manifests m = Load(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  uid: d1\n  creationTimestamp: "
      "\"2025-01-01T00:00:00Z\"\n  generation: 3\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: web}}\n" +
      kTemplate +
      "status: {replicas: 2, availableReplicas: 1, observedGeneration: 3}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  ownerReferences:\n"
      "  - {apiVersion: v1, kind: Node, name: n1, uid: n-uid}\n"
      "  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-abc, uid: rs1, controller: true, blockOwnerDeletion: "
      "true}\nspec:\n  containers: [{name: c, image: i}]\n");
  ASSERT_TRUE(m.rejected.empty()) << m.rejected[0].ToString();
  ASSERT_EQ(m.pods.size(), 1u);
  ASSERT_TRUE(m.pods[0].pod.controller_ref);
  EXPECT_EQ(m.pods[0].pod.controller_ref->name, "web-abc");
  EXPECT_EQ(m.pods[0].pod.controller_ref->uid, "rs1");
  EXPECT_EQ(m.pods[0].pod.controller_ref->api_version, "apps/v1");
  ASSERT_EQ(m.controller_pods.size(), 1u);
  EXPECT_EQ(m.controller_pods[0].summary,
            "0 replicas wanted (RollingUpdate, maxSurge 25%, maxUnavailable 25%); rolling update; new ReplicaSet "
            "web-vdgb8zbvpn (not in the input): 0 replicas, 0 present, creates 0");
}

}  // namespace
}  // namespace gpusched
