#include "gpusched/util/did_you_mean.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

TEST(DidYouMeanTest, EditDistance) {
  struct Case {
    std::string a, b;
    size_t want;
  };
  const Case cases[] = {
      {"", "", 0},
      {"", "abc", 3},
      {"abc", "", 3},
      {"policy", "policy", 0},
      {"polcy", "policy", 1},        // a deletion
      {"pollicy", "policy", 1},      // an insertion
      {"pilicy", "policy", 1},       // a substitution
      {"ploicy", "policy", 1},       // a swap of neighbours is one edit
      {"fdg", "fgd", 1},
      {"bestfit", "best-fit", 1},
      {"BEST-FIT", "best-fit", 0},   // ASCII case is ignored
      {"schedul", "schedule", 1},
      {"lifo", "fifo", 1},
      {"ca", "abc", 3},              // no character is edited twice
      {"kitten", "sitting", 3},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(EditDistance(c.a, c.b), c.want) << c.a << " -> " << c.b;
    EXPECT_EQ(EditDistance(c.b, c.a), c.want) << c.b << " -> " << c.a;
  }
}

TEST(DidYouMeanTest, NearNames) {
  const std::vector<std::string> policies = {"first-fit", "best-fit", "worst-fit", "kube-default", "fgd",
                                             "random", "dot-product", "gpu-clustering", "gpu-packing", "paper-best-fit"};
  const std::vector<std::string> pods = {"training-job-a", "inference-svc-b", "training-job-c", "inference-svc-d",
                                         "training-job-e"};
  const std::vector<std::string> commands = {"schedule", "explain", "simulate", "experiment", "serve", "help",
                                             "version"};
  struct Case {
    std::string typed;
    const std::vector<std::string>& known;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {"bestfit", policies, {"best-fit"}},
      {"Best-Fit", policies, {"best-fit"}},               // the same name in other case
      {"best-fit", policies, {}},                          // known: nothing to suggest
      {"first", policies, {"first-fit"}},                  // a prefix
      {"gpu", policies, {"gpu-packing", "gpu-clustering"}},  // prefixes, shortest first
      {"fdg", policies, {"fgd"}},
      {"magic", policies, {}},
      {"", policies, {}},
      {"schedul", commands, {"schedule"}},
      {"sched", commands, {"schedule"}},
      {"simulat", commands, {"simulate"}},
      {"exlpain", commands, {"explain"}},
      {"s", commands, {"serve", "schedule", "simulate"}},  // one letter: its prefixes only
      {"x", commands, {}},
      {"serv", commands, {"serve"}},
      {"hlep", commands, {"help"}},
      {"training-job-f", pods, {"training-job-a", "training-job-c", "training-job-e"}},  // one edit, byte order
      {"training-job", pods, {"training-job-a", "training-job-c", "training-job-e"}},    // two edits and a prefix
      {"training", pods, {"training-job-a", "training-job-c", "training-job-e"}},        // a prefix only
      {"inference-svc-x", pods, {"inference-svc-b", "inference-svc-d"}},
      {"trainingjob-a", pods, {"training-job-a", "training-job-c", "training-job-e"}},   // 1 edit, then 2
      {"ab", {"ac", "xy", "abc"}, {"abc", "ac"}},        // two letters: one edit
      {"abcd", {"abcd", "abcd", "abxy", "abcdx", "abcdx"}, {"abcdx", "abxy"}},  // each name once
  };
  for (const Case& c : cases) EXPECT_EQ(NearNames(c.typed, c.known), c.want) << c.typed;
}

TEST(DidYouMeanTest, Phrase) {
  struct Case {
    std::vector<std::string> near;
    size_t max;
    std::string want;
  };
  const Case cases[] = {
      {{}, 5, ""},
      {{"best-fit"}, 5, "did you mean best-fit?"},
      {{"a", "b"}, 5, "did you mean a or b?"},
      {{"a", "b", "c"}, 5, "did you mean a, b or c?"},
      {{"a", "b", "c", "d", "e"}, 5, "did you mean a, b, c, d or e?"},
      {{"a", "b", "c", "d", "e", "f", "g"}, 5, "did you mean a, b, c, d, e or one of 2 more?"},
      {{"a", "b"}, 1, "did you mean a or one of 1 more?"},
      {{"a"}, 0, ""},
  };
  for (const Case& c : cases) EXPECT_EQ(DidYouMean(c.near, c.max), c.want) << c.want;
}

}  // namespace
}  // namespace gpusched
