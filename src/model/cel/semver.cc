// Semver parsing and ordering as github.com/blang/semver/v4 (semver.go:
// Parse, NewPRVersion, Compare) does it, with its error texts; the
// normalizing parse is k8s.io/apiserver/pkg/cel/library/semverlib.go
// normalizeAndParse.
#include "gpusched/model/cel/semver.h"

#include <string>
#include <vector>

namespace gpusched::cel {
namespace {

bool ContainsOnlyDigits(std::string_view s) {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool ContainsOnlyAlphanum(std::string_view s) {
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool HasLeadingZeroes(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

// Go's %q for the ASCII-only strings these messages quote in practice;
// other bytes are escaped as \xNN so the message stays printable.
std::string Quote(std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out + "\"";
}

// strconv.ParseUint(s, 10, 64) with its error texts.
Result<uint64_t> ParseUint(std::string_view s) {
  if (s.empty()) return Status::InvalidArgument("strconv.ParseUint: parsing \"\": invalid syntax");
  uint64_t v = 0;
  for (char c : s) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      return Status::InvalidArgument("strconv.ParseUint: parsing " + Quote(s) + ": value out of range");
    v = v * 10 + d;
  }
  return v;
}

std::vector<std::string_view> Split(std::string_view s, char sep, size_t max_parts) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < max_parts) {
    size_t i = s.find(sep);
    if (i == std::string_view::npos) break;
    parts.push_back(s.substr(0, i));
    s = s.substr(i + 1);
  }
  parts.push_back(s);
  return parts;
}

Result<uint64_t> ParseNumber(std::string_view part, const char* which) {
  if (!ContainsOnlyDigits(part))
    return Status::InvalidArgument(std::string("Invalid character(s) found in ") + which + " number " + Quote(part));
  if (HasLeadingZeroes(part)) {
    std::string w = which;
    w[0] = static_cast<char>(w[0] - 'a' + 'A');
    return Status::InvalidArgument(w + " number must not contain leading zeroes " + Quote(part));
  }
  return ParseUint(part);
}

}  // namespace

Result<Semver> Semver::Parse(std::string_view s) {
  if (s.empty()) return Status::InvalidArgument("Version string empty");
  std::vector<std::string_view> parts = Split(s, '.', 3);
  if (parts.size() != 3) return Status::InvalidArgument("No Major.Minor.Patch elements found");
  Semver v;
  Result<uint64_t> major = ParseNumber(parts[0], "major");
  if (!major.ok()) return major.status();
  Result<uint64_t> minor = ParseNumber(parts[1], "minor");
  if (!minor.ok()) return minor.status();
  v.major = *major;
  v.minor = *minor;
  std::string_view patch = parts[2];
  std::vector<std::string_view> build, pre;
  if (size_t b = patch.find('+'); b != std::string_view::npos) {
    build = Split(patch.substr(b + 1), '.', SIZE_MAX);
    patch = patch.substr(0, b);
  }
  if (size_t p = patch.find('-'); p != std::string_view::npos) {
    pre = Split(patch.substr(p + 1), '.', SIZE_MAX);
    patch = patch.substr(0, p);
  }
  Result<uint64_t> patch_number = ParseNumber(patch, "patch");
  if (!patch_number.ok()) return patch_number.status();
  v.patch = *patch_number;
  for (std::string_view p : pre) {
    if (p.empty()) return Status::InvalidArgument("Prerelease is empty");
    PreRelease pr;
    if (ContainsOnlyDigits(p)) {
      if (HasLeadingZeroes(p))
        return Status::InvalidArgument("Numeric PreRelease version must not contain leading zeroes " + Quote(p));
      Result<uint64_t> n = ParseUint(p);
      if (!n.ok()) return n.status();
      pr.numeric = true;
      pr.number = *n;
    } else if (ContainsOnlyAlphanum(p)) {
      pr.text = std::string(p);
    } else {
      return Status::InvalidArgument("Invalid character(s) found in prerelease " + Quote(p));
    }
    v.pre.push_back(std::move(pr));
  }
  for (std::string_view b : build) {
    if (b.empty()) return Status::InvalidArgument("Build meta data is empty");
    if (!ContainsOnlyAlphanum(b))
      return Status::InvalidArgument("Invalid character(s) found in build meta data " + Quote(b));
    v.build.emplace_back(b);
  }
  return v;
}

Result<Semver> Semver::ParseNormalized(std::string_view s) {
  if (!s.empty() && s[0] == 'v') s.remove_prefix(1);
  std::vector<std::string> parts;
  for (std::string_view p : Split(s, '.', 3)) parts.emplace_back(p);
  for (std::string& p : parts) {
    if (p.size() > 1) {
      size_t nz = p.find_first_not_of('0');
      p = nz == std::string::npos ? std::string() : p.substr(nz);
      if (p.empty() || p[0] < '0' || p[0] > '9') p = "0" + p;
    }
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos)
      return Status::InvalidArgument("short version cannot contain PreRelease/Build meta data");
    while (parts.size() < 3) parts.emplace_back("0");
  }
  return Parse(parts[0] + "." + parts[1] + "." + parts[2]);
}

int Semver::Compare(const Semver& o) const {
  auto cmp = [](uint64_t a, uint64_t b) { return a == b ? 0 : (a > b ? 1 : -1); };
  if (int c = cmp(major, o.major)) return c;
  if (int c = cmp(minor, o.minor)) return c;
  if (int c = cmp(patch, o.patch)) return c;
  // A version without pre-release parts ranks above one with them.
  if (pre.empty() && o.pre.empty()) return 0;
  if (pre.empty()) return 1;
  if (o.pre.empty()) return -1;
  size_t i = 0;
  for (; i < pre.size() && i < o.pre.size(); ++i) {
    const PreRelease& a = pre[i];
    const PreRelease& b = o.pre[i];
    if (a.numeric && !b.numeric) return -1;
    if (!a.numeric && b.numeric) return 1;
    int c = a.numeric ? cmp(a.number, b.number) : (a.text == b.text ? 0 : (a.text > b.text ? 1 : -1));
    if (c) return c;
  }
  if (i == pre.size() && i == o.pre.size()) return 0;
  return i == pre.size() ? -1 : 1;
}

std::string Semver::String() const {
  std::string s = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  for (size_t i = 0; i < pre.size(); ++i) {
    s += i == 0 ? "-" : ".";
    s += pre[i].numeric ? std::to_string(pre[i].number) : pre[i].text;
  }
  for (size_t i = 0; i < build.size(); ++i) {
    s += i == 0 ? "+" : ".";
    s += build[i];
  }
  return s;
}

}  // namespace gpusched::cel
