// The JSON stream reader (json_documents.h): the JsonTreeBuilder that turns
// one value into a Document with simdjson's On-Demand API, and
// ParseJsonStream, which cuts the input into values (and a List into items)
// with json_scan.h, releases pages already read, and reports errors through
// json_syntax_error.h. JsonTreeBuilder and ParseJsonStream stay together:
// the builder maps a List envelope's positions back to the input with
// offsets only the stream knows (Original), and neither is used anywhere
// else.
#include "gpusched/io/json_documents.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpusched/io/yaml_documents.h"
#include "json_scan.h"
#include "json_syntax_error.h"

namespace gpusched {
namespace {

namespace od = simdjson::ondemand;
using json_scan::IsSpace;
using json_scan::ItemsSplit;
using json_scan::Locator;
using json_scan::SkipSpace;
using json_scan::SplitItems;
using json_scan::ValueEnd;

// A JSON number as RFC 8259 writes it (simdjson checks numbers only when
// asked for their value).
bool IsJsonNumber(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

struct ParseFailure {
  const char* at;  // where the problem is (the token the parser stopped at)
  std::string message;
  bool bound = false;  // a gpusched bound rather than a syntax error
};

std::string Describe(simdjson::error_code e) {
  switch (e) {
    case simdjson::TAPE_ERROR:
    case simdjson::INCORRECT_TYPE:
      return "improper structure: a missing or superfluous comma, colon, brace or bracket, or a value that is not "
             "JSON (comments, NaN and trailing commas are not)";
    case simdjson::NUMBER_ERROR: return "invalid number";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR: return "invalid literal (true, false or null)";
    case simdjson::STRING_ERROR: return "invalid escape in a string";
    case simdjson::UNCLOSED_STRING: return "unclosed string";
    case simdjson::UNESCAPED_CHARS: return "a control character in a string must be escaped";
    case simdjson::UTF8_ERROR: return "invalid UTF-8";
    case simdjson::DEPTH_ERROR: return "nesting too deep";
    default: return simdjson::error_message(e);
  }
}

// Builds Documents from pieces of the input with simdjson's On-Demand API.
class JsonTreeBuilder {
 public:
  JsonTreeBuilder(const char* text, size_t size, int first_line)
      : text_(text), end_(text + size), first_line_(first_line) {}

  // Parses [p, q) (one JSON value; the buffer is readable SIMDJSON_PADDING
  // bytes past q) into `doc`. `where` locates positions; `shift` maps the
  // parsed buffer's positions to the input's (for a List's envelope).
  bool Parse(const char* p, const char* q, Document& doc, Locator& where, const char* original, size_t items_at,
             size_t items_len, ParseFailure& fail) {
    doc.Clear();
    where_ = &where;
    buffer_ = p;
    original_ = original;
    items_at_ = items_at;
    items_len_ = items_len;
    od::document d;
    last_ = p;
    if (auto e = parser_.iterate(p, static_cast<size_t>(q - p), static_cast<size_t>(q - p) + simdjson::SIMDJSON_PADDING)
                     .get(d)) {
      fail = {Original(p), Describe(e)};
      return false;
    }
    od::json_type type;
    if (auto e = d.type().get(type)) {
      fail = {Original(p), Describe(e)};
      return false;
    }
    if (type != od::json_type::object && type != od::json_type::array) return Scalar(d, type, doc, fail);
    od::value v;
    if (auto e = d.get_value().get(v)) {
      fail = {Original(last_), Describe(e)};
      return false;
    }
    // [p, q) holds one value (ValueEnd found where it ends).
    return Build(v, doc, 1, fail);
  }

 private:
  // Where a position of the parsed buffer is in the input.
  const char* Original(const char* p) const {
    if (!original_) return p;
    size_t off = static_cast<size_t>(p - buffer_);
    return original_ + (off > items_at_ + 1 ? off + items_len_ - 2 : off);
  }
  std::pair<int, int> At(const char* p) {
    last_ = p;
    return (*where_)(Original(p));
  }

  bool Error(simdjson::error_code e, ParseFailure& fail) {
    fail = {Original(last_), Describe(e)};
    return false;
  }

  bool Build(od::value v, Document& doc, int depth, ParseFailure& fail) {
    od::json_type type;
    if (auto e = v.type().get(type)) return Error(e, fail);
    std::string_view token = v.raw_json_token();
    auto [line, col] = At(token.data());
    switch (type) {
      case od::json_type::object: {
        if (depth > kMaxYamlNesting) return Bound(line, fail);
        od::object obj;
        if (auto e = v.get_object().get(obj)) return Error(e, fail);
        doc.OpenContainer(DocType::kMap, line, col);
        for (auto field_result : obj) {
          od::field field;
          if (auto e = std::move(field_result).get(field)) return Error(e, fail);
          auto [kline, kcol] = At(field.key().raw() - 1);  // raw() is just after the opening quote
          std::string_view k;
          if (auto e = field.unescaped_key().get(k)) return Error(e, fail);
          if (k.size() > kMaxYamlScalarBytes) return TooLong(k.size(), kline, fail);
          doc.AddScalar(k, ScalarKind::kString, false, kline, kcol);
          if (!Build(field.value(), doc, depth + 1, fail)) return false;
        }
        doc.CloseContainer();
        return true;
      }
      case od::json_type::array: {
        if (depth > kMaxYamlNesting) return Bound(line, fail);
        od::array arr;
        if (auto e = v.get_array().get(arr)) return Error(e, fail);
        doc.OpenContainer(DocType::kSequence, line, col);
        for (auto item : arr) {
          od::value iv;
          if (auto e = std::move(item).get(iv)) return Error(e, fail);
          if (!Build(iv, doc, depth + 1, fail)) return false;
        }
        doc.CloseContainer();
        return true;
      }
      case od::json_type::string: {
        std::string_view s;
        if (auto e = v.get_string().get(s)) return Error(e, fail);
        if (s.size() > kMaxYamlScalarBytes) return TooLong(s.size(), line, fail);
        doc.AddScalar(s, ScalarKind::kString, false, line, col);
        return true;
      }
      case od::json_type::number:
        // A scalar's raw token runs to the next structural character.
        while (!token.empty() && IsSpace(token.back())) token.remove_suffix(1);
        if (!IsJsonNumber(token)) return Error(simdjson::NUMBER_ERROR, fail);
        doc.AddScalar(token, ScalarKind::kNumber, false, line, col);
        return true;
      case od::json_type::boolean: {
        bool b = false;
        if (auto e = v.get_bool().get(b)) return Error(e, fail);
        doc.AddScalar(b ? "true" : "false", ScalarKind::kBool, false, line, col);
        return true;
      }
      case od::json_type::null: {
        bool is_null = false;
        if (auto e = v.is_null().get(is_null)) return Error(e, fail);
        if (!is_null) return Error(simdjson::N_ATOM_ERROR, fail);
        doc.AddNull(line, col);
        return true;
      }
    }
    return Error(simdjson::TAPE_ERROR, fail);
  }

  // A document that is a single scalar (a List item that is not an object):
  // simdjson reads those through the document, not a value.
  bool Scalar(od::document& d, od::json_type type, Document& doc, ParseFailure& fail) {
    std::string_view token;
    if (auto e = d.raw_json_token().get(token)) return Error(e, fail);
    while (!token.empty() && IsSpace(token.back())) token.remove_suffix(1);
    auto [line, col] = At(token.data());
    switch (type) {
      case od::json_type::string: {
        std::string_view str;
        if (auto e = d.get_string().get(str)) return Error(e, fail);
        doc.AddScalar(str, ScalarKind::kString, false, line, col);
        return true;
      }
      case od::json_type::number:
        if (!IsJsonNumber(token)) return Error(simdjson::NUMBER_ERROR, fail);
        doc.AddScalar(token, ScalarKind::kNumber, false, line, col);
        return true;
      case od::json_type::boolean: {
        bool b = false;
        if (auto e = d.get_bool().get(b)) return Error(e, fail);
        doc.AddScalar(b ? "true" : "false", ScalarKind::kBool, false, line, col);
        return true;
      }
      case od::json_type::null: {
        bool is_null = false;
        if (auto e = d.is_null().get(is_null)) return Error(e, fail);
        if (!is_null) return Error(simdjson::N_ATOM_ERROR, fail);
        doc.AddNull(line, col);
        return true;
      }
      default: return Error(simdjson::TAPE_ERROR, fail);
    }
  }

  bool Bound(int line, ParseFailure& fail) {
    fail = {Original(last_),
            "nesting deeper than " + std::to_string(kMaxYamlNesting) + " levels at line " + std::to_string(line), true};
    return false;
  }
  bool TooLong(size_t n, int line, ParseFailure& fail) {
    fail = {Original(last_),
            "a value of " + std::to_string(n) + " bytes at line " + std::to_string(line) + " is longer than the " +
                std::to_string(kMaxYamlScalarBytes >> 20) + " MiB gpusched accepts",
            true};
    return false;
  }

  const char* text_;
  const char* end_;
  int first_line_;
  od::parser parser_;
  Locator* where_ = nullptr;
  const char* buffer_ = nullptr;
  const char* original_ = nullptr;
  size_t items_at_ = 0, items_len_ = 0;
  const char* last_ = nullptr;
};

}  // namespace

size_t JsonValueEnd(std::string_view text, size_t at) {
  if (at >= text.size()) return std::string_view::npos;
  const char* end = ValueEnd(text.data() + at, text.data() + text.size());
  return end ? static_cast<size_t>(end - text.data()) : std::string_view::npos;
}

bool IsValidUtf8(std::string_view text) { return simdjson::validate_utf8(text.data(), text.size()); }

bool LooksLikeJson(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  size_t p = text.find_first_not_of(" \t\r\n");
  return p != std::string_view::npos && (text[p] == '{' || text[p] == '[');
}

void ParseJsonStream(std::string_view input, int first_line, const JsonStreamEvents& events) {
  ParseJsonStream(input.data(), input.size(), 0, first_line, events);
}

namespace {

// Gives the pages of [from, to) back to the system: the List's items before
// the one being read are not read again, and a million pods' worth of JSON
// need not stay in memory next to the pods made of it.
class Releaser {
 public:
  Releaser(const char* data, size_t size) : next_(data), on_(size >= (size_t{64} << 20)) {}
  void Before(const char* p) {
    if (!on_) return;
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t from = (reinterpret_cast<uintptr_t>(next_) + page - 1) & ~(page - 1);
    const uintptr_t to = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
    if (to < from + (uintptr_t{16} << 20)) return;  // in steps of 16 MiB at least
    madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
    next_ = reinterpret_cast<const char*>(to);
  }

 private:
  const char* next_;
  bool on_;
};

}  // namespace

void ParseJsonStream(const char* data, size_t size, size_t capacity, int first_line, const JsonStreamEvents& events,
                     bool release_read) {
  // simdjson reads up to SIMDJSON_PADDING bytes past a value, and needs valid
  // UTF-8 (kubectl's reader has already replaced bad bytes with U+FFFD,
  // which ReplaceInvalidUtf8 does for us).
  std::string copy;
  if (capacity < size + simdjson::SIMDJSON_PADDING) {
    copy.reserve(size + simdjson::SIMDJSON_PADDING);
    copy.assign(data, size);
    data = copy.data();
  }
  const char* const end = data + size;
  // Our own copy may always be released as it is read.
  Releaser releaser(data, release_read || !copy.empty() ? size : 0);
  JsonTreeBuilder builder(data, size, first_line);
  Locator where(data, first_line);
  Document top, item;
  const char* p = data;
  if (size >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
  while (true) {
    p = SkipSpace(p, end);
    if (p >= end) return;
    const int value_line = where(p).first;
    if (events.begin) events.begin(value_line);
    // `from`: where the value (or the List's item) that failed starts.
    auto fail_with = [&](ParseFailure f, const char* from) {
      if (!events.error) return;
      if (f.bound) return events.error(value_line, "cannot parse JSON: " + f.message);
      // Say where and why as Go's decoder (and so kubectl) would.
      std::string why;
      if (const char* at = FirstSyntaxError(from, end, why)) {
        f.at = at;
        f.message = why;
      }
      auto [line, col] = where(f.at);
      events.error(value_line, "cannot parse JSON at line " + std::to_string(line) + ", column " +
                                   std::to_string(col) + ": " + f.message);
    };
    const char* q = ValueEnd(p, end);
    if (!q) {
      return fail_with(ParseFailure{end, "unexpected end of JSON input"}, p);
    }
    ItemsSplit split;
    ParseFailure fail;
    if (*p == '{' && SplitItems(p, q, split)) {
      // A List: its own fields first (the items array read as []), then
      // each item on its own.
      std::string envelope;
      envelope.reserve(static_cast<size_t>(q - p) - static_cast<size_t>(split.close - split.open) + 1 +
                       simdjson::SIMDJSON_PADDING);
      envelope.append(p, split.open);
      envelope.append("[]");
      envelope.append(split.close + 1, q);
      Locator env_where(data, first_line);
      env_where(p);
      if (!builder.Parse(envelope.data(), envelope.data() + envelope.size(), top, env_where, p,
                         static_cast<size_t>(split.open - p), static_cast<size_t>(split.close - split.open) + 1,
                         fail)) {
        return fail_with(fail, p);
      }
      if (events.list) events.list(split.items.size());
      for (const auto& [a, b] : split.items) {
        // Lines are counted up to here before the pages behind go.
        where(a);
        releaser.Before(a);
        if (!builder.Parse(a, b, item, where, nullptr, 0, 0, fail)) return fail_with(fail, a);
        if (events.item) events.item(item.root());
      }
      where(q);
      if (events.end) events.end(top.root(), split.items.size());
    } else {
      if (!builder.Parse(p, q, top, where, nullptr, 0, 0, fail)) return fail_with(fail, p);
      if (events.end) events.end(top.root(), 0);
      where(q);
      releaser.Before(q);
    }
    p = q;
  }
}

}  // namespace gpusched
