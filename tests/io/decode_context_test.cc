// Tests for src/io/decode_context.cc: the typed accessors' values and error
// text, FindPath over keys with dots and brackets, and LineOf's fallbacks.
#include "gpusched/io/decode_context.h"

#include <gtest/gtest.h>

#include <string>

#include "document_test_util.h"
#include "gpusched/io/document.h"
#include "gpusched/io/yaml_documents.h"

namespace gpusched {
namespace {

using document_test::Parse;

constexpr const char* kObject =
    "name: gpu-1\n"                     // line 1
    "count: 3\n"                        // 2
    "plus: +4\n"                        // 3
    "word: three\n"                     // 4
    "flag: True\n"                      // 5
    "notflag: yes\n"                    // 6
    "list: [a, b]\n"                    // 7
    "nothing: null\n"                   // 8
    "status:\n"                         // 9
    "  capacity:\n"                     // 10
    "    nvidia.com/gpu: 8\n"           // 11
    "containers:\n"                     // 12
    "- name: main\n"                    // 13
    "  limits:\n"                       // 14
    "    cpu: 2\n";                     // 15

TEST(DecodeContextTest, ScalarAccessors) {
  Document doc = Parse(kObject);
  const DocNode root = doc.root();
  // Scalars are resolved as YAML 1.1 first (+4 is 4, True and yes are
  // true), so Str is asserted only where that leaves the text as written.
  struct Case {
    const char* key;
    std::optional<std::string> str;
    std::optional<int64_t> integer;
    std::optional<bool> boolean;
    std::vector<std::string> errors;  // Str, Int, Bool in turn
  } cases[] = {
      {"name", "gpu-1", std::nullopt, std::nullopt,
       {"f: expected an integer, got \"gpu-1\"", "f: expected true or false, got \"gpu-1\""}},
      {"count", "3", 3, std::nullopt, {"f: expected true or false, got \"3\""}},
      {"plus", std::nullopt, 4, std::nullopt, {"f: expected true or false, got \"4\""}},
      {"flag", std::nullopt, std::nullopt, true, {"f: expected an integer, got \"true\""}},
      {"notflag", std::nullopt, std::nullopt, true, {"f: expected an integer, got \"true\""}},
      {"list", "", std::nullopt, std::nullopt,
       {"f: expected a string, got a list", "f: expected an integer, got a list",
        "f: expected true or false, got a list"}},
      {"nothing", "", std::nullopt, std::nullopt, {}},
      {"absent", "", std::nullopt, std::nullopt, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.key);
    DecodeContext ctx(root);
    const std::string str = ctx.Str(root, c.key, "f");
    if (c.str) {
      EXPECT_EQ(str, *c.str);
    }
    EXPECT_EQ(ctx.Int(root, c.key, "f"), c.integer);
    EXPECT_EQ(ctx.Bool(root, c.key, "f"), c.boolean);
    EXPECT_EQ(ctx.errors(), c.errors);
  }
}

TEST(DecodeContextTest, MapAndSeqKinds) {
  Document doc = Parse(kObject);
  const DocNode root = doc.root();
  DecodeContext ctx(root);
  EXPECT_TRUE(ctx.Map(root, "status", "status").IsMap());
  EXPECT_TRUE(ctx.Seq(root, "containers", "containers").IsSequence());
  EXPECT_FALSE(ctx.Map(root, "list", "list").IsDefined());
  EXPECT_FALSE(ctx.Seq(root, "name", "name").IsDefined());
  EXPECT_EQ(ctx.errors(),
            (std::vector<std::string>{"list: expected an object, got a list", "name: expected a list, got a scalar"}));
  EXPECT_EQ(ctx.first_error_line(), 7);
}

TEST(DecodeContextTest, FindPathAndLineOf) {
  Document doc = Parse(kObject);
  const DocNode root = doc.root();
  struct Case {
    const char* path;
    int found_line;  // FindPath's node line, 0 when not found
    int line_of;     // LineOf: the path or its nearest ancestor present
  } cases[] = {
      {"status.capacity.nvidia.com/gpu", 11, 11},    // a key with dots
      {"status.capacity[nvidia.com/gpu]", 11, 11},   // the same key in brackets
      {"containers[0].name", 13, 13},
      {"containers[0].requests.cpu", 0, 15},         // a defaulted request: the limit's line
      {"containers[1].name", 0, 13},                 // no such item: the list's (its first item's) line
      {"status.allocatable.cpu", 0, 10},            // status's value starts on line 10
      {"missing", 0, 1},                             // nothing present: the object's first line
  };
  DecodeContext ctx(root);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.path);
    const DocNode n = FindPath(root, c.path);
    EXPECT_EQ(n.IsDefined() ? n.Line() : 0, c.found_line);
    EXPECT_EQ(ctx.LineOf(c.path), c.line_of);
  }
}

}  // namespace
}  // namespace gpusched
