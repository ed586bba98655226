// src/server/args_scanner.cc: what the scanner takes (a table with the exact
// names and pod text), what it leaves to the generic decoder, and, on random
// and mutated bodies, that whatever it takes the generic decoder
// (WithJsonBody + DecodeExtenderArgs) reads the same: same names, same pod.
#include "gpusched/server/args_scanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <random>

#include "gpusched/server/go_json.h"
#include "gpusched/server/request_pod.h"
#include "gpusched/server/wire.h"

namespace gpusched {
namespace {

struct Generic {
  bool ok = false;  // decoded, with NodeNames and without Nodes
  std::vector<std::string> names;
  std::string pod;  // the pod's document written back
};

Generic GenericDecode(std::string_view body) {
  Generic g;
  Status parsed = WithJsonBody(body, [&](const DocNode& root) {
    ExtenderArgs a;
    if (!DecodeExtenderArgs(root, a).ok() || !a.has_node_names || a.has_nodes) return;
    g.ok = true;
    for (std::string_view n : a.node_names) g.names.emplace_back(n);
    AppendDocJson(g.pod, a.pod);
  });
  if (!parsed.ok()) g.ok = false;
  return g;
}

// The pod text the scanner found, parsed alone and written back.
std::string PodDoc(std::string_view pod) {
  std::string out;
  const std::string wrapped = "[" + std::string(pod) + "]";
  const Status s = WithJsonBody(wrapped, [&](const DocNode& root) { AppendDocJson(out, root[size_t{0}]); });
  return s.ok() ? out : "unparsable: " + s.message();
}

std::vector<std::string> Names(const ScannedArgs& a) { return {a.names.begin(), a.names.end()}; }

// Whatever the fast path takes (the scanner, then the pod's text parsed
// alone), the generic decoder reads the same way.
void ExpectAgrees(const std::string& body, const NameListCache* cache = nullptr) {
  ScannedArgs a;
  if (!ScanExtenderArgs(body, cache, a)) return;
  if (PodDoc(a.pod).starts_with("unparsable")) return;  // the fast path leaves it
  const Generic g = GenericDecode(body);
  ASSERT_TRUE(g.ok) << "the scanner took what the generic decoder refuses: " << body;
  ASSERT_EQ(Names(a), g.names) << body;
  ASSERT_EQ(PodDoc(a.pod), g.pod) << body;
  // Views into the NodeNames array, which is where the body has it.
  ASSERT_GE(a.names_text.data(), body.data());
  ASSERT_LE(a.names_text.data() + a.names_text.size(), body.data() + body.size());
  bool plain = true;
  for (std::string_view n : a.names) plain &= GoJsonString(n) == "\"" + std::string(n) + "\"";
  ASSERT_EQ(a.plain, plain) << body;
}

TEST(ArgsScannerTest, TakesNodeNamesBodies) {
  struct Case {
    std::string body;
    std::string pod;
    std::vector<std::string> names;
    bool plain = true;
  };
  const Case cases[] = {
      {R"({"Pod":{"metadata":{"name":"p"}},"Nodes":null,"NodeNames":["a","b"]})", R"({"metadata":{"name":"p"}})",
       {"a", "b"}},
      // Any case, any order, white space, a null name, no Nodes.
      {" {\n \"nodenames\" : [ \"a\" , null ] ,\t\"POD\" : { \"x\" : \"}\\\"{\" } }\r\n", R"({ "x" : "}\"{" })",
       {"a", ""}},
      {R"({"NodeNames":[],"Pod":{}})", "{}", {}},
      // Go escapes <, > and &: the names are not written as they are.
      {R"({"Pod":{},"NodeNames":["a<b","c&d"]})", "{}", {"a<b", "c&d"}, false},
      // Names longer than the 16 bytes looked at at once.
      {R"({"Pod":{},"NodeNames":["gpu-node-0123456789.cluster.example.com","gpu-node-0123456789.example&com"]})",
       "{}",
       {"gpu-node-0123456789.cluster.example.com", "gpu-node-0123456789.example&com"},
       false},
      // Unknown keys of plain JSON are skipped.
      {R"({"Pod":{},"Extra":{"k":[1,-2.5e3,true,false,null,"s",{}]},"NodeNames":["n"]})", "{}", {"n"}},
  };
  for (const Case& c : cases) {
    ScannedArgs a;
    ASSERT_TRUE(ScanExtenderArgs(c.body, nullptr, a)) << c.body;
    EXPECT_EQ(a.pod, c.pod) << c.body;
    EXPECT_EQ(Names(a), c.names) << c.body;
    EXPECT_EQ(a.plain, c.plain) << c.body;
    ExpectAgrees(c.body);
  }
}

TEST(ArgsScannerTest, LeavesEverythingElseToTheGenericDecoder) {
  const std::string cases[] = {
      R"({"Pod":{},"Nodes":{"items":[]},"NodeNames":["a"]})",  // full Nodes
      R"({"Pod":{},"NodeNames":["\u0061"]})",                   // an escape in a name
      R"({"Pod":{},"NodeNames":["caf)" "\xc3\xa9" R"("]})",     // non-ASCII name
      R"({"Pod":{},"NodeNames":["a)" "\x01" R"("]})",           // a control character
      R"({"Pod":{},"NodeNames":["gpu-node-0123456789-)" "\x01" R"("]})",  // ... past 16 bytes
      R"({"Pod":{},"NodeNames":["gpu-node-0123456789-\u0041"]})",
      R"({"Pod":{},"NodeNames":["gpu-node-0123456789-)" "\xc3\xa9" R"("]})",
      R"({"Pod":{}})",                                          // no NodeNames
      R"({"Pod":{},"NodeNames":null})",
      R"({"NodeNames":["a"]})",  // no Pod
      R"({"Pod":null,"NodeNames":["a"]})",
      R"({"Pod":[],"NodeNames":["a"]})",
      R"({"Pod":{},"NodeNames":"a"})",
      R"({"Pod":{},"NodeNames":[1]})",
      R"({"Pod":{},"NodeNames":["a"],"pod":{}})",  // a second Pod (Go keeps the last)
      R"({"Pod":{},"NodeNames":["a"],"nodenames":["b"]})",
      R"({"Pod":{},"NodeNames":["a"],"items":[]})",  // streamed by the generic reader
      R"({"Pod":{},"NodeNames":["a"],"x":"\n"})",    // an escape elsewhere
      R"({"Pod":{},"NodeNames":["a"],"x":01})",      // not a JSON number
      R"({"Pod":{},"NodeNames":["a"],"x":tru})",
      R"({"Pod":{},"NodeNames":["a",]})",  // trailing comma
      R"({"Pod":{},"NodeNames":["a"],})",
      R"({"Pod":{},"NodeNames":["a"]} {})",  // a second value
      R"({"Pod":{},"NodeNames":["a"]}x)",
      R"({"Pod":{},"NodeNames":["a"])",  // unterminated
      R"({"Pod":{"a":"})",
      "\xEF\xBB\xBF{\"Pod\":{},\"NodeNames\":[\"a\"]}",  // a byte order mark
      R"([{"Pod":{},"NodeNames":["a"]}])",
      "",
      "   ",
      R"({"P\u006fd":{},"NodeNames":["a"]})",  // an escaped key
  };
  for (const std::string& body : cases) {
    ScannedArgs a;
    EXPECT_FALSE(ScanExtenderArgs(body, nullptr, a)) << body;
  }
  // Nesting of unknown values: below kMaxScannedNesting taken, at it left.
  auto nested = [](int depth) {
    return R"({"Pod":{},"NodeNames":["a"],"x":)" + std::string(static_cast<size_t>(depth), '[') +
           std::string(static_cast<size_t>(depth), ']') + "}";
  };
  ScannedArgs a;
  EXPECT_TRUE(ScanExtenderArgs(nested(kMaxScannedNesting - 2), nullptr, a));
  EXPECT_FALSE(ScanExtenderArgs(nested(kMaxScannedNesting - 1), nullptr, a));
}

TEST(ArgsScannerTest, KnownListsAreTakenFromTheCache) {
  NameListCache cache(4);
  const std::string body = R"({"Pod":{},"NodeNames":[ "a", null,"b<" ]})";
  ScannedArgs first;
  ASSERT_TRUE(ScanExtenderArgs(body, &cache, first));
  EXPECT_EQ(first.known, nullptr);
  auto list = std::make_shared<NameList>();
  list->text.assign(first.names_text);
  for (std::string_view n : first.names)
    list->names.emplace_back(n.empty() ? 0 : static_cast<uint32_t>(n.data() - first.names_text.data()),
                             static_cast<uint32_t>(n.size()));
  list->plain = first.plain;
  cache.Insert(list);
  // The same array in another body (other pod, other key order).
  const std::string again = R"({"NodeNames":[ "a", null,"b<" ] , "Pod":{"metadata":{}}})";
  ScannedArgs second;
  ASSERT_TRUE(ScanExtenderArgs(again, &cache, second));
  EXPECT_EQ(second.known, list);
  EXPECT_EQ(Names(second), (std::vector<std::string>{"a", "", "b<"}));
  EXPECT_FALSE(second.plain);
  EXPECT_EQ(second.names_text, R"([ "a", null,"b<" ])");
  EXPECT_EQ(second.pod, R"({"metadata":{}})");
  ExpectAgrees(again, &cache);
  // A list that only begins like it is scanned.
  const std::string longer = R"({"Pod":{},"NodeNames":[ "a", null,"b<" , "c"]})";
  ScannedArgs third;
  ASSERT_TRUE(ScanExtenderArgs(longer, &cache, third));
  EXPECT_EQ(third.known, nullptr);
  EXPECT_EQ(Names(third), (std::vector<std::string>{"a", "", "b<", "c"}));
}

// Random ExtenderArgs-like bodies (white space, key case and order, names
// with characters Go escapes, escapes, unknown keys, Nodes, duplicates) and
// random mutations of them: whatever the scanner takes, the generic decoder
// reads the same, with or without known lists in the cache.
TEST(ArgsScannerTest, AgreesWithTheGenericDecoderOnRandomBodies) {
  std::mt19937 g(17);
  auto pick = [&](std::initializer_list<const char*> v) { return std::string(*(v.begin() + g() % v.size())); };
  auto ws = [&] { return g() % 3 ? std::string() : pick({" ", "\n", "\t", "\r\n ", "  "}); };
  auto name = [&] {
    return pick({"gpu-node-1", "n", "a<b", "x&y", "", "with space", "q\\\"", "\\u0041", "caf\xc3\xa9", "node.example.com",
                 "\x7f", "tab\\t", "]", "[", "{", ",", ":", "a-rather-long-node-name.cluster.example.com",
                 "a-rather-long-node-name<with>html&", "a-rather-long-name-and-then-\\u0041",
                 "a-rather-long-name-then-caf\xc3\xa9", "sixteen-bytes-ab", "a-rather-long-name-then-\x1f"});
  };
  auto key = [&](std::string k) {
    for (char& c : k)
      if (g() % 3 == 0) c = static_cast<char>(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
    return "\"" + k + "\"";
  };
  std::function<std::string(int)> value = [&](int depth) -> std::string {
    switch (g() % (depth > 3 ? 5 : 7)) {
      case 0: return "\"" + name() + "\"";
      case 1: return pick({"0", "-1", "2.5", "1e3", "-0.0E-2", "01", "1.", "-"});
      case 2: return pick({"true", "false", "null", "nul", "truex"});
      case 3: return "\"s\"";
      case 4: return "null";
      case 5: {
        std::string s = "[" + ws();
        for (int i = 0, n = static_cast<int>(g() % 3); i < n; ++i) s += (i ? "," : "") + ws() + value(depth + 1) + ws();
        return s + "]";
      }
      default: {
        std::string s = "{" + ws();
        for (int i = 0, n = static_cast<int>(g() % 3); i < n; ++i)
          s += (i ? "," : "") + ws() + "\"" + pick({"k", "items", "metadata", "name"}) + "\"" + ws() + ":" + ws() +
               value(depth + 1) + ws();
        return s + "}";
      }
    }
  };
  auto pod = [&] {
    return pick({R"({"metadata":{"name":"p","namespace":"ml"},"spec":{"containers":[{"name":"c","image":"i"}]}})",
                 R"({})", R"({"metadata":{"annotations":{"a":"caf\u00e9 \"}{\""}}})", R"({"items":[1,2]})",
                 R"({"spec":{"containers":null}})", R"({"x":[[[{"y":"]"}]]]})"});
  };
  NameListCache cache(8);
  int taken = 0;
  for (int i = 0; i < 5000; ++i) {
    std::vector<std::string> fields;
    fields.push_back(key("Pod") + ws() + ":" + ws() + (g() % 10 ? pod() : value(1)));
    if (g() % 8) {
      std::string names = "[" + ws();
      for (int k = 0, n = static_cast<int>(g() % 5); k < n; ++k)
        names += (k ? "," : "") + ws() + (g() % 6 ? "\"" + name() + "\"" : std::string("null")) + ws();
      fields.push_back(key("NodeNames") + ws() + ":" + ws() + (g() % 12 ? names + "]" : value(1)));
    }
    if (g() % 3 == 0) fields.push_back(key("Nodes") + ":" + (g() % 3 ? "null" : value(1)));
    if (g() % 4 == 0) fields.push_back(key(pick({"Extra", "items", "Pod", "NodeNames", "Other"})) + ":" + value(1));
    std::shuffle(fields.begin(), fields.end(), g);
    std::string body = ws() + "{" + ws();
    for (size_t k = 0; k < fields.size(); ++k) body += (k ? "," : "") + ws() + fields[k] + ws();
    body += "}" + ws();
    for (const std::string& b : {body, [&] {
                                   // A mutation: a byte dropped, added or replaced.
                                   std::string m = body;
                                   const size_t at = g() % (m.size() + 1);
                                   const char bytes[] = "{}[]\",:\\ \n0an\x01\x80\xff";
                                   const char c = bytes[g() % (sizeof bytes - 1)];
                                   switch (g() % 3) {
                                     case 0: if (at < m.size()) m.erase(at, 1); break;
                                     case 1: m.insert(at, 1, c); break;
                                     default: if (at < m.size()) m[at] = c;
                                   }
                                   return m;
                                 }()}) {
      ScannedArgs a;
      if (ScanExtenderArgs(b, nullptr, a)) {
        ++taken;
        // Its names, kept as the server keeps them, for later bodies.
        auto list = std::make_shared<NameList>();
        list->text.assign(a.names_text);
        for (std::string_view n : a.names)
          list->names.emplace_back(n.empty() ? 0 : static_cast<uint32_t>(n.data() - a.names_text.data()),
                                   static_cast<uint32_t>(n.size()));
        list->plain = a.plain;
        cache.Insert(list);
      }
      ExpectAgrees(b);
      ExpectAgrees(b, &cache);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  // Not a test that cannot fail: a good share of the bodies take the fast path.
  EXPECT_GT(taken, 600);
}

}  // namespace
}  // namespace gpusched
