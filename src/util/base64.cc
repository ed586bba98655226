#include "gpusched/util/base64.h"

#include <cstdint>

namespace gpusched {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = static_cast<uint8_t>(bytes[i]) << 16 | static_cast<uint8_t>(bytes[i + 1]) << 8 |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text, size_t* bad_at) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int have = 0;     // sextets in acc
  int padding = 0;  // '=' seen
  auto fail = [&](size_t at) -> std::optional<std::string> {
    if (bad_at) *bad_at = at;
    return std::nullopt;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r' || c == '\n') continue;
    if (c == '=') {
      // Padding completes a quantum of 2 or 3 sextets.
      if (have < 2) return fail(i);
      ++padding;
      if (have + padding > 4) return fail(i);
      continue;
    }
    const int v = Value(c);
    if (v < 0 || padding > 0) return fail(i);
    acc = acc << 6 | static_cast<uint32_t>(v);
    if (++have == 4) {
      out += static_cast<char>(acc >> 16);
      out += static_cast<char>((acc >> 8) & 0xFF);
      out += static_cast<char>(acc & 0xFF);
      acc = 0;
      have = 0;
    }
  }
  if (have == 0 && padding == 0) return out;
  if (have + padding != 4) return fail(text.size());
  if (have == 2) {
    out += static_cast<char>(acc >> 4);
  } else if (have == 3) {
    out += static_cast<char>(acc >> 10);
    out += static_cast<char>((acc >> 2) & 0xFF);
  }
  return out;
}

}  // namespace gpusched
