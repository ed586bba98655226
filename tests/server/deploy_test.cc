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
  ASSERT_EQ(m.pods.size(), 1u);  // the Deployment's pod
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

}  // namespace
}  // namespace gpusched
