// Go's encoding/json syntax errors for a JSON value simdjson refused, so
// that gpusched says where and why exactly as kubectl would. Private to src/io.
#ifndef GPUSCHED_IO_JSON_SYNTAX_ERROR_H_
#define GPUSCHED_IO_JSON_SYNTAX_ERROR_H_

#include <string>

namespace gpusched {

// Finds the first syntax error in the JSON value at [p, end) the way Go's
// encoding/json scanner (scanner.go) does, with its message ("invalid
// character '}' looking for beginning of object key string", "unexpected
// end of JSON input"). Only run once simdjson has refused a value, to say
// where and why as kubectl would. Returns nullptr when it finds no error.
const char* FirstSyntaxError(const char* p, const char* end, std::string& message);

}  // namespace gpusched

#endif  // GPUSCHED_IO_JSON_SYNTAX_ERROR_H_
