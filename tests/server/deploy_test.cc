// deploy/: the manifests a user applies load as the API server would take
// them (nothing rejected: `gpusched schedule -f deploy/`), and the
// KubeSchedulerConfiguration in the ConfigMap is the one in deploy/config/,
// valid with its extenders stanza pointing at `gpusched serve`.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpusched/io/manifest_loader.h"
#include "gpusched/io/scheduler_config_loader.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/sched/plugins/registry.h"

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

}  // namespace
}  // namespace gpusched
