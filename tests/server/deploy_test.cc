// deploy/: the manifests a user applies load as the API server would take
// them (nothing rejected: `gpusched schedule -f deploy/`), and the
// KubeSchedulerConfiguration in the ConfigMap is the one in deploy/config/,
// valid with its extenders stanza pointing at `gpusched serve`.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/sched/plugins/registry.h"
#include "gpusched/server/reflector.h"

namespace gpusched {
namespace {

const std::string kDeploy = std::string(GPUSCHED_SOURCE_DIR) + "/deploy";

TEST(DeployTest, ManifestsLoadWithNothingRejected) {
  Manifests m;
  ASSERT_TRUE(LoadManifestPaths({kDeploy}, LoadOptions{}, m).ok());
  EXPECT_TRUE(m.rejected.empty()) << (m.rejected.empty() ? "" : m.rejected.front().ToString());
  ASSERT_EQ(m.pods.size(), 2u);  // the Deployment's two replicas
  const Pod& pod = m.pods.front().pod;
  ASSERT_EQ(pod.containers.size(), 2u);
  EXPECT_EQ(pod.containers[0].name, "kube-scheduler");
  EXPECT_EQ(pod.containers[1].name, "gpusched");
}

TEST(DeployTest, ConfigMapHoldsTheValidatedConfiguration) {
  std::ifstream cm_in(kDeploy + "/configmap.yaml"), cfg_in(kDeploy + "/config/kube-scheduler-config.yaml");
  std::stringstream cm, cfg;
  cm << cm_in.rdbuf();
  cfg << cfg_in.rdbuf();
  std::vector<YamlDocument> docs = SplitYamlDocuments(cm.str());
  ASSERT_EQ(docs.size(), 1u);
  Document tree;
  int line = 0;
  std::string error;
  ASSERT_TRUE(ParseYamlDocument(docs[0], tree, line, error)) << error;
  const std::string embedded(tree.root()["data"]["config.yaml"].Scalar());
  EXPECT_EQ(embedded, cfg.str());
  std::vector<std::string> warnings;
  Result<KubeSchedulerConfiguration> c = LoadSchedulerConfigText(embedded, "config.yaml", &warnings, InTreePlugins());
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->extenders.size(), 1u);
  const Extender& e = c->extenders[0];
  EXPECT_EQ(e.url_prefix, "http://127.0.0.1:8888");
  EXPECT_EQ(e.bind_verb, "bind");
  EXPECT_TRUE(e.node_cache_capable);
  EXPECT_EQ(c->profiles.at(0).scheduler_name, "gpusched");
}

// deploy/rbac.yaml's ClusterRole gpusched-extender grants exactly what the
// code asks of the API server (RequiredApiAccess): nothing missing (serve
// would never sync, or never bind), nothing more (least privilege).
TEST(DeployTest, RbacGrantsExactlyWhatServeCalls) {
  std::ifstream in(kDeploy + "/rbac.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<ApiAccess> granted;
  bool found = false;
  for (const YamlDocument& doc : SplitYamlDocuments(text.str())) {
    Document tree;
    int line = 0;
    std::string error;
    ASSERT_TRUE(ParseYamlDocument(doc, tree, line, error)) << error;
    const DocNode root = tree.root();
    if (root["kind"].Scalar() != "ClusterRole" || root["metadata"]["name"].Scalar() != "gpusched-extender") continue;
    found = true;
    const DocNode rules = root["rules"];
    for (size_t r = 0; r < rules.size(); ++r) {
      const DocNode groups = rules[r]["apiGroups"], resources = rules[r]["resources"], verbs = rules[r]["verbs"];
      for (size_t g = 0; g < groups.size(); ++g)
        for (size_t k = 0; k < resources.size(); ++k)
          for (size_t v = 0; v < verbs.size(); ++v)
            granted.push_back({std::string(groups[g].Scalar()), std::string(resources[k].Scalar()),
                               std::string(verbs[v].Scalar())});
    }
  }
  ASSERT_TRUE(found);
  std::sort(granted.begin(), granted.end());
  const std::vector<ApiAccess> required = RequiredApiAccess();
  ASSERT_EQ(required.size(), 23u);  // list+watch of 11 kinds, create pods/binding
  EXPECT_EQ(granted, required);
}

std::vector<Document> LoadYaml(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<Document> out;
  for (const YamlDocument& doc : SplitYamlDocuments(text.str())) {
    Document tree;
    int line = 0;
    std::string error;
    EXPECT_TRUE(ParseYamlDocument(doc, tree, line, error)) << path << ": " << error;
    out.push_back(std::move(tree));
  }
  return out;
}

// Issue 28: more than one replica, and never two extenders binding at once.
// kube-scheduler's leader election makes one replica active; each sidecar
// listens on its pod's loopback only, where its own kube-scheduler calls it;
// an old leader stops at renewDeadline and a new one starts no sooner than
// leaseDuration, whose difference covers the extender's httpTimeout (and so
// the sidecar's bind timeout under it). The PodDisruptionBudget keeps one
// replica; the sidecar runs as gpusched-extender, whose ClusterRoleBinding
// is the only one it has.
TEST(DeployTest, TwoReplicasOneActive) {
  std::vector<Document> docs = LoadYaml(kDeploy + "/deployment.yaml");
  ASSERT_EQ(docs.size(), 1u);
  const DocNode dep = docs[0].root();
  EXPECT_EQ(dep["spec"]["replicas"].Scalar(), "2");
  const DocNode labels = dep["spec"]["template"]["metadata"]["labels"];
  const DocNode spec = dep["spec"]["template"]["spec"];
  EXPECT_EQ(spec["serviceAccountName"].Scalar(), "gpusched");
  const DocNode sidecar = spec["containers"][1];
  ASSERT_EQ(sidecar["name"].Scalar(), "gpusched");
  std::vector<std::string> args;
  for (size_t i = 0; i < sidecar["command"].size(); ++i) args.emplace_back(sidecar["command"][i].Scalar());
  EXPECT_NE(std::find(args.begin(), args.end(), "--listen=127.0.0.1:8888"), args.end());
  EXPECT_NE(std::find(args.begin(), args.end(), "--bind-timeout=4"), args.end());
  EXPECT_EQ(sidecar["volumeMounts"][0]["mountPath"].Scalar(), "/var/run/secrets/kubernetes.io/serviceaccount");
  EXPECT_EQ(sidecar["volumeMounts"][0]["name"].Scalar(), "extender-token");
  EXPECT_EQ(sidecar["resources"]["limits"]["memory"].Scalar(), "512Mi");
  EXPECT_EQ(spec["volumes"][1]["secret"]["secretName"].Scalar(), "gpusched-extender-token");

  std::vector<Document> pdb = LoadYaml(kDeploy + "/pdb.yaml");
  ASSERT_EQ(pdb.size(), 1u);
  EXPECT_EQ(pdb[0].root()["kind"].Scalar(), "PodDisruptionBudget");
  EXPECT_EQ(pdb[0].root()["spec"]["minAvailable"].Scalar(), "1");
  EXPECT_EQ(pdb[0].root()["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"].Scalar(),
            labels["app.kubernetes.io/name"].Scalar());

  bool token_for_extender = false;
  for (const Document& d : LoadYaml(kDeploy + "/serviceaccount.yaml"))
    if (d.root()["kind"].Scalar() == "Secret")
      token_for_extender = d.root()["metadata"]["name"].Scalar() == "gpusched-extender-token" &&
                           d.root()["type"].Scalar() == "kubernetes.io/service-account-token" &&
                           d.root()["metadata"]["annotations"]["kubernetes.io/service-account.name"].Scalar() ==
                               "gpusched-extender";
  EXPECT_TRUE(token_for_extender);
  std::vector<std::string> extender_roles;
  for (const Document& d : LoadYaml(kDeploy + "/rbac.yaml")) {
    const DocNode r = d.root();
    const std::string kind(r["kind"].Scalar());
    if (kind != "ClusterRoleBinding" && kind != "RoleBinding") continue;
    for (size_t i = 0; i < r["subjects"].size(); ++i)
      if (r["subjects"][i]["name"].Scalar() == "gpusched-extender")
        extender_roles.emplace_back(kind + "/" + std::string(r["roleRef"]["name"].Scalar()));
  }
  EXPECT_EQ(extender_roles, std::vector<std::string>{"ClusterRoleBinding/gpusched-extender"});

  std::vector<std::string> warnings;
  std::vector<Document> cfg = LoadYaml(kDeploy + "/config/kube-scheduler-config.yaml");
  const DocNode le = cfg[0].root()["leaderElection"];
  EXPECT_EQ(le["leaderElect"].Scalar(), "true");
  EXPECT_EQ(le["resourceName"].Scalar(), "gpusched");
  std::ifstream in(kDeploy + "/config/kube-scheduler-config.yaml");
  std::stringstream text;
  text << in.rdbuf();
  Result<KubeSchedulerConfiguration> c = LoadSchedulerConfigText(text.str(), "config.yaml", &warnings, InTreePlugins());
  ASSERT_TRUE(c.ok()) << c.status().message();
  // Whole seconds ("15s"), as the file spells them.
  auto seconds = [](std::string_view d) { return d.back() == 's' ? std::stod(std::string(d.substr(0, d.size() - 1))) : -1; };
  const double lease = seconds(le["leaseDuration"].Scalar());
  const double renew = seconds(le["renewDeadline"].Scalar());
  EXPECT_EQ(lease, 15);
  EXPECT_EQ(renew, 10);
  EXPECT_GE(lease - renew, c->extenders.at(0).http_timeout_seconds);
  EXPECT_LT(4.0, c->extenders.at(0).http_timeout_seconds);  // --bind-timeout=4 answers before it
}

// deploy/tls/: the stanza of an extender reached over the network, with
// kube-scheduler's client certificate, loads as kube-scheduler reads it.
TEST(DeployTest, TlsStanzaLoads) {
  std::ifstream in(kDeploy + "/tls/kube-scheduler-config-tls.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> warnings;
  Result<KubeSchedulerConfiguration> c = LoadSchedulerConfigText(text.str(), "tls.yaml", &warnings, InTreePlugins());
  ASSERT_TRUE(c.ok()) << c.status().message();
  const Extender& e = c->extenders.at(0);
  EXPECT_EQ(e.url_prefix, "https://gpusched-extender.kube-system.svc:8888");
  EXPECT_TRUE(e.enable_https);
  ASSERT_TRUE(e.tls_config.has_value());
  EXPECT_EQ(e.tls_config->ca_file, "/etc/kube-scheduler-tls/ca.crt");
  EXPECT_EQ(e.tls_config->cert_file, "/etc/kube-scheduler-tls/client.crt");
  EXPECT_EQ(e.tls_config->key_file, "/etc/kube-scheduler-tls/client.key");
}

}  // namespace
}  // namespace gpusched
