// FirstSyntaxError (src/io/json_syntax_error.cc) against Go's encoding/json
// scanner: each case's message and offset are what kubectl v1.32 prints for
// the same file (`kubectl label --local -f t.json x=1 -o json`: "json:
// offset N: <message>", N the 1-based offset of the character named).
#include "../../src/io/json_syntax_error.h"

#include <gtest/gtest.h>

#include <string>

namespace gpusched {
namespace {

TEST(JsonSyntaxErrorTest, MessagesAndOffsetsAsGo) {
  struct Case {
    std::string text;
    size_t offset;  // kubectl's, 1-based
    std::string message;
  };
  const Case cases[] = {
      {R"({"a":1,})", 8, "invalid character '}' looking for beginning of object key string"},
      {R"({"a" 1})", 6, "invalid character '1' after object key"},
      {R"({"a":1 "b":2})", 8, "invalid character '\"' after object key:value pair"},
      {R"({"a":"\x"})", 8, "invalid character 'x' in string escape code"},
      {R"({"a":-x})", 7, "invalid character 'x' in numeric literal"},
      {R"({"a":1.e})", 8, "invalid character 'e' after decimal point in numeric literal"},
      {R"({"a":1e+})", 9, "invalid character '}' in exponent of numeric literal"},
      {R"({"a":trux})", 9, "invalid character 'x' in literal true (expecting 'e')"},
      {R"({"a":"\u12g4"})", 11, "invalid character 'g' in \\u hexadecimal character escape"},
      {R"({"a":@})", 6, "invalid character '@' looking for beginning of value"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    std::string message;
    const char* at = FirstSyntaxError(c.text.data(), c.text.data() + c.text.size(), message);
    ASSERT_NE(at, nullptr);
    EXPECT_EQ(static_cast<size_t>(at - c.text.data()) + 1, c.offset);
    EXPECT_EQ(message, c.message);
  }
}

// The input ending inside a value is scanner.go's "unexpected end of JSON
// input" at the end (kubectl's streaming Decoder words it "unexpected EOF");
// a valid value has no error.
TEST(JsonSyntaxErrorTest, EndOfInputAndValidValues) {
  for (const std::string text : {R"({"a":nul)", R"({"a":)", R"(["x)"}) {
    SCOPED_TRACE(text);
    std::string message;
    EXPECT_EQ(FirstSyntaxError(text.data(), text.data() + text.size(), message), text.data() + text.size());
    EXPECT_EQ(message, "unexpected end of JSON input");
  }
  for (const std::string text : {R"({"a":[1,-2.5e+3,true,null,"\u00e9"],"b":{}})", R"([])", R"( "s" )"}) {
    SCOPED_TRACE(text);
    std::string message;
    EXPECT_EQ(FirstSyntaxError(text.data(), text.data() + text.size(), message), nullptr);
  }
}

}  // namespace
}  // namespace gpusched
