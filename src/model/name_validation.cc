// The name checks every validator uses, with upstream's messages:
// DNS-1123 labels and subdomains (k8s.io/apimachinery/pkg/util/validation),
// label keys (qualified names) and label values
// (k8s.io/apimachinery/pkg/api/validate/content). Their regular expressions
// are matched by hand; the patterns are kept for the messages, which quote
// them.
#include "gpusched/model/name_validation.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpusched {
namespace {

// k8s.io/apimachinery/pkg/util/validation/validation.go (DNS names) and
// k8s.io/apimachinery/pkg/api/validate/content (label keys and values, which
// IsQualifiedName and IsValidLabelValue alias since v1.35).
constexpr const char* kDNS1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr const char* kDNS1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character";
constexpr const char* kDNS1123SubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr const char* kDNS1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character";
constexpr const char* kLabelKeyFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr const char* kLabelKeyErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character";
constexpr const char* kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr const char* kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character";
// k8s.io/apimachinery/pkg/api/validate/content/identifier.go.
constexpr const char* kCIdentifierFmt = "[A-Za-z_][A-Za-z0-9_]*";
constexpr const char* kCIdentifierErrMsg =
    "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
    "characters or '_'";
constexpr size_t kLabelKeyMaxLength = 63;
constexpr size_t kLabelValueMaxLength = 63;
constexpr size_t kDNS1123LabelMaxLength = 63;
constexpr size_t kDNS1123SubdomainMaxLength = 253;

// util/validation MaxLenError says "characters"; the content package, used by
// the label-key and label-value checks, says "bytes".
std::string MaxLenError(size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }
std::string ContentMaxLenError(size_t n) { return "must be no more than " + std::to_string(n) + " bytes"; }

// RegexError as upstream writes it, including its double space before "or".
std::string RegexError(const std::string& msg, const std::string& fmt, const std::vector<std::string>& examples) {
  if (examples.empty()) return msg + " (regex used for validation is '" + fmt + "')";
  std::string s = msg + " (e.g. ";
  for (size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) s += " or ";
    s += "'" + examples[i] + "', ";
  }
  return s + "regex used for validation is '" + fmt + "')";
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

bool MatchesDNSLabel(std::string_view v) {
  if (v.empty() || !IsLowerAlnum(v.front()) || !IsLowerAlnum(v.back())) return false;
  for (char c : v)
    if (!IsLowerAlnum(c) && c != '-') return false;
  return true;
}

bool MatchesDNSSubdomain(std::string_view v) {
  size_t start = 0;
  while (true) {
    size_t dot = v.find('.', start);
    if (!MatchesDNSLabel(v.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// labelKeyFmt; labelValueFmt is the same pattern made optional.
bool MatchesLabelKeyName(std::string_view v) {
  if (v.empty() || !IsAlnum(v.front()) || !IsAlnum(v.back())) return false;
  for (char c : v)
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

std::vector<std::string> DNS1123SubdomainErrors(std::string_view value, bool content_package) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1123SubdomainMaxLength)
    errs.push_back(content_package ? ContentMaxLenError(kDNS1123SubdomainMaxLength)
                                   : MaxLenError(kDNS1123SubdomainMaxLength));
  if (!MatchesDNSSubdomain(value))
    errs.push_back(RegexError(kDNS1123SubdomainErrMsg, kDNS1123SubdomainFmt, {"example.com"}));
  return errs;
}

}  // namespace

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDNS1123LabelMaxLength) errs.push_back(MaxLenError(kDNS1123LabelMaxLength));
  if (!MatchesDNSLabel(value)) {
    if (MatchesDNSSubdomain(value)) {
      // A valid subdomain but not a label: since the length was checked, it must be dots.
      errs.push_back("must not contain dots");
    } else {
      errs.push_back(RegexError(kDNS1123LabelErrMsg, kDNS1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  return DNS1123SubdomainErrors(value, /*content_package=*/false);
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  // content.IsLabelKey (what validation.IsQualifiedName is since v1.35).
  std::vector<std::string> errs;
  std::string_view name = value;
  size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a valid label key " + RegexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}) +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const auto& m : DNS1123SubdomainErrors(prefix, /*content_package=*/true)) errs.push_back("prefix part " + m);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kLabelKeyMaxLength) {
    errs.push_back("name part " + ContentMaxLenError(kLabelKeyMaxLength));
  }
  if (!MatchesLabelKeyName(name))
    errs.push_back("name part " + RegexError(kLabelKeyErrMsg, kLabelKeyFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(ContentMaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !MatchesLabelKeyName(value))
    errs.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  return errs;
}

std::vector<std::string> IsCIdentifier(std::string_view value) {
  bool ok = !value.empty() && (IsAlnum(value.front()) || value.front() == '_') &&
            !(value.front() >= '0' && value.front() <= '9');
  for (char c : value) ok = ok && (IsAlnum(c) || c == '_');
  if (ok) return {};
  return {RegexError(kCIdentifierErrMsg, kCIdentifierFmt, {"my_name", "MY_NAME", "MyName"})};
}

}  // namespace gpusched
