// What a YAML scalar means to kubectl. kubectl reads YAML with
// sigs.k8s.io/yaml, which decodes it with go-yaml v2 (YAML 1.1) into Go
// values and writes those as JSON before anything looks at the fields. So a
// plain (unquoted) scalar is resolved as go-yaml v2's resolve.go does
// (vendor/gopkg.in/yaml.v2/resolve.go in kubernetes/kubernetes; ported, not
// copied):
//   - ~, null, Null, NULL and the empty scalar are null;
//   - y Y yes Yes YES on On ON true True TRUE are true; n N no No NO off Off
//     OFF false False FALSE are false;
//   - integers as Go's strconv.ParseInt(s, 0, 64) reads them once every '_'
//     is removed: 010 is 8 (octal), 0x1F is 31, 0o17 is 15, 0b101 is 5,
//     +12 is 12, 1_000 is 1000; then ParseUint up to 2^64-1;
//   - floats matching ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
//     (so 08 is the float 8 and 1e3 the float 1000, while 1e400, out of
//     range, stays a string), and .inf, -.Inf, .nan...;
//   - anything else is a string (timestamps too: v2 keeps them as written
//     when decoding into interface{}).
// Quoted and block scalars are strings; explicit tags (!!str, !!int,
// !!float, !!bool, !!null) resolve as that type or fail as go-yaml does
// ("cannot decode !!str `abc` as a !!int"); other tags give strings.
//
// The result is the JSON sigs.k8s.io/yaml writes: ints in decimal, floats as
// Go's encoding/json prints a float64 (1000, 0.5, 1e+21, 1e-7), booleans
// true/false; and map keys as its convertToJSONableObject turns them into
// strings (ints in decimal, floats with strconv.FormatFloat(f, 'g', -1, 32),
// booleans "true"/"false": a key `n:` becomes "false").
#ifndef GPUSCHED_IO_YAML_RESOLVE_H_
#define GPUSCHED_IO_YAML_RESOLVE_H_

#include <string>
#include <string_view>

namespace gpusched {

struct ResolvedScalar {
  enum class Type { kNull, kBool, kInt, kFloat, kString };
  Type type = Type::kString;
  // The JSON text of the value (unquoted for strings); for a float that JSON
  // cannot hold (+Inf, -Inf, NaN), Go's name of it.
  std::string text;
  bool json_ok = true;  // false for +Inf, -Inf, NaN: "json: unsupported value: +Inf"
  std::string error;    // a tag the value cannot have: "cannot decode !!str `abc` as a !!int"
};

// `tag` is the scalar's explicit tag ("" for none, libyaml's long form such
// as "tag:yaml.org,2002:int" otherwise); `plain` says it had no quotes and
// was not a block scalar.
ResolvedScalar ResolveYamlScalar(std::string_view value, std::string_view tag, bool plain);

// The JSON object key sigs.k8s.io/yaml makes of a resolved scalar key, or
// an error ("unsupported map key of type: <nil>") for a null key.
bool YamlKeyToJson(const ResolvedScalar& key, std::string& out, std::string& error);

// Go's strconv.FormatFloat(v, 'g', -1, 32) and encoding/json's float64
// printing, exposed for tests.
std::string FormatFloat32G(double v);
std::string FormatJsonFloat(double v);

}  // namespace gpusched

#endif  // GPUSCHED_IO_YAML_RESOLVE_H_
