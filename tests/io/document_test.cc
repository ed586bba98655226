#include "gpusched/io/document.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/io/yaml_documents.h"
#include "document_test_util.h"

namespace gpusched {
namespace {

using document_test::Parse;

TEST(DocumentTest, BuildsNestedMapsAndSequences) {
  Document d;
  d.OpenContainer(DocType::kMap, 1, 1);
  d.AddScalar("a", ScalarKind::kString, true, 1, 1);
  d.AddScalar("1", ScalarKind::kNumber, true, 1, 4);
  d.AddScalar("b", ScalarKind::kString, true, 2, 1);
  d.OpenContainer(DocType::kSequence, 2, 4);
  d.AddScalar("x", ScalarKind::kString, false, 2, 5);
  d.AddNull(2, 8);
  d.CloseContainer();
  d.CloseContainer();
  DocNode root = d.root();
  ASSERT_TRUE(root.IsMap());
  EXPECT_EQ(root.size(), 2u);
  EXPECT_EQ(root["a"].Scalar(), "1");
  EXPECT_EQ(root["a"].Kind(), ScalarKind::kNumber);
  EXPECT_TRUE(root["a"].IsPlain());
  EXPECT_EQ(root["b"].size(), 2u);
  EXPECT_EQ(root["b"][0].Scalar(), "x");
  EXPECT_FALSE(root["b"][0].IsPlain());
  EXPECT_TRUE(root["b"][1].IsNull());
  EXPECT_EQ(root["b"][1].Line(), 2);
  EXPECT_EQ(root["b"][1].Column(), 8);
  // Reads of the wrong shape give undefined nodes, never an exception.
  EXPECT_FALSE(root["missing"].IsDefined());
  EXPECT_FALSE(root["a"]["x"].IsDefined());
  EXPECT_FALSE(root["a"][0].IsDefined());
  EXPECT_FALSE(root["b"][2].IsDefined());
  EXPECT_FALSE(root["b"]["x"].IsDefined());
  EXPECT_EQ(root["missing"].Line(), 0);
  EXPECT_EQ(root["missing"].size(), 0u);
  EXPECT_EQ(root["a"].size(), 0u);
  EXPECT_EQ(std::string(DocKind(root)), "an object");
  EXPECT_EQ(std::string(DocKind(root["b"])), "a list");
  EXPECT_EQ(std::string(DocKind(root["a"])), "a scalar");
  EXPECT_EQ(std::string(DocKind(root["b"][1])), "null");
  EXPECT_EQ(std::string(DocKind(root["zz"])), "nothing");
}

TEST(DocumentTest, IteratesSequencesAndMapEntries) {
  Document d = Parse("m: {a: 1, b: 2, c: 3}\ns: [x, z, w]\n");
  std::string keys, values, items;
  for (auto [k, v] : d.root()["m"].Entries()) {
    keys += std::string(k.Scalar());
    values += std::string(v.Scalar());
  }
  for (DocNode item : d.root()["s"]) items += std::string(item.Scalar());
  EXPECT_EQ(keys, "abc");
  EXPECT_EQ(values, "123");
  EXPECT_EQ(items, "xzw");
  // A map iterates as nothing when read as a sequence, and the other way round.
  int n = 0;
  for (DocNode item : d.root()["m"]) n += item.IsDefined();
  for (auto entry : d.root()["s"].Entries()) n += entry.first.IsDefined();
  EXPECT_EQ(n, 0);
}

TEST(DocumentTest, LinesAreFileLinesAndAliasesShareTheirNode) {
  Document d = Parse("a: &x\n  k: v\nb: *x\nc: 'q'\n", 10);
  DocNode root = d.root();
  EXPECT_EQ(root.Line(), 10);
  EXPECT_EQ(root["a"].Line(), 10);  // where its anchor is
  EXPECT_EQ(root["a"]["k"].Line(), 11);
  EXPECT_EQ(root["c"].Line(), 13);
  EXPECT_EQ(root["c"].Column(), 4);
  EXPECT_TRUE(root["a"].Is(root["b"]));
  EXPECT_EQ(root["b"]["k"].Scalar(), "v");
  EXPECT_TRUE(root["a"]["k"].IsPlain());
  EXPECT_FALSE(root["c"].IsPlain());
}

TEST(DocumentTest, ClearKeepsNothingAndTheTreeIsReusable) {
  Document d = Parse("a: 1\n");
  EXPECT_FALSE(d.empty());
  d.Clear();
  EXPECT_TRUE(d.empty());
  EXPECT_FALSE(d.root().IsDefined());
  EXPECT_EQ(d.node_count(), 0u);
  int error_line = 0;
  std::string error;
  ASSERT_TRUE(ParseYamlDocument(YamlDocument{"[1, 2]\n", 1}, d, error_line, error));
  EXPECT_EQ(d.root().size(), 2u);
  EXPECT_GT(d.MemoryBytes(), 0u);
}

}  // namespace
}  // namespace gpusched
