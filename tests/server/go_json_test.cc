// src/server/go_json.cc: strings as encoding/json escapes them (its
// encode_test.go TestHTMLEscape / TestStringBytes expectations), documents
// written back, field matching ignoring case.
#include "gpusched/server/go_json.h"

#include <gtest/gtest.h>

#include "gpusched/server/wire.h"

namespace gpusched {
namespace {

TEST(GoJsonTest, EscapesAsEncodingJson) {
  const std::pair<std::string, std::string> cases[] = {
      {"plain", "\"plain\""},
      {"a\"b\\c", "\"a\\\"b\\\\c\""},
      {"\n\r\t", "\"\\n\\r\\t\""},
      {std::string("\x01\x1f", 2), "\"\\u0001\\u001f\""},
      {"<html>&", "\"\\u003chtml\\u003e\\u0026\""},
      {"\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\""},
      {"caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\""},
      {"bad\xff", "\"bad\\ufffd\""},
      {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},  // a UTF-16 surrogate is invalid UTF-8
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(GoJsonString(in), want) << in;
}

TEST(GoJsonTest, DocumentWrittenBack) {
  const std::string text = R"({"b":1,"a":[true,null,"x<"],"c":{"d":-2.5e3}})";
  WithJsonBody(text, [&](const DocNode& root) {
    std::string out;
    AppendDocJson(out, root);
    EXPECT_EQ(out, R"({"b":1,"a":[true,null,"x\u003c"],"c":{"d":-2.5e3}})");
    EXPECT_STREQ(GoJsonKind(root["a"]), "array");
    EXPECT_STREQ(GoJsonKind(root["b"]), "number");
    EXPECT_TRUE(GoField(root, "C").IsMap());
    EXPECT_FALSE(GoField(root, "z").IsDefined());
  });
}

}  // namespace
}  // namespace gpusched
