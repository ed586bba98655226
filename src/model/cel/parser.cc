// Recursive-descent CEL parser for the grammar of cel-go parser/gen/CEL.g4:
//   expr     : conditionalOr ('?' conditionalOr ':' expr)?
//   condOr   : condAnd ('||' condAnd)*         (balanced tree, helper.go)
//   condAnd  : relation ('&&' relation)*
//   relation : calc (('<'|'<='|'>='|'>'|'=='|'!='|'in') calc)*   (left)
//   calc     : unary (('*'|'/'|'%') unary)* folded into ('+'|'-') chains
//   unary    : member | '!'+ member | '-'+ member
//   member   : primary ('.' IDENT ('(' args ')')? | '[' expr ']')*
//   primary  : '.'? IDENT ('(' args ')')? | '(' expr ')' | '[' list ']'
//            | '{' map '}' | literal
// Syntax errors use ANTLR's wording as cel-go reports it ("Syntax error:
// mismatched input 'x' expecting ..."); only the first one is reported
// (cel-go's ANTLR error recovery may report more).
#include "gpusched/model/cel/parser.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>

#include "gpusched/model/cel/lexer.h"
#include "gpusched/model/cel/macros.h"

namespace gpusched::cel {
namespace {

using K = Token::Kind;

constexpr char kExpectExpr[] =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

bool StartsExpr(K k) {
  switch (k) {
    case K::kLBracket: case K::kLBrace: case K::kLParen: case K::kDot: case K::kMinus: case K::kNot:
    case K::kTrue: case K::kFalse: case K::kNull: case K::kDouble: case K::kInt: case K::kUint:
    case K::kString: case K::kBytes: case K::kIdent:
      return true;
    default:
      return false;
  }
}

bool IsReserved(const std::string& s) {
  static const char* const kReserved[] = {"as", "break", "const", "continue", "else", "for", "function", "if",
                                          "import", "let", "loop", "package", "namespace", "return", "var",
                                          "void", "while"};
  for (const char* r : kReserved)
    if (s == r) return true;
  return false;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

  ParseResult Run() {
    ParseResult r;
    ExprPtr e = Expr_();
    // ANTLR deletes a single extra token before the end ("extraneous").
    if (!failed_ && Peek().kind != K::kEof)
      SyntaxError(Peek(), std::string(Peek(1).kind == K::kEof ? "extraneous" : "mismatched") + " input '" +
                              Peek().text + "' expecting <EOF>");
    if (failed_) {
      r.issues = std::move(issues_);
      return r;
    }
    if (!issues_.empty()) {
      r.issues = std::move(issues_);
      return r;
    }
    r.expr = std::move(e);
    return r;
  }

 private:
  const Token& Peek(size_t k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  const Token& Take() { return toks_[std::min(pos_++, toks_.size() - 1)]; }
  bool Accept(K k) {
    if (Peek().kind != k) return false;
    ++pos_;
    return true;
  }

  void SyntaxError(const Token& at, const std::string& msg) {
    if (failed_) return;
    failed_ = true;
    issues_.push_back({at.offset, "Syntax error: " + msg});
  }
  void LimitError(const std::string& msg) {
    if (failed_) return;
    failed_ = true;
    issues_.push_back({kNoLocation, msg});
  }
  bool Expect(K k, const char* what) {
    if (Accept(k)) return true;
    SyntaxError(Peek(), "mismatched input '" + Peek().text + "' expecting " + what);
    return false;
  }
  // A counter of one grammar rule's nesting, as cel-go's recursionListener
  // keeps per rule type.
  bool Enter(int& counter) {
    ++counter;
    if (counter > kMaxRecursionDepth) {
      LimitError("expression recursion limit exceeded: " + std::to_string(kMaxRecursionDepth));
      return false;
    }
    return true;
  }

  ExprPtr Expr_() {
    if (failed_) return nullptr;
    if (!Enter(expr_depth_)) return nullptr;
    ExprPtr cond = LogicalChain(true);
    if (cond && Peek().kind == K::kQuestion) {
      int32_t at = Take().offset;
      ExprPtr a = LogicalChain(true);
      if (!a || !Expect(K::kColon, "':'")) {
        --expr_depth_;
        return nullptr;
      }
      ExprPtr b = Expr_();
      if (!b) {
        --expr_depth_;
        return nullptr;
      }
      int d = std::max({VisitDepth(cond), VisitDepth(a), VisitDepth(b)}) + 1;
      std::vector<ExprPtr> args;
      args.push_back(std::move(cond));
      args.push_back(std::move(a));
      args.push_back(std::move(b));
      cond = Counted(NewCall(ids_, at, "_?_:_", std::move(args)), d);
    }
    --expr_depth_;
    return failed_ ? nullptr : std::move(cond);
  }

  // condOr (or == true) / condAnd chains as balanced trees.
  ExprPtr LogicalChain(bool is_or) {
    K op = is_or ? K::kOr : K::kAnd;
    std::vector<ExprPtr> terms;
    std::vector<int32_t> ops;
    ExprPtr first = is_or ? LogicalChain(false) : Relation();
    if (!first) return nullptr;
    terms.push_back(std::move(first));
    while (Peek().kind == op) {
      ops.push_back(Take().offset);
      ExprPtr t = is_or ? LogicalChain(false) : Relation();
      if (!t) return nullptr;
      terms.push_back(std::move(t));
    }
    if (ops.empty()) return std::move(terms[0]);
    int d = 0;
    for (const ExprPtr& t : terms) d = std::max(d, VisitDepth(t));
    return Counted(Balanced(is_or ? "_||_" : "_&&_", terms, ops, 0, static_cast<int>(ops.size()) - 1), d);
  }

  // cel-go parser/helper.go balancer.balancedTree.
  ExprPtr Balanced(const char* fn, std::vector<ExprPtr>& terms, const std::vector<int32_t>& ops, int lo, int hi) {
    int mid = (lo + hi + 1) / 2;
    ExprPtr left = mid == lo ? std::move(terms[static_cast<size_t>(mid)]) : Balanced(fn, terms, ops, lo, mid - 1);
    ExprPtr right =
        mid + 1 == hi + 1 ? std::move(terms[static_cast<size_t>(mid + 1)]) : Balanced(fn, terms, ops, mid + 1, hi);
    std::vector<ExprPtr> args;
    args.push_back(std::move(left));
    args.push_back(std::move(right));
    return NewCall(ids_, ops[static_cast<size_t>(mid)], fn, std::move(args));
  }

  static const char* RelationFn(K k) {
    switch (k) {
      case K::kLt: return "_<_";
      case K::kLe: return "_<=_";
      case K::kGe: return "_>=_";
      case K::kGt: return "_>_";
      case K::kEq: return "_==_";
      case K::kNe: return "_!=_";
      case K::kIn: return "@in";
      default: return nullptr;
    }
  }

  ExprPtr Binary(int32_t at, const char* fn, ExprPtr a, ExprPtr b, bool counts) {
    int d = std::max(VisitDepth(a), VisitDepth(b)) + (counts ? 1 : 0);
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return Counted(NewCall(ids_, at, fn, std::move(args)), d);
  }

  // cel-go's visitor depth (parser.go Visit: checkAndIncrementRecursionDepth
  // on ternaries, relations, arithmetic, selections, member calls and
  // indexing; not on &&, ||, unary operators, global calls or literals).
  int VisitDepth(const ExprPtr& e) const {
    auto it = visit_depth_.find(e.get());
    return it == visit_depth_.end() ? 0 : it->second;
  }
  ExprPtr Counted(ExprPtr e, int depth) {
    if (!e) return e;
    if (depth > kMaxRecursionDepth) LimitError("max recursion depth exceeded");
    visit_depth_[e.get()] = depth;
    return e;
  }

  ExprPtr Relation() {
    ExprPtr e = Additive();
    while (e && RelationFn(Peek().kind)) {
      const Token& t = Take();
      ExprPtr rhs = Additive();
      if (!rhs) return nullptr;
      e = Binary(t.offset, RelationFn(t.kind), std::move(e), std::move(rhs), true);
    }
    return failed_ ? nullptr : std::move(e);
  }

  ExprPtr Additive() {
    ExprPtr e = Multiplicative();
    while (e && (Peek().kind == K::kPlus || Peek().kind == K::kMinus)) {
      const Token& t = Take();
      ExprPtr rhs = Multiplicative();
      if (!rhs) return nullptr;
      e = Binary(t.offset, t.kind == K::kPlus ? "_+_" : "_-_", std::move(e), std::move(rhs), true);
    }
    return failed_ ? nullptr : std::move(e);
  }

  ExprPtr Multiplicative() {
    ExprPtr e = Unary();
    while (e && (Peek().kind == K::kStar || Peek().kind == K::kSlash || Peek().kind == K::kPercent)) {
      const Token& t = Take();
      ExprPtr rhs = Unary();
      if (!rhs) return nullptr;
      const char* fn = t.kind == K::kStar ? "_*_" : t.kind == K::kSlash ? "_/_" : "_%_";
      e = Binary(t.offset, fn, std::move(e), std::move(rhs), true);
    }
    return failed_ ? nullptr : std::move(e);
  }

  ExprPtr Unary() {
    K k = Peek().kind;
    if (k != K::kNot && k != K::kMinus) return Member();
    int32_t at = Peek().offset;
    size_t n = 0;
    while (Peek(n).kind == k) ++n;
    // A '-' right before a number is the literal's sign (CEL.g4: literal
    // `MINUS? NUM_INT`, `MINUS? NUM_FLOAT`; not for NUM_UINT).
    K after = Peek(n).kind;
    if (k == K::kMinus && (after == K::kInt || after == K::kDouble)) --n;
    pos_ += n;
    if (n > 0 && Peek().kind != K::kMinus && !StartsExpr(Peek().kind)) {
      SyntaxError(Peek(), "no viable alternative at input '" + std::string(k == K::kNot ? "!" : "-") + "'");
      return nullptr;
    }
    ExprPtr e = Member();
    if (!e) return nullptr;
    if (n % 2 == 0) return e;
    int d = VisitDepth(e);
    std::vector<ExprPtr> args;
    args.push_back(std::move(e));
    return Counted(NewCall(ids_, at, k == K::kNot ? "!_" : "-_", std::move(args)), d);
  }

  ExprPtr Member() {
    ExprPtr e = Primary();
    while (e) {
      K k = Peek().kind;
      if (k != K::kDot && k != K::kLBracket) break;
      const Token& op = Take();
      // cel.OptionalTypes: a[?k] and a.?f.
      bool optional = Accept(K::kQuestion);
      if (k == K::kLBracket) {
        ExprPtr index = Expr_();
        if (!index || !Expect(K::kRBracket, "']'")) return nullptr;
        e = Binary(op.offset, optional ? "_[?_]" : "_[_]", std::move(e), std::move(index), true);
        continue;
      }
      if (optional) {
        if (Peek().kind != K::kIdent) {
          SyntaxError(Peek(), "mismatched input '" + Peek().text + "' expecting IDENTIFIER");
          return nullptr;
        }
        const Token& id = Take();
        e = Binary(op.offset, "_?._", std::move(e), NewConst(ids_, id.offset, Value::String(id.text)), true);
        continue;
      }
      if (Peek().kind != K::kIdent) {
        SyntaxError(Peek(), "no viable alternative at input '." + Peek().text + "'");
        return nullptr;
      }
      const Token& id = Take();
      if (Peek().kind == K::kLParen) {
        int32_t open = Take().offset;
        std::vector<ExprPtr> args;
        if (!Args(K::kRParen, &args)) return nullptr;
        e = CallOrMacro(open, id.text, std::move(e), std::move(args));
      } else {
        ExprPtr sel = NewExpr(ids_, Expr::Kind::kSelect, op.offset);
        sel->name = id.text;
        int d = VisitDepth(e) + 1;
        sel->target = std::move(e);
        e = Counted(std::move(sel), d);
      }
    }
    return failed_ ? nullptr : std::move(e);
  }

  bool Args(K close, std::vector<ExprPtr>* out) {
    if (Accept(close)) return true;
    while (true) {
      ExprPtr a = Expr_();
      if (!a) return false;
      out->push_back(std::move(a));
      if (Accept(K::kComma)) {
        if (close != K::kRParen && Accept(close)) return true;  // trailing comma in list literals
        continue;
      }
      return Expect(close, close == K::kRParen ? "')'" : "']'");
    }
  }

  ExprPtr CallOrMacro(int32_t at, const std::string& fn, ExprPtr target, std::vector<ExprPtr> args) {
    int d = target ? VisitDepth(target) + 1 : 0;
    for (const ExprPtr& a : args) d = std::max(d, VisitDepth(a) + (target ? 1 : 0));
    return Counted(CallOrMacroNode(at, fn, std::move(target), std::move(args)), d);
  }

  ExprPtr CallOrMacroNode(int32_t at, const std::string& fn, ExprPtr target, std::vector<ExprPtr> args) {
    bool matched = false;
    std::vector<const Expr*> inputs{target.get()};
    for (const ExprPtr& a : args) inputs.push_back(a.get());
    ExprPtr m = ExpandMacro(ids_, at, fn, target, args, &matched, &issues_);
    if (matched) {
      // The macro may have freed some inputs; forget their depths.
      for (const Expr* x : inputs) visit_depth_.erase(x);
      if (!m) failed_ = true;
      return m;
    }
    ExprPtr call = NewCall(ids_, at, fn, std::move(args));
    call->target = std::move(target);
    return call;
  }

  ExprPtr Primary() {
    if (failed_) return nullptr;
    const Token& t = Peek();
    switch (t.kind) {
      case K::kDot:
      case K::kIdent: {
        int32_t start = t.offset;
        if (t.kind == K::kDot) {
          Take();
          if (Peek().kind != K::kIdent) {
            SyntaxError(Peek(), "mismatched input '" + Peek().text + "' expecting IDENTIFIER");
            return nullptr;
          }
        }
        const Token& id = Take();
        if (IsReserved(id.text)) {
          failed_ = true;
          issues_.push_back({id.offset, "reserved identifier: " + id.text});
          return nullptr;
        }
        if (Peek().kind == K::kLParen) {
          int32_t open = Take().offset;
          std::vector<ExprPtr> args;
          if (!Args(K::kRParen, &args)) return nullptr;
          return CallOrMacro(open, id.text, nullptr, std::move(args));
        }
        if (Peek().kind == K::kLBrace) {
          SyntaxError(Peek(), "message construction is not supported");
          return nullptr;
        }
        return Counted(NewIdent(ids_, start == id.offset ? id.offset : start, id.text), 0);
      }
      case K::kLParen: {
        Take();
        ExprPtr e = Expr_();
        if (!e || !Expect(K::kRParen, "')'")) return nullptr;
        return e;
      }
      case K::kLBracket: {
        int32_t at = Take().offset;
        ExprPtr list = NewExpr(ids_, Expr::Kind::kList, at);
        if (!Args(K::kRBracket, &list->args)) return nullptr;
        int d = 0;
        for (const ExprPtr& a : list->args) d = std::max(d, VisitDepth(a));
        return Counted(std::move(list), d);
      }
      case K::kLBrace: return MapLiteral();
      default: return Counted(Literal(), 0);
    }
  }

  ExprPtr MapLiteral() {
    int32_t at = Take().offset;
    ExprPtr map = NewExpr(ids_, Expr::Kind::kMap, at);
    if (Accept(K::kRBrace)) return map;
    while (true) {
      ExprPtr key = Expr_();
      if (!key || !Expect(K::kColon, "':'")) return nullptr;
      ExprPtr value = Expr_();
      if (!value) return nullptr;
      map->args.push_back(std::move(key));
      map->args.push_back(std::move(value));
      if (Accept(K::kComma)) {
        if (Accept(K::kRBrace)) break;
        continue;
      }
      if (!Expect(K::kRBrace, "'}'")) return nullptr;
      break;
    }
    int d = 0;
    for (const ExprPtr& a : map->args) d = std::max(d, VisitDepth(a));
    return Counted(std::move(map), d);
  }

  ExprPtr Literal() {
    bool negative = false;
    int32_t at = Peek().offset;
    if (Peek().kind == K::kMinus && (Peek(1).kind == K::kInt || Peek(1).kind == K::kDouble)) {
      negative = true;
      Take();
    }
    const Token& t = Peek();
    switch (t.kind) {
      case K::kTrue: Take(); return NewConst(ids_, at, Value::Bool(true));
      case K::kFalse: Take(); return NewConst(ids_, at, Value::Bool(false));
      case K::kNull: Take(); return NewConst(ids_, at, Value::Null());
      case K::kString: Take(); return NewConst(ids_, at, Value::String(t.value));
      case K::kBytes: Take(); return NewConst(ids_, at, Value::BytesOf(t.value));
      case K::kInt: case K::kUint: case K::kDouble: {
        Take();
        return Number(t, negative, at);
      }
      default: {
        const Token& next = Peek(1);
        bool extraneous = t.kind != K::kEof && StartsExpr(next.kind);
        SyntaxError(t, std::string(extraneous ? "extraneous" : "mismatched") + " input '" + t.text + "' expecting " +
                           kExpectExpr);
        return nullptr;
      }
    }
  }

  // cel-go parser.go visitInt / visitUint / visitDouble: strconv parsing,
  // "invalid int literal" etc. on overflow.
  ExprPtr Number(const Token& t, bool negative, int32_t at) {
    std::string text = t.text;
    if (t.kind == K::kDouble) {
      std::string s = (negative ? "-" : "") + text;
      errno = 0;
      double d = std::strtod(s.c_str(), nullptr);
      // Go's ParseFloat reports out-of-range values (which cel-go rejects);
      // strtod sets ERANGE for overflow and for underflow, where Go rounds.
      if (errno == ERANGE && (d > 1 || d < -1)) return Invalid(at, "invalid double literal");
      return NewConst(ids_, at, Value::Double(d));
    }
    bool is_uint = t.kind == K::kUint;
    if (is_uint) text.pop_back();
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
      base = 16;
      text = text.substr(2);
    }
    errno = 0;
    if (is_uint) {
      unsigned long long u = std::strtoull(text.c_str(), nullptr, base);
      if (errno == ERANGE) return Invalid(at, "invalid uint literal");
      return NewConst(ids_, at, Value::Uint(u));
    }
    std::string s = (negative ? "-" : "") + text;
    long long i = std::strtoll(s.c_str(), nullptr, base);
    if (errno == ERANGE) return Invalid(at, "invalid int literal");
    return NewConst(ids_, at, Value::Int(i));
  }

  ExprPtr Invalid(int32_t at, const char* msg) {
    failed_ = true;
    issues_.push_back({at, msg});
    return nullptr;
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  bool failed_ = false;
  std::vector<Issue> issues_;
  IdGen ids_;
  int expr_depth_ = 0;
  std::unordered_map<const Expr*, int> visit_depth_;
};

// The depth of the expanded AST, without recursion (the tree may be deep).
int Depth(const Expr& root) {
  int max_depth = 0;
  std::vector<std::pair<const Expr*, int>> stack{{&root, 1}};
  while (!stack.empty()) {
    const Expr* e = stack.back().first;
    const int d = stack.back().second;
    stack.pop_back();
    max_depth = std::max(max_depth, d);
    auto push = [&](const ExprPtr& c) {
      if (c) stack.push_back({c.get(), d + 1});
    };
    push(e->target);
    for (const ExprPtr& a : e->args) push(a);
    push(e->iter_range);
    push(e->accu_init);
    push(e->loop_cond);
    push(e->loop_step);
    push(e->result);
  }
  return max_depth;
}

}  // namespace

ParseResult Parse(std::string_view source) {
  std::vector<Token> tokens;
  std::vector<Issue> lex_issues;
  Lex(source, &tokens, &lex_issues);
  // As in cel-go, the parser runs on what the lexer recognised, and both
  // report (the parser its first error only: no ANTLR error recovery here).
  ParseResult r = Parser(std::move(tokens)).Run();
  if (!lex_issues.empty()) {
    r.expr.reset();
    r.issues.insert(r.issues.begin(), lex_issues.begin(), lex_issues.end());
    return r;
  }
  // cel-go's visitor stops at 250 nested nodes; a deeper tree (long + or .
  // chains inside nested parentheses) would otherwise recurse unboundedly
  // in the checker and the interpreter. Macro expansion adds a few levels
  // per macro, hence the margin.
  if (r.expr && Depth(*r.expr) > 4 * kMaxRecursionDepth) {
    r.expr.reset();
    r.issues.push_back({kNoLocation, "max recursion depth exceeded"});
  }
  return r;
}

}  // namespace gpusched::cel
