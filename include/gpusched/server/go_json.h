// JSON as Go's encoding/json writes it, for the extender's responses (and
// what the tests compare byte for byte): strings escaped as json.Marshal
// escapes them (", \, control characters, and HTML's <, > and & as \u003c,
// \u003e, \u0026, U+2028/U+2029, invalid UTF-8 as \ufffd); and a parsed
// Document value written back as JSON (the Node objects a filter returns when
// the extender is not nodeCacheCapable), keys in input order, scalars as
// written.
#ifndef GPUSCHED_SERVER_GO_JSON_H_
#define GPUSCHED_SERVER_GO_JSON_H_

#include <map>
#include <string>
#include <string_view>

#include "gpusched/io/document.h"

namespace gpusched {

// Appends `s` as a quoted JSON string.
void AppendGoJsonString(std::string& out, std::string_view s);
inline std::string GoJsonString(std::string_view s) {
  std::string out;
  AppendGoJsonString(out, s);
  return out;
}

// Appends a map[string]string as json.Marshal writes it (keys sorted, as
// std::map holds them).
void AppendStringMap(std::string& out, const std::map<std::string, std::string>& m);

// Appends the value at `n` (an undefined node as null).
void AppendDocJson(std::string& out, const DocNode& n);

// Case-insensitive key match as encoding/json matches a struct field name:
// the last entry whose key equals `field` ignoring ASCII case (Go keeps the
// last of several), undefined when there is none.
DocNode GoField(const DocNode& object, std::string_view field);

// "string", "number", "bool", "object", "array" or "null": what Go's
// "json: cannot unmarshal <kind> into ..." calls a JSON value.
const char* GoJsonKind(const DocNode& n);

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_GO_JSON_H_
