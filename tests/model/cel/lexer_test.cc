// Tests for the CEL lexer (model/cel/lexer.cc): token kinds, decoded string
// and bytes literals with the escapes of cel-go parser/unescape.go, numbers,
// comments, and ANTLR's "token recognition error" texts.
#include "gpusched/model/cel/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

using K = Token::Kind;

TEST(CelLexerTest, TokenKindsAndTexts) {
  struct Case {
    std::string src;
    std::vector<K> kinds;
    std::vector<std::string> texts;
  };
  const std::vector<Case> cases = {
      {"a.b[0]", {K::kIdent, K::kDot, K::kIdent, K::kLBracket, K::kInt, K::kRBracket, K::kEof},
       {"a", ".", "b", "[", "0", "]", "<EOF>"}},
      {"x == 1u && y != 2.5e3 || !z", {K::kIdent, K::kEq, K::kUint, K::kAnd, K::kIdent, K::kNe, K::kDouble, K::kOr,
                                        K::kNot, K::kIdent, K::kEof},
       {"x", "==", "1u", "&&", "y", "!=", "2.5e3", "||", "!", "z", "<EOF>"}},
      {"a<=b>=c<d>e in f", {K::kIdent, K::kLe, K::kIdent, K::kGe, K::kIdent, K::kLt, K::kIdent, K::kGt, K::kIdent,
                            K::kIn, K::kIdent, K::kEof},
       {"a", "<=", "b", ">=", "c", "<", "d", ">", "e", "in", "f", "<EOF>"}},
      {"true false null", {K::kTrue, K::kFalse, K::kNull, K::kEof}, {"true", "false", "null", "<EOF>"}},
      {"0x1F 0XaBu .5 1e-3 1.", {K::kInt, K::kUint, K::kDouble, K::kDouble, K::kInt, K::kDot, K::kEof},
       {"0x1F", "0XaBu", ".5", "1e-3", "1", ".", "<EOF>"}},
      {"a // comment\n+ b", {K::kIdent, K::kPlus, K::kIdent, K::kEof}, {"a", "+", "b", "<EOF>"}},
      {"{a: 1, b: 2}?-*/%", {K::kLBrace, K::kIdent, K::kColon, K::kInt, K::kComma, K::kIdent, K::kColon, K::kInt,
                              K::kRBrace, K::kQuestion, K::kMinus, K::kStar, K::kSlash, K::kPercent, K::kEof},
       {"{", "a", ":", "1", ",", "b", ":", "2", "}", "?", "-", "*", "/", "%", "<EOF>"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    std::vector<Token> toks;
    std::vector<Issue> issues;
    ASSERT_TRUE(Lex(c.src, &toks, &issues)) << issues[0].message;
    std::vector<K> kinds;
    std::vector<std::string> texts;
    for (const Token& t : toks) {
      kinds.push_back(t.kind);
      texts.push_back(t.text);
    }
    EXPECT_EQ(kinds, c.kinds);
    EXPECT_EQ(texts, c.texts);
  }
}

TEST(CelLexerTest, StringLiterals) {
  struct Case {
    std::string src;
    K kind;
    std::string value;
  };
  const std::vector<Case> cases = {
      {R"("abc")", K::kString, "abc"},
      {R"('a"b')", K::kString, "a\"b"},
      {R"("\a\b\f\n\r\t\v\\\'\"\?\`")", K::kString, "\a\b\f\n\r\t\v\\'\"?`"},
      {R"("\x41\101\u00e9\U0001F600")", K::kString, "AA\xc3\xa9\xf0\x9f\x98\x80"},
      {R"("\xff")", K::kString, "\xc3\xbf"},  // a code point in a string
      {R"(b"\xff\377")", K::kBytes, "\xff\xff"},  // a byte in bytes
      {R"(r"\n")", K::kString, "\\n"},
      {R"(R'\d+')", K::kString, "\\d+"},
      {"'''a\nb'''", K::kString, "a\nb"},
      {R"("""x"y""")", K::kString, "x\"y"},
      {R"(rb'\x00')", K::kBytes, "\\x00"},
      {R"(Br"a")", K::kBytes, "a"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    std::vector<Token> toks;
    std::vector<Issue> issues;
    ASSERT_TRUE(Lex(c.src, &toks, &issues)) << issues[0].message;
    ASSERT_EQ(toks.size(), 2u);
    EXPECT_EQ(toks[0].kind, c.kind);
    EXPECT_EQ(toks[0].value, c.value);
    EXPECT_EQ(toks[0].text, c.src);
  }
}

TEST(CelLexerTest, RecognitionErrors) {
  struct Case {
    std::string src;
    int32_t offset;
    std::string message;
    size_t tokens = 0;  // recognised around the error, EOF included
  };
  const std::vector<Case> cases = {
      {"a # b", 2, "Syntax error: token recognition error at: '#'", 3},
      {"a $", 2, "Syntax error: token recognition error at: '$'", 2},
      {"a | b", 2, "Syntax error: token recognition error at: '| '", 3},
      {"a = b", 2, "Syntax error: token recognition error at: '= '", 3},
      {"a =b", 2, "Syntax error: token recognition error at: '=b'", 2},
      {"'abc", 0, "Syntax error: token recognition error at: ''abc'"},
      {"'ab\ncd'", 0, "Syntax error: token recognition error at: ''ab\n'"},
      {R"("\q")", 0, R"(Syntax error: token recognition error at: '"\q')"},
      {R"("\uD800")", 0, R"(Syntax error: token recognition error at: '"\u')"},
      {"x \xc3\xa9", 2, "Syntax error: token recognition error at: '\xc3\xa9'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.src);
    std::vector<Token> toks;
    std::vector<Issue> issues;
    ASSERT_FALSE(Lex(c.src, &toks, &issues));
    ASSERT_GE(issues.size(), 1u);  // a skipped quote may start another bad string
    EXPECT_EQ(issues[0].offset, c.offset);
    EXPECT_EQ(issues[0].message, c.message);
    if (c.tokens) {
      EXPECT_EQ(toks.size(), c.tokens);
    }
  }
}

// After an error the lexer goes on past the character it failed on, as
// ANTLR's recovery does, so later errors are reported too.
TEST(CelLexerTest, ContinuesAfterErrors) {
  std::vector<Token> toks;
  std::vector<Issue> issues;
  ASSERT_FALSE(Lex("a # b $ c", &toks, &issues));
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_EQ(issues[0].offset, 2);
  EXPECT_EQ(issues[1].offset, 6);
  std::vector<std::string> texts;
  for (const Token& t : toks) texts.push_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "b", "c", "<EOF>"}));
}

}  // namespace
}  // namespace gpusched::cel
