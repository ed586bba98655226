// src/server/answer_writer.cc: the fast path's writers against the reference
// ones (EncodeFilterResult, EncodeHostPriorityList): a table with the exact
// bytes, then random answers (names Go escapes, names given twice, unknown,
// failed and unresolvable nodes, many reasons) written both ways.
#include "gpusched/server/answer_writer.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "gpusched/server/go_json.h"
#include "gpusched/server/wire.h"

namespace gpusched {
namespace {

TEST(AnswerWriterTest, WritesAsTheReference) {
  const std::vector<std::string_view> names = {"b", "a", "c", "a", "d"};
  FilterNamesAnswer answer;
  answer.Pass(2);
  answer.Fail(0, "Insufficient nvidia.com/gpu", false);
  answer.Fail(1, "node(s) had untolerated taint {k: v}", true);
  answer.Fail(3, "node(s) had untolerated taint {k: v}", true);
  answer.Pass(4);
  EXPECT_EQ(answer.reasons().size(), 2u);
  NameList list;
  EXPECT_EQ(EncodeFilterNames(names, true, answer, &list),
            R"({"Nodes":null,"NodeNames":["c","d"],"FailedNodes":{"b":"Insufficient nvidia.com/gpu"},)"
            R"("FailedAndUnresolvableNodes":{"a":"node(s) had untolerated taint {k: v}"},"Error":""})");
  EXPECT_EQ(list.text, R"(["c","d"])");
  EXPECT_EQ(list.names, (std::vector<std::pair<uint32_t, uint32_t>>{{2, 1}, {6, 1}}));
  EXPECT_TRUE(list.plain);
  EXPECT_EQ(EncodeHostScores(names, true, {10, 0, 9, 0, 1}),
            R"([{"Host":"b","Score":10},{"Host":"a","Score":0},{"Host":"c","Score":9},{"Host":"a","Score":0},)"
            R"({"Host":"d","Score":1}])");
  EXPECT_EQ(EncodeHostScores({}, true, {}), "[]");
  FilterNamesAnswer none;
  EXPECT_EQ(EncodeFilterNames({}, true, none),
            R"({"Nodes":null,"NodeNames":[],"FailedNodes":{},"FailedAndUnresolvableNodes":{},"Error":""})");
  // Ranked names (known to the index) in rank order, unranked ones merged
  // in by name.
  const std::vector<std::string_view> mixed = {"n3", "zz", "n1", "a", "n2", "n1", "m"};
  FilterNamesAnswer ranked(5);
  ranked.Fail(0, "r", false, 3);
  ranked.Fail(1, "r", false);
  ranked.Fail(2, "r", false, 1);
  ranked.Fail(3, "r", false);
  ranked.Fail(4, "r", false, 2);
  ranked.Fail(5, "r", false, 1);
  ranked.Fail(6, "r", false);
  EXPECT_EQ(EncodeFilterNames(mixed, true, ranked),
            R"({"Nodes":null,"NodeNames":[],"FailedNodes":{"a":"r","m":"r","n1":"r","n2":"r","n3":"r","zz":"r"},)"
            R"("FailedAndUnresolvableNodes":{},"Error":""})");
}

TEST(AnswerWriterTest, RandomAnswersAreWrittenAsTheReference) {
  std::mt19937 g(7);
  const std::vector<std::string> pool = {"gpu-node-1", "gpu-node-10", "gpu-node-2", "a<b", "x&y>z", "", "caf\xc3\xa9",
                                         "q\"", "back\\slash", "\xff", "Z", "z", "gpu-node-1 "};
  const std::vector<std::string> reasons = {"Insufficient nvidia.com/gpu", "node(s) didn't match Pod's node affinity/selector",
                                            "<html> & \"quotes\"", "node(s) were not in gpusched's cluster view", ""};
  for (int round = 0; round < 500; ++round) {
    std::vector<std::string> owned;
    const size_t n = g() % 40;
    for (size_t i = 0; i < n; ++i) owned.push_back(g() % 4 ? "n" + std::to_string(g() % 30) : pool[g() % pool.size()]);
    std::vector<std::string_view> names(owned.begin(), owned.end());
    bool plain = true;
    for (std::string_view s : names) plain &= GoJsonString(s) == "\"" + std::string(s) + "\"";
    // One verdict per distinct name, as the server's (a name is one node);
    // some names ranked (known to the index), in byte order.
    std::map<std::string, int> verdict;
    std::map<std::string, uint32_t> rank;
    for (const std::string& s : owned) {
      if (!verdict.count(s)) verdict[s] = static_cast<int>(g() % 8);
      if (g() % 3) rank[s] = 0;
    }
    uint32_t next = static_cast<uint32_t>(g() % 3);  // ranks need not start at 0
    for (auto& [name, r] : rank) r = next++, next += static_cast<uint32_t>(g() % 2);
    FilterNamesAnswer answer(next);
    ExtenderFilterResult r;
    std::vector<HostPriority> prio;
    std::vector<int64_t> scores;
    for (size_t i = 0; i < n; ++i) {
      const int v = verdict[owned[i]];
      if (v < 3) {
        answer.Pass(i);
        r.node_names.push_back(names[i]);
      } else {
        const std::string& why = reasons[static_cast<size_t>(v) % reasons.size()];
        const bool unresolvable = v == 7;
        answer.Fail(i, why, unresolvable, rank.count(owned[i]) ? rank[owned[i]] : FilterNamesAnswer::kNoRank);
        (unresolvable ? r.failed_unresolvable : r.failed)[owned[i]] = why;
      }
      scores.push_back(static_cast<int64_t>(g() % 11));
      prio.push_back(HostPriority{names[i], scores.back()});
    }
    const std::string want = EncodeFilterResult(r);
    NameList list;
    // The escaping writer always; the copying one when no name needs escaping.
    EXPECT_EQ(EncodeFilterNames(names, false, answer, &list), want);
    EXPECT_EQ(want.find(list.text), std::string("{\"Nodes\":null,\"NodeNames\":").size());
    if (plain) {
      EXPECT_EQ(EncodeFilterNames(names, true, answer, &list), want);
      ASSERT_EQ(list.names.size(), answer.passed().size());
      for (size_t k = 0; k < list.names.size(); ++k)
        EXPECT_EQ(list.text.substr(list.names[k].first, list.names[k].second), names[answer.passed()[k]]);
      EXPECT_EQ(EncodeHostScores(names, true, scores), EncodeHostPriorityList(prio));
    }
    EXPECT_EQ(EncodeHostScores(names, false, scores), EncodeHostPriorityList(prio));
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace gpusched
