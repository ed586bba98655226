#include "gpusched/io/json_documents.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched {
namespace {

// Every event as one line: "begin L", "list N", "item <summary>",
// "end <summary> streamed=N", "error L: message".
std::vector<std::string> Events(const std::string& text) {
  std::vector<std::string> out;
  auto summary = [](const DocNode& n) {
    std::string s = DocKind(n);
    if (n.IsMap() && n["name"].IsDefined()) s += " name=" + std::string(n["name"].Scalar());
    return s + " @" + std::to_string(n.Line()) + ":" + std::to_string(n.Column());
  };
  JsonStreamEvents ev;
  ev.begin = [&](int line) { out.push_back("begin " + std::to_string(line)); };
  ev.list = [&](size_t n) { out.push_back("list " + std::to_string(n)); };
  ev.item = [&](const DocNode& item) { out.push_back("item " + summary(item)); };
  ev.end = [&](const DocNode& v, size_t streamed) {
    out.push_back("end " + summary(v) + " streamed=" + std::to_string(streamed));
  };
  ev.error = [&](int line, const std::string& message) {
    out.push_back("error " + std::to_string(line) + ": " + message);
  };
  ParseJsonStream(text, 1, ev);
  return out;
}

using V = std::vector<std::string>;

TEST(JsonDocumentsTest, StreamsOfObjectsAndLists) {
  struct Case {
    const char* name;
    std::string text;
    V want;
  };
  const Case cases[] = {
      {"one object", "{\"name\": \"a\"}\n", {"begin 1", "end an object name=a @1:1 streamed=0"}},
      {"concatenated objects (jq -c)", "{\"name\":\"a\"}\n{\"name\":\"b\"}{\"name\":\"c\"}\n",
       {"begin 1", "end an object name=a @1:1 streamed=0", "begin 2", "end an object name=b @2:1 streamed=0", "begin 2",
        "end an object name=c @2:13 streamed=0"}},
      {"a List hands its items over one by one",
       "{\"apiVersion\": \"v1\",\n \"items\": [\n  {\"name\": \"x\"},\n  {\"name\": \"y\"}\n ],\n \"kind\": \"List\"}\n",
       {"begin 1", "list 2", "item an object name=x @3:3", "item an object name=y @4:3",
        "end an object @1:1 streamed=2"}},
      {"empty items", "{\"items\": [], \"kind\": \"List\"}", {"begin 1", "list 0", "end an object @1:1 streamed=0"}},
      {"byte order mark", "\xEF\xBB\xBF{\"name\": \"a\"}", {"begin 1", "end an object name=a @1:4 streamed=0"}},
      {"a syntax error ends the stream, the values before stay",
       "{\"name\":\"a\"}\n{\"name\":\"b\",}\n{\"name\":\"c\"}\n",
       {"begin 1", "end an object name=a @1:1 streamed=0", "begin 2",
        "error 2: cannot parse JSON at line 2, column 13: invalid character '}' looking for beginning of object key "
        "string"}},
      {"a comment", "{\"name\": \"a\", // why\n \"x\": 1}",
       {"begin 1",
        "error 1: cannot parse JSON at line 1, column 15: invalid character '/' looking for beginning of object key "
        "string"}},
      {"a trailing comma in a List's last item",
       "{\"kind\": \"List\", \"items\": [\n{\"name\": \"x\"},\n{\"name\": \"y\", \"a\": [1,]}\n]}",
       {"begin 1", "list 2", "item an object name=x @2:1",
        "error 1: cannot parse JSON at line 3, column 23: invalid character ']' looking for beginning of value"}},
      {"an unclosed object", "{\"name\": \"a\"", {"begin 1", "error 1: cannot parse JSON at line 1, column 13: "
                                                            "unexpected end of JSON input"}},
      {"NaN", "{\"a\": NaN}",
       {"begin 1", "error 1: cannot parse JSON at line 1, column 7: invalid character 'N' looking for beginning of "
                   "value"}},
      {"a number with a leading zero", "{\"a\": 012}",
       {"begin 1", "error 1: cannot parse JSON at line 1, column 8: invalid character '1' after object key:value "
                   "pair"}},
      {"a control character in a string", "{\"a\": \"x\ty\"}",
       {"begin 1", "error 1: cannot parse JSON at line 1, column 9: invalid character '\\t' in string literal"}},
      {"a bad literal", "{\"a\": tru}",
       {"begin 1", "error 1: cannot parse JSON at line 1, column 10: invalid character '}' in literal true "
                   "(expecting 'e')"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Events(c.text), c.want);
  }
}

TEST(JsonDocumentsTest, ScalarsKeepTheirJsonKindAndText) {
  std::vector<std::string> got;
  JsonStreamEvents ev;
  ev.end = [&](const DocNode& v, size_t) {
    for (auto [k, val] : v.Entries()) {
      std::string kind = val.IsNull() ? "null" : val.Kind() == ScalarKind::kNumber ? "number"
                                               : val.Kind() == ScalarKind::kBool   ? "bool"
                                                                                    : "string";
      got.push_back(std::string(k.Scalar()) + "=" + kind + ":" + std::string(val.Scalar()) +
                    (val.IsPlain() ? " plain" : ""));
    }
  };
  ParseJsonStream(R"({"s": "a\"b\u00e9", "i": 5, "f": 5.0, "e": -1.5e+3, "t": true, "n": null, "q": "5"})", 1, ev);
  EXPECT_EQ(got, (std::vector<std::string>{"s=string:a\"b\xC3\xA9", "i=number:5", "f=number:5.0", "e=number:-1.5e+3",
                                           "t=bool:true", "n=null:", "q=string:5"}));
}

TEST(JsonDocumentsTest, BoundsOnNestingAndLength) {
  EXPECT_EQ(Events(std::string(300, '[') + std::string(300, ']')),
            (V{"begin 1", "error 1: cannot parse JSON: nesting deeper than 200 levels at line 1"}));
  EXPECT_EQ(Events("{\"a\": \"" + std::string((4u << 20) + 1, 'x') + "\"}"),
            (V{"begin 1", "error 1: cannot parse JSON: a value of 4194305 bytes at line 1 is longer than the 4 MiB "
                          "gpusched accepts"}));
}

TEST(JsonDocumentsTest, LooksLikeJson) {
  EXPECT_TRUE(LooksLikeJson("  \n{}"));
  EXPECT_TRUE(LooksLikeJson("\xEF\xBB\xBF{}"));
  EXPECT_TRUE(LooksLikeJson("[1]"));
  EXPECT_FALSE(LooksLikeJson("kind: Pod"));
  EXPECT_FALSE(LooksLikeJson(""));
}

// Where a value ends, found by its brackets (strings skipped, escapes
// included) 16 bytes at a time or byte by byte near the end.
TEST(JsonDocumentsTest, JsonValueEnd) {
  const std::string long_object = R"({"a":"}]\\\"{[","b":[1,{"c":"x"}],"d":"0123456789abcdefghijklmnopqrstuvwxyz"})";
  const std::pair<std::string, size_t> cases[] = {
      {"{} {}", 2},
      {"[1,[2,[3]]] x", 11},
      {long_object + " ", long_object.size()},
      {R"("a\"b" 1)", 6},
      {"123,4", 3},
      {"true}", 4},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(JsonValueEnd(text, 0), want) << text;
  EXPECT_EQ(JsonValueEnd("x {\"a\":1}", 2), 9u);
  EXPECT_EQ(JsonValueEnd("{\"a\":[1,2}", 0), std::string_view::npos);
  EXPECT_EQ(JsonValueEnd("\"abc", 0), std::string_view::npos);
  EXPECT_EQ(JsonValueEnd("{}", 2), std::string_view::npos);
}

}  // namespace
}  // namespace gpusched

#include <nlohmann/json.hpp>

#include "gpusched/util/random.h"

namespace gpusched {
namespace {

// A random JSON value whose strings hold what makes finding the end of a
// List item hard: brackets, braces, quotes, backslashes, non-ASCII text.
nlohmann::json RandomValue(Rng& rng, int depth) {
  const uint64_t kind = rng.Uniform(depth > 3 ? 4 : 6);
  switch (kind) {
    case 0: {
      static const char* kPieces[] = {"a", "{", "}", "[", "]", "\"", "\\", "\\\"", ",", ":", " ", "\xC3\xA9", "\n", "x y"};
      std::string s;
      for (uint64_t i = 0, n = rng.Uniform(12); i < n; ++i) s += kPieces[rng.Uniform(14)];
      return s;
    }
    case 1: return static_cast<int64_t>(rng.Uniform(1000000)) - 500000;
    case 2: return rng.Uniform(2) == 0;
    case 3: return nullptr;
    case 4: {
      nlohmann::json a = nlohmann::json::array();
      for (uint64_t i = 0, n = rng.Uniform(5); i < n; ++i) a.push_back(RandomValue(rng, depth + 1));
      return a;
    }
    default: {
      nlohmann::json o = nlohmann::json::object();
      for (uint64_t i = 0, n = rng.Uniform(5); i < n; ++i)
        o["k" + std::to_string(i) + (rng.Uniform(3) == 0 ? "]}\"" : "")] = RandomValue(rng, depth + 1);
      return o;
    }
  }
}

nlohmann::json ToJson(const DocNode& n) {
  if (n.IsNull()) return nullptr;
  if (n.IsSequence()) {
    nlohmann::json a = nlohmann::json::array();
    for (DocNode item : n) a.push_back(ToJson(item));
    return a;
  }
  if (n.IsMap()) {
    nlohmann::json o = nlohmann::json::object();
    for (auto [k, v] : n.Entries()) o[std::string(k.Scalar())] = ToJson(v);
    return o;
  }
  if (n.Kind() == ScalarKind::kBool) return n.Scalar() == "true";
  if (n.Kind() == ScalarKind::kNumber) return nlohmann::json::parse(n.Scalar());
  return std::string(n.Scalar());
}

// The List splitter (16 bytes at a time) and the parser against
// nlohmann-json, the plain reference, on random Lists, compact and indented.
TEST(JsonDocumentsTest, RandomListsReadAsNlohmannReadsThem) {
  Rng rng(7);
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE(round);
    nlohmann::json items = nlohmann::json::array();
    for (uint64_t i = 0, n = rng.Uniform(20); i < n; ++i) {
      nlohmann::json o = RandomValue(rng, 0);
      items.push_back(rng.Uniform(4) == 0 ? o : nlohmann::json{{"name", "p" + std::to_string(i)}, {"v", o}});
    }
    nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
    const std::string text = rng.Uniform(2) ? list.dump() : list.dump(rng.Uniform(5));
    nlohmann::json got = nlohmann::json::array();
    std::string error;
    JsonStreamEvents ev;
    ev.item = [&](const DocNode& item) { got.push_back(ToJson(item)); };
    ev.error = [&](int, const std::string& m) { error = m; };
    ParseJsonStream(text, 1, ev);
    EXPECT_EQ(error, "");
    EXPECT_EQ(got, items) << text;
  }
}

}  // namespace
}  // namespace gpusched
