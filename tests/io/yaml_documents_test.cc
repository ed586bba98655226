#include "gpusched/io/yaml_documents.h"

#include <gtest/gtest.h>

namespace gpusched {
namespace {

struct SplitCase {
  const char* name;
  const char* text;
  std::vector<std::pair<std::string, int>> want;  // text, first_line
};

TEST(YamlDocumentsTest, SplitsAtMarkersAndKeepsLines) {
  const SplitCase cases[] = {
      {"single", "a: 1\nb: 2\n", {{"a: 1\nb: 2\n", 1}}},
      {"two docs", "a: 1\n---\nb: 2\n", {{"a: 1\n", 1}, {"b: 2\n", 3}}},
      {"leading marker", "---\na: 1\n", {{"a: 1\n", 2}}},
      {"comment-only docs dropped", "# hi\n---\n# only a comment\n---\nx: y\n", {{"x: y\n", 5}}},
      {"empty docs dropped", "---\n---\n\n---\nk: v\n---\n", {{"k: v\n", 5}}},
      {"end marker", "a: 1\n...\nb: 2\n", {{"a: 1\n", 1}, {"b: 2\n", 3}}},
      {"content on marker line", "--- {a: 1}\n", {{"    {a: 1}\n", 1}}},
      {"dashes inside a value are not markers", "a: ---x\n  ---\n", {{"a: ---x\n  ---\n", 1}}},
      {"marker with trailing CR", "a: 1\r\n---\r\nb: 2\r\n", {{"a: 1\r\n", 1}, {"b: 2\r\n", 3}}},
      {"no trailing newline", "a: 1\n---\nb: 2", {{"a: 1\n", 1}, {"b: 2\n", 3}}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<YamlDocument> docs = SplitYamlDocuments(c.text);
    ASSERT_EQ(docs.size(), c.want.size());
    for (size_t i = 0; i < docs.size(); ++i) {
      EXPECT_EQ(docs[i].text, c.want[i].first);
      EXPECT_EQ(docs[i].first_line, c.want[i].second);
    }
  }
}

}  // namespace
}  // namespace gpusched
