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
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// Each entry of a map as "key=value" ("key=[...]" / "key={...}" for containers).
std::string Entries(const DocNode& map) {
  std::string s;
  for (auto [k, v] : map.Entries()) {
    s += (s.empty() ? "" : " ") + std::string(k.Scalar()) + "=";
    s += v.IsMap() ? "{" + Entries(v) + "}" : v.IsSequence() ? "[...]" : v.IsNull() ? "null" : std::string(v.Scalar());
  }
  return s;
}

struct ParseCase {
  const char* name;
  std::string text;
  std::string want;  // Entries(root), or "error: <message>"
};

std::string ParseToString(const std::string& text, Document& doc) {
  int error_line = 0;
  std::string error;
  if (!ParseYamlDocument(YamlDocument{text, 1}, doc, error_line, error)) return "error: " + error;
  return Entries(doc.root());
}

// YAML as kubectl reads it (go-yaml v2 through sigs.k8s.io/yaml); expected
// values checked against `kubectl label --local -f ... -o json` (v1.32).
TEST(YamlDocumentsTest, ParsesAsKubectlReadsYaml) {
  const ParseCase cases[] = {
      {"YAML 1.1 scalars and keys", "a: 010\nb: 0x2\nc: yes\nn: x\n010: y\nd: '010'\ne: ~\n",
       "a=8 b=2 c=true false=x 8=true d=010 e=null"},
      // A merge applies where it stands; a later entry replaces an earlier one;
      // of a list of maps, the earlier wins.
      {"merge keys", "base: &b {a: '1', b: '2'}\nm:\n  b: x\n  <<: *b\n  a: z\n  <<: [{c: '3'}, {c: '4', d: '5'}]\n",
       "base={a=1 b=2} m={b=2 a=z c=3 d=5}"},
      {"merge of an alias list", "x: &x {a: 1}\nw: &w {b: 2, a: 3}\nz:\n  <<: [*x, *w]\n", "x={a=1} w={b=2 a=3} z={b=2 a=1}"},
      {"quoted << is a plain key", "m: {'<<': {a: 1}}\n", "m={<<={a=1}}"},
      {"CRLF line ends", "a: 1\r\nb:\r\n  c: x\r\n", "a=1 b={c=x}"},
      {"byte order mark", "\xEF\xBB\xBF" "a: 1\n", "a=1"},
      {"merge of a scalar", "m:\n  <<: 5\n", "error: cannot parse YAML at line 2, column 7: map merge requires map or "
                                             "sequence of maps as the value"},
      {"unknown alias", "a: *nope\n", "error: cannot parse YAML at line 1, column 4: unknown anchor 'nope' referenced"},
      {"null key", "~: x\n", "error: cannot parse YAML at line 1, column 1: error converting YAML to JSON: unsupported "
                             "map key of type: <nil>"},
      {"a map as a key", "? {a: 1}\n: x\n", "error: cannot parse YAML at line 1, column 3: invalid map key: a map or "
                                            "list is not a valid key"},
      {"syntax error", "a: [1\n", "error: cannot parse YAML at line 2, column 1: did not find expected ',' or ']'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Document doc;
    EXPECT_EQ(ParseToString(c.text, doc), c.want);
  }
}

TEST(YamlDocumentsTest, DuplicateKeysKeepTheLaterValueAndAreRecorded) {
  Document doc;
  EXPECT_EQ(ParseToString("a: 1\nb:\n  x: 1\n  x: 2\n  x: 3\na: 4\n", doc), "b={x=3} a=4");
  ASSERT_EQ(doc.duplicates().size(), 3u);
  EXPECT_EQ(doc.duplicates()[0].key, "x");
  EXPECT_EQ(doc.duplicates()[0].first_line, 3);
  EXPECT_EQ(doc.duplicates()[0].line, 4);
  EXPECT_EQ(doc.duplicates()[1].first_line, 4);
  EXPECT_EQ(doc.duplicates()[1].line, 5);
  EXPECT_EQ(doc.duplicates()[2].key, "a");
  EXPECT_EQ(doc.duplicates()[2].first_line, 1);
  EXPECT_EQ(doc.duplicates()[2].line, 6);
  EXPECT_TRUE(doc.node(doc.duplicates()[2].map).Is(doc.root()));
  // Keys that resolve alike are the same key: 1_000 and 1e3 are both 1000.
  EXPECT_EQ(ParseToString("m: {1_000: a, 1e3: b}\n", doc), "m={1000=b}");
  EXPECT_EQ(doc.duplicates().size(), 1u);
  // A key a merge brought is replaced without being a duplicate.
  EXPECT_EQ(ParseToString("b: &b {a: 1}\nm: {<<: *b, a: 2}\n", doc), "b={a=1} m={a=2}");
  EXPECT_TRUE(doc.duplicates().empty());
}

}  // namespace
}  // namespace gpusched
