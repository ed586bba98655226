// The CEL lexer, following the lexer rules of cel-go parser/gen/CEL.g4 and
// the escape decoding of cel-go parser/unescape.go. Source text is expected
// to be valid UTF-8 (DeviceSelector::Compile replaces invalid bytes with
// U+FFFD first, as cel-go's rune buffer does).
#include "gpusched/model/cel/lexer.h"

#include <algorithm>
#include <string>

namespace gpusched::cel {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
int HexVal(char c) { return IsDigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10; }

void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  bool Run(std::vector<Token>* out, std::vector<Issue>* issues) {
    while (true) {
      SkipSpaceAndComments();
      if (pos_ >= src_.size()) break;
      Token t;
      t.offset = static_cast<int32_t>(pos_);
      Issue issue;
      if (!Next(&t, &issue)) {
        issues->push_back(std::move(issue));
        continue;
      }
      out->push_back(std::move(t));
    }
    Token eof;
    eof.kind = Token::Kind::kEof;
    eof.offset = static_cast<int32_t>(src_.size());
    eof.text = "<EOF>";
    out->push_back(std::move(eof));
    return issues->empty();
  }

 private:
  char At(size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  void SkipSpaceAndComments() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') {
        ++pos_;
      } else if (c == '/' && At(pos_ + 1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  bool Fail(size_t start, size_t end, Issue* issue) {
    // ANTLR reports the text it consumed before giving up, up to and
    // including the offending character (one whole UTF-8 character).
    if (end < src_.size()) {
      unsigned char c = static_cast<unsigned char>(src_[end]);
      size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
      end = std::min(src_.size(), end + n);
    }
    issue->offset = static_cast<int32_t>(start);
    issue->message = "Syntax error: token recognition error at: '" + std::string(src_.substr(start, end - start)) + "'";
    pos_ = std::max(end, start + 1);  // resume after the failing character
    return false;
  }

  bool Next(Token* t, Issue* issue) {
    using K = Token::Kind;
    size_t start = pos_;
    char c = src_[pos_];
    auto op = [&](K k, size_t n) {
      t->kind = k;
      t->text = std::string(src_.substr(start, n));
      pos_ += n;
      return true;
    };
    char n1 = At(pos_ + 1);
    // String prefixes: r, R, b, B and their combinations with a quote next.
    if (c == '"' || c == '\'') return LexString(t, start, pos_, false, false, issue);
    if (c == 'r' || c == 'R' || c == 'b' || c == 'B') {
      bool raw = false, bytes = false;
      size_t p = pos_;
      for (int k = 0; k < 2 && p < src_.size(); ++k) {
        char q = src_[p];
        if ((q == 'r' || q == 'R') && !raw) {
          raw = true;
          ++p;
        } else if ((q == 'b' || q == 'B') && !bytes) {
          bytes = true;
          ++p;
        } else {
          break;
        }
      }
      if (p < src_.size() && (src_[p] == '"' || src_[p] == '\'')) return LexString(t, start, p, raw, bytes, issue);
    }
    if (IsIdentStart(c)) {
      size_t e = pos_;
      while (e < src_.size() && IsIdentChar(src_[e])) ++e;
      t->text = std::string(src_.substr(pos_, e - pos_));
      pos_ = e;
      t->kind = t->text == "true" ? K::kTrue : t->text == "false" ? K::kFalse : t->text == "null" ? K::kNull
              : t->text == "in" ? K::kIn : K::kIdent;
      return true;
    }
    if (IsDigit(c) || (c == '.' && IsDigit(n1))) return LexNumber(t);
    switch (c) {
      case '=': if (n1 == '=') return op(K::kEq, 2); break;
      case '!': return n1 == '=' ? op(K::kNe, 2) : op(K::kNot, 1);
      case '<': return n1 == '=' ? op(K::kLe, 2) : op(K::kLt, 1);
      case '>': return n1 == '=' ? op(K::kGe, 2) : op(K::kGt, 1);
      case '&': if (n1 == '&') return op(K::kAnd, 2); break;
      case '|': if (n1 == '|') return op(K::kOr, 2); break;
      case '[': return op(K::kLBracket, 1);
      case ']': return op(K::kRBracket, 1);
      case '{': return op(K::kLBrace, 1);
      case '}': return op(K::kRBrace, 1);
      case '(': return op(K::kLParen, 1);
      case ')': return op(K::kRParen, 1);
      case '.': return op(K::kDot, 1);
      case ',': return op(K::kComma, 1);
      case '-': return op(K::kMinus, 1);
      case '?': return op(K::kQuestion, 1);
      case ':': return op(K::kColon, 1);
      case '+': return op(K::kPlus, 1);
      case '*': return op(K::kStar, 1);
      case '/': return op(K::kSlash, 1);
      case '%': return op(K::kPercent, 1);
      default: break;
    }
    // '=' alone, '&' alone, '|' alone: ANTLR consumed one character and
    // failed on the next.
    if (c == '=' || c == '&' || c == '|') return Fail(start, pos_ + 1, issue);
    return Fail(start, pos_, issue);
  }

  bool LexNumber(Token* t) {
    using K = Token::Kind;
    size_t s = pos_;
    size_t p = pos_;
    if (src_[p] == '0' && (At(p + 1) == 'x' || At(p + 1) == 'X') && IsHex(At(p + 2))) {
      p += 2;
      while (IsHex(At(p))) ++p;
      t->kind = K::kInt;
      if (At(p) == 'u' || At(p) == 'U') {
        ++p;
        t->kind = K::kUint;
      }
      t->text = std::string(src_.substr(s, p - s));
      pos_ = p;
      return true;
    }
    bool is_float = false;
    while (IsDigit(At(p))) ++p;
    if (At(p) == '.' && IsDigit(At(p + 1))) {
      is_float = true;
      ++p;
      while (IsDigit(At(p))) ++p;
    }
    if (At(p) == 'e' || At(p) == 'E') {
      size_t q = p + 1;
      if (At(q) == '+' || At(q) == '-') ++q;
      if (IsDigit(At(q))) {
        is_float = true;
        p = q;
        while (IsDigit(At(p))) ++p;
      }
    }
    t->kind = is_float ? K::kDouble : K::kInt;
    if (!is_float && (At(p) == 'u' || At(p) == 'U')) {
      ++p;
      t->kind = K::kUint;
    }
    t->text = std::string(src_.substr(s, p - s));
    pos_ = p;
    return true;
  }

  // `q` is the position of the opening quote.
  bool LexString(Token* t, size_t start, size_t q, bool raw, bool bytes, Issue* issue) {
    char quote = src_[q];
    bool triple = At(q + 1) == quote && At(q + 2) == quote;
    size_t p = q + (triple ? 3 : 1);
    std::string value;
    while (true) {
      if (p >= src_.size()) return Fail(start, src_.size(), issue);
      char c = src_[p];
      if (triple) {
        if (c == quote && At(p + 1) == quote && At(p + 2) == quote) {
          p += 3;
          break;
        }
      } else {
        if (c == quote) {
          ++p;
          break;
        }
        if (c == '\n' || c == '\r') return Fail(start, p, issue);
      }
      if (c == '\\' && !raw) {
        size_t consumed = 0;
        if (!Escape(p, bytes, &value, &consumed)) return Fail(start, p + 1, issue);
        p += consumed;
        continue;
      }
      value += c;
      ++p;
    }
    t->kind = bytes ? Token::Kind::kBytes : Token::Kind::kString;
    t->text = std::string(src_.substr(start, p - start));
    t->value = std::move(value);
    pos_ = p;
    return true;
  }

  // Decodes the escape at `p` (a backslash) into `out`.
  bool Escape(size_t p, bool bytes, std::string* out, size_t* consumed) {
    char e = At(p + 1);
    switch (e) {
      case 'a': *out += '\a'; *consumed = 2; return true;
      case 'b': *out += '\b'; *consumed = 2; return true;
      case 'f': *out += '\f'; *consumed = 2; return true;
      case 'n': *out += '\n'; *consumed = 2; return true;
      case 'r': *out += '\r'; *consumed = 2; return true;
      case 't': *out += '\t'; *consumed = 2; return true;
      case 'v': *out += '\v'; *consumed = 2; return true;
      case '"': case '\'': case '\\': case '?': case '`': *out += e; *consumed = 2; return true;
      default: break;
    }
    uint32_t cp = 0;
    if (e == 'x' || e == 'X') {
      if (!IsHex(At(p + 2)) || !IsHex(At(p + 3))) return false;
      cp = static_cast<uint32_t>(HexVal(At(p + 2)) * 16 + HexVal(At(p + 3)));
      *consumed = 4;
    } else if (e >= '0' && e <= '3') {
      char d1 = At(p + 2), d2 = At(p + 3);
      if (d1 < '0' || d1 > '7' || d2 < '0' || d2 > '7') return false;
      cp = static_cast<uint32_t>((e - '0') * 64 + (d1 - '0') * 8 + (d2 - '0'));
      *consumed = 4;
    } else if (e == 'u' || e == 'U') {
      int n = e == 'u' ? 4 : 8;
      for (int i = 0; i < n; ++i) {
        char h = At(p + 2 + static_cast<size_t>(i));
        if (!IsHex(h)) return false;
        cp = cp * 16 + static_cast<uint32_t>(HexVal(h));
      }
      // Surrogates and values above U+10FFFF are not code points.
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
      *consumed = static_cast<size_t>(2 + n);
      AppendUtf8(out, cp);
      return true;
    } else {
      return false;
    }
    // \x and octal escapes are bytes in a bytes literal, code points in a string.
    if (bytes) {
      *out += static_cast<char>(cp);
    } else {
      AppendUtf8(out, cp);
    }
    return true;
  }

  std::string_view src_;
  size_t pos_ = 0;
};

}  // namespace

bool Lex(std::string_view src, std::vector<Token>* tokens, std::vector<Issue>* issues) {
  return Lexer(src).Run(tokens, issues);
}

}  // namespace gpusched::cel
