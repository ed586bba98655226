// Base64 (RFC 4648, standard alphabet, padded), as Go's encoding/json reads
// and writes a []byte field and as kubeconfig's *-data fields hold PEM.
#ifndef GPUSCHED_UTIL_BASE64_H_
#define GPUSCHED_UTIL_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

std::string Base64Encode(std::string_view bytes);

// The decoded bytes, or nullopt with `bad_at` set to the offset of the first
// byte that is not valid there (Go's "illegal base64 data at input byte N").
// Line breaks (\r, \n) are skipped, as Go's decoder skips them.
std::optional<std::string> Base64Decode(std::string_view text, size_t* bad_at = nullptr);

}  // namespace gpusched

#endif  // GPUSCHED_UTIL_BASE64_H_
