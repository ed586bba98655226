// Reading JSON manifests as kubectl does (k8s.io/apimachinery's
// YAMLOrJSONDecoder: input whose first character is '{' is a stream of JSON
// values, read one after the other with encoding/json's Decoder), with
// simdjson's On-Demand parser building each value into a Document (chosen
// over nlohmann-json's SAX parser by measurement, see the README):
//
//  - several objects one after the other (what `jq -c '.items[]'` writes)
//    each become a value; a syntax error ends the stream, the values before
//    it stay read;
//  - a top-level object's "items" array (a List, such as `kubectl get -A -o
//    json` writes) is handed over item by item as each item is parsed, and the
//    item's tree is dropped after: a List of a million pods never exists as
//    one tree;
//  - strict RFC 8259: a trailing comma, a comment, NaN, a control character
//    in a string are syntax errors with their line and column;
//  - the bounds of CheckYamlBounds (yaml_documents.h) hold for JSON too:
//    nesting deeper than kMaxYamlNesting, a string longer than
//    kMaxYamlScalarBytes.
// Numbers keep their text as written (a decoder reads 5.0 as the JSON
// number it is, as Go's encoding/json does). Duplicate keys are kept in the
// tree in order; the first is the one operator[] finds.
#ifndef GPUSCHED_IO_JSON_DOCUMENTS_H_
#define GPUSCHED_IO_JSON_DOCUMENTS_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "gpusched/io/document.h"

namespace gpusched {

struct JsonStreamEvents {
  // A top-level value starts at `line` (1-based, in the file).
  std::function<void(int line)> begin;
  // The current top-level value is a List of `count` items, about to be
  // handed over (to reserve room for them).
  std::function<void(size_t count)> list;
  // The next item of the current top-level object's "items" array, parsed.
  std::function<void(const DocNode& item)> item;
  // The current top-level value, parsed. When its "items" array was handed
  // over item by item, the tree holds "items" as an empty list and
  // `streamed_items` says how many there were.
  std::function<void(const DocNode& value, size_t streamed_items)> end;
  // The stream stops at a syntax error or a bound: "cannot parse JSON at line
  // L, column C: <message>" or "cannot parse JSON: <bound>" (see CheckYamlBounds),
  // and `line` is the line of the value it interrupts.
  std::function<void(int line, const std::string& message)> error;
};

// Parses `text` (the whole input; `first_line` is its first line in the
// file) as a stream of JSON values. `capacity` is how many bytes from `data`
// are readable: the parser (simdjson's On-Demand API) reads up to 64 bytes
// past a value, so with less room than size + 64 the text is copied first.
// With `release_read`, the pages of a large input (64 MiB or more) are given
// back to the system as the parser moves past them: their contents are gone.
void ParseJsonStream(const char* data, size_t size, size_t capacity, int first_line, const JsonStreamEvents& events,
                     bool release_read = false);
void ParseJsonStream(std::string_view text, int first_line, const JsonStreamEvents& events);

// One past the end of the JSON value at text[at]: an object or array by its
// brackets (strings skipped, 16 bytes at a time), a string by its closing
// quote, another scalar up to the next delimiter; npos when it does not
// end. Nothing else is checked (the parser does): for a valid value, exactly
// its end.
size_t JsonValueEnd(std::string_view text, size_t at);

// Whether `text` is valid UTF-8 (simdjson's validator: gigabytes a second).
bool IsValidUtf8(std::string_view text);

// Whether kubectl reads `text` as JSON: its first character other than a
// byte order mark and white space is '{' (or, as gpusched also accepts, '[').
bool LooksLikeJson(std::string_view text);

}  // namespace gpusched

#endif  // GPUSCHED_IO_JSON_DOCUMENTS_H_
