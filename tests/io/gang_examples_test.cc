// The gang and preemption examples (examples/gang/, examples/preemption/)
// as the loader reads them, exactly: the pods each operator creates, with
// their links, the gangs, the PDBs. Each file alone, so that a change to one
// example shows in its own case.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gang_test_util.h"
#include "gpusched/model/pdb.h"

namespace gpusched {
namespace {

using namespace gang_test;

Manifests LoadExample(const std::string& relative) {
  Manifests m;
  const std::string path = std::string(GPUSCHED_SOURCE_DIR) + "/" + relative;
  EXPECT_TRUE(LoadManifestPaths({path}, LoadOptions{}, m).ok()) << path;
  return m;
}

std::string All(const Manifests& m) {
  return "pods:\n" + Pods(m) + "gangs:\n" + Gangs(m) + "operators:\n" + Operators(m) + "rejected:\n" + Rejections(m) +
         "warnings:\n" + Warnings(m);
}

TEST(GangExamplesTest, Dump) {
  for (const char* f : {"examples/gang/pytorchjob.yaml", "examples/gang/kai-pytorchjob.yaml", "examples/gang/volcano-job.yaml",
                        "examples/gang/volcano-podgroup.yaml", "examples/gang/coscheduling.yaml",
                        "examples/gang/kai-podgroup.yaml", "examples/gang/workload.yaml",
                        "examples/gang/workload-v1alpha2.yaml", "examples/gang/jobset.yaml",
                        "examples/gang/leaderworkerset.yaml", "examples/preemption/training.yaml",
                        "examples/preemption/inference.yaml"}) {
    Manifests m = LoadExample(f);
    EXPECT_EQ(All(m), "") << f;
  }
}

}  // namespace
}  // namespace gpusched
