// The CEL lexer (cel-spec doc/langdef.md "Syntax", cel-go parser/gen/CEL.g4
// lexer rules): punctuation and operators, identifiers, reserved words,
// int/uint/double literals (decimal and hex), quoted, triple-quoted, raw
// and bytes string literals with their escapes, and // comments.
#ifndef GPUSCHED_MODEL_CEL_LEXER_H_
#define GPUSCHED_MODEL_CEL_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/cel/issues.h"

namespace gpusched::cel {

struct Token {
  enum class Kind {
    kEof, kIdent, kInt, kUint, kDouble, kString, kBytes, kTrue, kFalse, kNull,
    kEq, kNe, kIn, kLt, kLe, kGe, kGt, kAnd, kOr,
    kLBracket, kRBracket, kLBrace, kRBrace, kLParen, kRParen,
    kDot, kComma, kMinus, kNot, kQuestion, kColon, kPlus, kStar, kSlash, kPercent,
  };
  Kind kind = Kind::kEof;
  int32_t offset = 0;  // byte offset of the first character
  std::string text;    // the source text of the token ("<EOF>" at the end)
  std::string value;   // decoded string / bytes literal
};

// Tokenizes `src`, always ending with an EOF token. A character sequence no
// rule matches is skipped as ANTLR's lexer recovery skips it (through the
// character it failed on) and reported as cel-go does: "Syntax error: token
// recognition error at: '...'". Returns whether there was no such error.
bool Lex(std::string_view src, std::vector<Token>* tokens, std::vector<Issue>* issues);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_LEXER_H_
