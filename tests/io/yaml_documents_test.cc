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

TEST(YamlDocumentsTest, BoundsOnHostileInput) {
  const std::string deep_flow = std::string(201, '[') + std::string(201, ']');
  const std::string ok_flow = std::string(200, '[') + std::string(200, ']');
  std::string deep_block;
  for (int i = 0; i < 202; ++i) deep_block += std::string(2 * static_cast<size_t>(i), ' ') + "a:\n";
  const std::string long_plain = "cpu: " + std::string(kMaxYamlScalarBytes + 1, '1') + "\n";
  const std::string long_quoted = "x: 1\ncpu: \"" + std::string(kMaxYamlScalarBytes + 1, '9') + "\"\n";
  const std::string ok_long = "cpu: " + std::string(kMaxYamlScalarBytes, '1') + "\n";
  struct Case {
    const char* name;
    std::string doc;
    int first_line;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"plain manifest", "kind: Pod\nmetadata: {name: a, labels: {x: '[['}}\n", 1, ""},
      {"brackets in quotes and comments do not nest", "a: \"[[[[\" # {{{{\nb: '{{''{{'\n", 1, ""},
      {"flow nesting at the limit", ok_flow, 1, ""},
      {"flow nesting over the limit", "a: 1\n" + deep_flow, 5, "nesting deeper than 200 levels at line 6"},
      {"block nesting over the limit", deep_block, 1, "nesting deeper than 200 levels at line 202"},
      {"scalar at the limit", ok_long, 1, ""},
      {"plain scalar over the limit", long_plain, 3, "a value of 4194305 bytes at line 3 is longer than the 4 MiB gpusched accepts"},
      {"quoted scalar over the limit", long_quoted, 1, "a value of 4194305 bytes at line 2 is longer than the 4 MiB gpusched accepts"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(CheckYamlBounds(c.doc, c.first_line), c.want);
  }
  EXPECT_EQ(ExplainYamlError("bad file"), "nesting too deep for the YAML parser (it stops at about 500 levels)");
  EXPECT_EQ(ExplainYamlError("end of map not found"), "end of map not found");
}

}  // namespace
}  // namespace gpusched
