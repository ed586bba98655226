#include "gpusched/model/validation.h"

#include "gpusched/model/gang.h"
#include "gpusched/model/pod_level_resources.h"
#include "gpusched/model/resource_claims.h"
#include "gpusched/model/scheduling_gates.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "gpusched/model/gpu_request.h"

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
constexpr size_t kLabelKeyMaxLength = 63;
constexpr size_t kLabelValueMaxLength = 63;
constexpr size_t kDNS1123LabelMaxLength = 63;
constexpr size_t kDNS1123SubdomainMaxLength = 253;
// k8s.io/apimachinery/pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB.
constexpr int64_t kTotalAnnotationSizeLimitB = 256 * (1 << 10);

// pkg/apis/core/validation/validation.go
constexpr const char* kIsNegativeErrorMsg = "must be greater than or equal to 0";
constexpr const char* kIsNotIntegerErrorMsg = "must be an integer";

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

// Decodes one UTF-8 sequence at s[i]; returns the code point and sets `len`,
// or returns -1 (len = 1) for an invalid byte, as Go's utf8.DecodeRuneInString.
int32_t DecodeRune(std::string_view s, size_t i, size_t& len) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  len = 1;
  if (c < 0x80) return c;
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return -1;
  int32_t r = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return -1;
    r = (r << 6) | (b(k) & 0x3F);
  }
  if ((n == 3 && (r < 0x800 || (r >= 0xD800 && r <= 0xDFFF))) || (n == 4 && (r < 0x10000 || r > 0x10FFFF)))
    return -1;
  len = n;
  return r;
}

// An approximation of Go's unicode.IsPrint for non-ASCII code points: the
// C1 controls, the non-ASCII spaces (Zs), the line/paragraph separators and
// the common format characters (Cf) are not printable; everything else is.
bool IsPrintNonAscii(int32_t r) {
  if (r >= 0x80 && r <= 0xA0) return false;
  switch (r) {
    case 0xAD: case 0x1680: case 0x202F: case 0x205F: case 0x3000: case 0xFEFF: return false;
    default: break;
  }
  if ((r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202E) || (r >= 0x2060 && r <= 0x2064)) return false;
  if ((r >= 0xFFF9 && r <= 0xFFFB) || r == 0xFFFE || r == 0xFFFF) return false;
  return true;
}

constexpr const char* kHex = "0123456789abcdef";

void AppendHex(std::string& out, uint32_t v, int digits) {
  for (int d = digits - 1; d >= 0; --d) out += kHex[(v >> (4 * d)) & 15];
}

// A field.Error whose BadValue upstream is not a plain Go string (a
// ResourceName, an enum type, a Quantity, a struct): rendered with JSON.
FieldError InvalidJson(std::string field, std::string_view value, std::string detail) {
  return FieldError{FieldError::Type::kInvalid, std::move(field), JsonQuote(value), std::move(detail)};
}
FieldError NotSupportedJson(std::string field, std::string_view value, const std::vector<std::string>& supported) {
  FieldError e = FieldError::NotSupported(std::move(field), value, supported);
  e.value = JsonQuote(value);
  return e;
}

bool IsStandardResourceName(std::string_view name) {
  static const std::set<std::string, std::less<>> kStandard = {
      "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services", "replicationcontrollers",
      "resourcequotas", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
      "services.nodeports", "services.loadbalancers"};
  // IsQuotaHugePageResourceName: "hugepages-" or "requests.hugepages-".
  return kStandard.count(name) > 0 || IsHugePageResourceName(name) || name.substr(0, 19) == "requests.hugepages-";
}

// ValidateResourceQuantityValue.
void ValidateResourceQuantityValue(std::string_view name, const Quantity& q, const std::string& path,
                                   std::vector<FieldError>& errs) {
  // ValidateNonnegativeQuantity passes value.String(), a Go string.
  if (q.Sign() < 0) errs.push_back(FieldError::Invalid(path, q.String(), kIsNegativeErrorMsg));
  // The integer check passes the Quantity itself, which marshals to "<q>".
  if (IsIntegerResourceName(name) && q.MilliValue() % 1000 != 0)
    errs.push_back(InvalidJson(path, q.String(), kIsNotIntegerErrorMsg));
}

// validateResourceName: a qualified name; a bare name must be standard.
void ValidateResourceNameImpl(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  size_t before = errs.size();
  for (const auto& msg : IsQualifiedName(name)) errs.push_back(InvalidJson(path, name, msg));
  if (errs.size() != before) return;
  if (name.find('/') == std::string_view::npos && !IsStandardResourceName(name))
    errs.push_back(InvalidJson(path, name, "must be a standard resource type or fully qualified"));
}

// validateContainerResourceName.
void ValidateContainerResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  ValidateResourceNameImpl(name, path, errs);
  if (name.find('/') == std::string_view::npos) {
    if (!IsStandardContainerResourceName(name))
      errs.push_back(InvalidJson(path, name, "must be a standard resource for containers"));
  } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
    errs.push_back(InvalidJson(path, name, "doesn't follow extended resource name standard"));
  }
}

// helper.IsHugePageResourceValueDivisible.
bool IsHugePageResourceValueDivisible(std::string_view name, const Quantity& q) {
  Result<Quantity> page = Quantity::Parse(name.substr(std::string_view("hugepages-").size()));
  if (!page.ok()) return false;
  if (page->Sign() <= 0 || page->MilliValue() % 1000 != 0) return false;
  return q.Value() % page->Value() == 0;
}

}  // namespace

// validateResourceRequirements, with Go's random map order replaced by sorted
// order (std::map). `name_fn` is validateContainerResourceName for containers
// and overhead, validatePodResourceName for pod-level resources.
void ValidateResourceRequirementsWith(const ResourceList& limits, const ResourceList& requests,
                                      const std::string& path, ResourceNameValidator name_fn,
                                      std::vector<FieldError>& errs) {
  const std::string lim_path = path + ".limits";
  const std::string req_path = path + ".requests";
  bool lim_cpu_or_memory = false, req_cpu_or_memory = false, lim_hugepages = false, req_hugepages = false;
  auto hugepages = [&](const std::string& name, const Quantity& q, const std::string& p, bool& seen) {
    if (!IsHugePageResourceName(name)) return;
    seen = true;
    if (!IsHugePageResourceValueDivisible(name, q))
      errs.push_back(FieldError::Invalid(p, q.String(), q.String() + " is not positive integer multiple of " + name));
  };
  for (const auto& [name, q] : limits) {
    std::string p = lim_path + "[" + name + "]";
    name_fn(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
    hugepages(name, q, p, lim_hugepages);
    if (name == kResourceCPU || name == kResourceMemory) lim_cpu_or_memory = true;
  }
  for (const auto& [name, q] : requests) {
    std::string p = req_path + "[" + name + "]";
    name_fn(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
    auto lim = limits.find(name);
    if (lim != limits.end()) {
      // For non overcommitable resources requests must equal limits.
      if (q != lim->second && !IsOvercommitAllowed(name)) {
        errs.push_back(FieldError::Invalid(req_path, q.String(),
                                           "must be equal to " + name + " limit of " + lim->second.String()));
      } else if (q > lim->second) {
        errs.push_back(FieldError::Invalid(
            req_path, q.String(), "must be less than or equal to " + name + " limit of " + lim->second.String()));
      }
    } else if (!IsOvercommitAllowed(name)) {
      errs.push_back(FieldError::Required(lim_path, "Limit must be set for non overcommitable resources"));
    }
    hugepages(name, q, p, req_hugepages);
    if (name == kResourceCPU || name == kResourceMemory) req_cpu_or_memory = true;
  }
  if (!lim_cpu_or_memory && !req_cpu_or_memory && (req_hugepages || lim_hugepages))
    errs.push_back(FieldError::Forbidden(path, "HugePages require cpu or memory"));
}

namespace {

void ValidateResourceRequirements(const ResourceList& limits, const ResourceList& requests, const std::string& path,
                                  std::vector<FieldError>& errs) {
  ValidateResourceRequirementsWith(limits, requests, path, ValidateContainerResourceName, errs);
}

// validateContainerCommon, reduced to the fields the model keeps.
void ValidateContainerCommon(const Container& c, const std::string& p, std::vector<FieldError>& errs) {
  if (c.name.empty()) {
    errs.push_back(FieldError::Required(p + ".name", ""));
  } else {
    for (const auto& msg : IsDNS1123Label(c.name)) errs.push_back(FieldError::Invalid(p + ".name", c.name, msg));
  }
  if (c.image.empty()) errs.push_back(FieldError::Required(p + ".image", ""));
  ValidateResourceRequirements(c.limits, c.requests, p + ".resources", errs);
}

// validateContainers. An empty restart_policy stands for an unset one.
void ValidateContainers(const std::vector<Container>& cs, const std::string& path, std::vector<FieldError>& errs) {
  if (cs.empty()) {
    errs.push_back(FieldError::Required(path, ""));
    return;
  }
  std::set<std::string> all_names;
  for (size_t i = 0; i < cs.size(); ++i) {
    const Container& c = cs[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ValidateContainerCommon(c, p, errs);
    if (!all_names.insert(c.name).second) errs.push_back(FieldError::Duplicate(p + ".name", c.name));
    if (!c.restart_policy.empty())
      errs.push_back(FieldError::Forbidden(p + ".restartPolicy", "may not be set for non-init containers"));
  }
}

// validateInitContainers: names must be unique across regular and init containers.
void ValidateInitContainers(const std::vector<Container>& cs, const std::vector<Container>& regular,
                            const std::string& path, std::vector<FieldError>& errs) {
  std::set<std::string> all_names;
  for (const auto& c : regular) all_names.insert(c.name);
  for (size_t i = 0; i < cs.size(); ++i) {
    const Container& c = cs[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    ValidateContainerCommon(c, p, errs);
    if (!c.restart_policy.empty() && c.restart_policy != "Always")
      errs.push_back(NotSupportedJson(p + ".restartPolicy", c.restart_policy, {"Always"}));
    if (all_names.count(c.name)) {
      errs.push_back(FieldError::Duplicate(p + ".name", c.name));
    } else if (!c.name.empty()) {
      all_names.insert(c.name);
    }
  }
}

// validateContainersOnlyForPod.
void ValidateContainersOnlyForPod(const std::vector<Container>& cs, const std::string& path,
                                  std::vector<FieldError>& errs) {
  auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'; };
  for (size_t i = 0; i < cs.size(); ++i) {
    const std::string& img = cs[i].image;
    if (!img.empty() && (space(img.front()) || space(img.back())))
      errs.push_back(FieldError::Invalid(path + "[" + std::to_string(i) + "].image", img,
                                         "must not have leading or trailing whitespace"));
  }
}

const std::vector<std::string> kTaintEffects = {kTaintEffectNoSchedule, kTaintEffectPreferNoSchedule,
                                                kTaintEffectNoExecute};
bool IsTaintEffect(const std::string& e) {
  return e == kTaintEffectNoSchedule || e == kTaintEffectPreferNoSchedule || e == kTaintEffectNoExecute;
}

// unversionedvalidation.ValidateLabelName.
void ValidateLabelName(const std::string& key, const std::string& path, std::vector<FieldError>& errs) {
  for (const auto& msg : IsQualifiedName(key)) errs.push_back(FieldError::Invalid(path, key, msg));
}

// unversionedvalidation.ValidateLabels: every error is reported at the map's
// own path, without the key.
void ValidateLabels(const std::map<std::string, std::string, std::less<>>& labels, const std::string& path,
                    std::vector<FieldError>& errs) {
  for (const auto& [k, v] : labels) {
    ValidateLabelName(k, path, errs);
    for (const auto& msg : IsValidLabelValue(v)) errs.push_back(FieldError::Invalid(path, v, msg));
  }
}

// apimachinery ValidateAnnotations: keys are qualified names, compared in lower case.
void ValidateAnnotations(const std::map<std::string, std::string, std::less<>>& annotations, const std::string& path,
                         std::vector<FieldError>& errs) {
  int64_t total = 0;
  for (const auto& [k, v] : annotations) {
    std::string lower = k;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : static_cast<char>(c); });
    for (const auto& msg : IsQualifiedName(lower)) errs.push_back(FieldError::Invalid(path, k, msg));
    total += static_cast<int64_t>(k.size() + v.size());
  }
  if (total > kTotalAnnotationSizeLimitB) errs.push_back(FieldError::TooLong(path, kTotalAnnotationSizeLimitB));
}

// apimachinery NameIsDNSSubdomain with prefix=true masks a trailing dash
// (maskTrailingDash, which really drops the last two characters).
std::string MaskTrailingDash(const std::string& name) {
  if (name.size() > 1 && name.back() == '-') return name.substr(0, name.size() - 2) + "a";
  return name;
}

// apimachinery ValidateObjectMeta (ValidateObjectMetaAccessor) for names that
// must be DNS subdomains (Pods and Nodes).
void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, std::vector<FieldError>& errs) {
  if (!meta.generate_name.empty())
    for (const auto& m : IsDNS1123Subdomain(MaskTrailingDash(meta.generate_name)))
      errs.push_back(FieldError::Invalid("metadata.generateName", meta.generate_name, m));
  if (meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(meta.name)) errs.push_back(FieldError::Invalid("metadata.name", meta.name, m));
  }
  if (namespaced) {
    if (meta.namespace_.empty()) {
      errs.push_back(FieldError::Required("metadata.namespace", ""));
    } else {
      for (const auto& m : IsDNS1123Label(meta.namespace_))
        errs.push_back(FieldError::Invalid("metadata.namespace", meta.namespace_, m));
    }
  } else if (!meta.namespace_.empty()) {
    errs.push_back(FieldError::Forbidden("metadata.namespace", "not allowed on this type"));
  }
  ValidateLabels(meta.labels, "metadata.labels", errs);
  ValidateAnnotations(meta.annotations, "metadata.annotations", errs);
}

// The internal core.Taint as encoding/json renders it (the internal type has
// no json tags, so the Go field names are used).
std::string TaintJson(const Taint& t) {
  return "{\"Key\":" + JsonQuote(t.key) + ",\"Value\":" + JsonQuote(t.value) + ",\"Effect\":" + JsonQuote(t.effect) +
         ",\"TimeAdded\":null}";
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? std::string(sep) : "") + parts[i];
  return s;
}

// The loop GoQuote and JsonQuote share: `s` rune by rune (an invalid byte as
// rune -1, one byte long), each one's escaped form appended by `escape`
// (out, rune, its bytes), the whole in double quotes.
template <typename Escape>
std::string QuoteRunes(std::string_view s, const Escape& escape) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    size_t len;
    const int32_t r = DecodeRune(s, i, len);
    escape(out, r, s.substr(i, len));
    i += len;
  }
  return out + "\"";
}

}  // namespace

std::string GoQuote(std::string_view s) {
  // strconv.Quote: printable runes as they are, \" and \\ escaped, the short
  // escapes for \a\b\f\n\r\t\v, \xNN for other ASCII controls and invalid
  // bytes, \uNNNN / \UNNNNNNNN for other non-printable runes.
  return QuoteRunes(s, [](std::string& out, int32_t r, std::string_view bytes) {
    if (r < 0) {
      out += "\\x";
      AppendHex(out, static_cast<unsigned char>(bytes.front()), 2);
    } else if (r == '"' || r == '\\') {
      out += '\\';
      out += static_cast<char>(r);
    } else if (r >= 0x20 && r < 0x7f) {
      out += static_cast<char>(r);
    } else if (r >= 0x80 && IsPrintNonAscii(r)) {
      out.append(bytes);
    } else {
      switch (r) {
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        default:
          if (r < 0x80) {
            out += "\\x";
            AppendHex(out, static_cast<uint32_t>(r), 2);
          } else if (r < 0x10000) {
            out += "\\u";
            AppendHex(out, static_cast<uint32_t>(r), 4);
          } else {
            out += "\\U";
            AppendHex(out, static_cast<uint32_t>(r), 8);
          }
      }
    }
  });
}

std::string JsonQuote(std::string_view s) {
  // encoding/json with HTML escaping (json.Marshal's default): \" \\ and the
  // short escapes \b\f\n\r\t, \u00NN for other controls and for < > &,
  // \ufffd for invalid UTF-8, \u2028 and \u2029; everything else as it is.
  return QuoteRunes(s, [](std::string& out, int32_t r, std::string_view bytes) {
    if (r < 0) {
      out += "\\ufffd";
    } else if (r == '"' || r == '\\') {
      out += '\\';
      out += static_cast<char>(r);
    } else if (r == '\b') {
      out += "\\b";
    } else if (r == '\f') {
      out += "\\f";
    } else if (r == '\n') {
      out += "\\n";
    } else if (r == '\r') {
      out += "\\r";
    } else if (r == '\t') {
      out += "\\t";
    } else if (r < 0x20 || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029) {
      out += "\\u";
      AppendHex(out, static_cast<uint32_t>(r), 4);
    } else {
      out.append(bytes);
    }
  });
}

FieldError FieldError::Invalid(std::string field, std::string_view value, std::string detail) {
  return FieldError{Type::kInvalid, std::move(field), GoQuote(value), std::move(detail)};
}
FieldError FieldError::Required(std::string field, std::string detail) {
  return FieldError{Type::kRequired, std::move(field), "", std::move(detail)};
}
FieldError FieldError::Duplicate(std::string field, std::string_view value) {
  return FieldError{Type::kDuplicate, std::move(field), GoQuote(value), ""};
}
FieldError FieldError::NotSupported(std::string field, std::string_view value,
                                    const std::vector<std::string>& supported) {
  std::string detail;
  if (!supported.empty()) {
    detail = "supported values: ";
    for (size_t i = 0; i < supported.size(); ++i) detail += (i ? ", " : "") + GoQuote(supported[i]);
  }
  return FieldError{Type::kNotSupported, std::move(field), GoQuote(value), std::move(detail)};
}
FieldError FieldError::Forbidden(std::string field, std::string detail) {
  return FieldError{Type::kForbidden, std::move(field), "", std::move(detail)};
}
FieldError FieldError::TooLong(std::string field, int64_t max_bytes) {
  std::string detail = max_bytes >= 0 ? "may not be more than " + std::to_string(max_bytes) +
                                            (max_bytes == 1 ? " byte" : " bytes")
                                      : "value is too long";
  return FieldError{Type::kTooLong, std::move(field), "", std::move(detail)};
}

FieldError FieldError::TooMany(std::string field, int64_t actual, int64_t max_items) {
  return FieldError{Type::kTooMany, std::move(field), std::to_string(actual),
                    "must have at most " + std::to_string(max_items) + (max_items == 1 ? " item" : " items")};
}

std::string FieldError::ToString() const {
  std::string body;
  switch (type) {
    case Type::kInvalid: body = "Invalid value: " + value; break;
    case Type::kDuplicate: body = "Duplicate value: " + value; break;
    case Type::kNotSupported: body = "Unsupported value: " + value; break;
    case Type::kRequired: body = "Required value"; break;
    case Type::kForbidden: body = "Forbidden"; break;
    case Type::kTooLong: body = "Too long"; break;
    case Type::kNotFound: body = "Not found: " + value; break;
    case Type::kTooMany: body = "Too many: " + value; break;
  }
  if (!detail.empty()) body += ": " + detail;
  return field + ": " + body;
}

std::string InvalidObjectMessage(std::string_view kind, std::string_view name, const std::vector<FieldError>& errors) {
  // kubectl's statusCausesToAggrError drops repeated "<field>: <message>"
  // causes; MultilineError prints one error inline and several as a "* " list.
  std::vector<std::string> msgs;
  std::set<std::string> seen;
  for (const auto& e : errors) {
    std::string m = e.ToString();
    if (seen.insert(m).second) msgs.push_back(std::move(m));
  }
  std::string s = "The " + std::string(kind) + " " + GoQuote(name) + " is invalid: ";
  if (msgs.size() == 1) return s + msgs[0];
  for (const auto& m : msgs) s += "\n* " + m;
  return s;
}

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

void DefaultPod(Pod& pod) {
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  // SetDefaults_Pod: a limit with no request becomes the request, for
  // containers and init containers.
  auto default_requests = [](std::vector<Container>& cs) {
    for (auto& c : cs)
      for (const auto& [name, q] : c.limits)
        if (!c.requests.count(name)) c.requests.emplace(name, q);
  };
  default_requests(pod.containers);
  default_requests(pod.init_containers);
  // Pod-level defaults come after the containers' (SetDefaults_Pod).
  DefaultPodLevelResources(pod);
}

std::vector<FieldError> ValidatePod(const Pod& pod, std::string_view spec_path, bool validate_meta) {
  // validatePodMetadataAndSpec: ValidateObjectMeta, then ValidatePodSpec in
  // upstream's field order (for the fields the model keeps), then the checks
  // made only for Pods, not for pod templates.
  std::vector<FieldError> errs;
  if (validate_meta) ValidateObjectMeta(pod.meta, /*namespaced=*/true, errs);
  const std::string spec(spec_path);
  // ValidatePodSpec's order: resource claims, containers, init containers,
  // pod-level resources (validatePodResources).
  ValidatePodResourceClaims(pod, spec, errs);
  ValidateContainers(pod.containers, spec + ".containers", errs);
  ValidateInitContainers(pod.init_containers, pod.containers, spec + ".initContainers", errs);
  ValidatePodLevelResources(pod, spec + ".resources", errs);
  ValidateLabels(pod.node_selector, spec + ".nodeSelector", errs);
  if (!pod.node_name.empty())
    for (const auto& m : IsDNS1123Subdomain(pod.node_name))
      errs.push_back(FieldError::Invalid(spec + ".nodeName", pod.node_name, m));
  // ValidateTolerations.
  for (size_t i = 0; i < pod.tolerations.size(); ++i) {
    const Toleration& t = pod.tolerations[i];
    const std::string p = spec + ".tolerations[" + std::to_string(i) + "]";
    if (!t.key.empty()) ValidateLabelName(t.key, p + ".key", errs);
    // An empty key only makes sense with Exists ("match all").
    if (t.key.empty() && t.op != "Exists")
      errs.push_back(InvalidJson(p + ".operator", t.op,
                                 "operator must be Exists when `key` is empty, which means \"match all values and "
                                 "all keys\""));
    if (t.op.empty() || t.op == "Equal") {
      std::vector<std::string> v = IsValidLabelValue(t.value);
      if (!v.empty()) errs.push_back(FieldError::Invalid(p + ".operator", t.value, Join(v, ";")));
    } else if (t.op == "Exists") {
      if (!t.value.empty())
        errs.push_back(FieldError::Invalid(p + ".operator", t.value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push_back(NotSupportedJson(p + ".operator", t.op, {"Equal", "Exists"}));
    }
    if (!t.effect.empty() && !IsTaintEffect(t.effect))
      errs.push_back(NotSupportedJson(p + ".effect", t.effect, kTaintEffects));
  }
  if (pod.node_affinity) ValidateNodeAffinity(*pod.node_affinity, spec + ".affinity.nodeAffinity", errs);
  ValidateSchedulingGates(pod.Extras().scheduling_gates, spec + ".schedulingGates", errs);
  ValidateGangPodFields(pod, spec, errs);  // issue 16: workloadRef, schedulingGroup
  if (!pod.priority_class_name.empty())
    for (const auto& m : IsDNS1123Subdomain(pod.priority_class_name))
      errs.push_back(FieldError::Invalid(spec + ".priorityClassName", pod.priority_class_name, m));
  if (!pod.preemption_policy.empty() && pod.preemption_policy != "Never" &&
      pod.preemption_policy != "PreemptLowerPriority")
    errs.push_back(NotSupportedJson(spec + ".preemptionPolicy", pod.preemption_policy, {"PreemptLowerPriority", "Never"}));
  // validateOverhead reuses the container resource-requirements checks on
  // ResourceRequirements{Limits: overhead}.
  if (!pod.overhead.empty()) ValidateResourceRequirements(pod.overhead, {}, spec + ".overhead", errs);
  // gpusched's own check (not the API server's): GPU-share annotations must
  // be well formed, since a scheduler reads them as a request.
  std::string meta = spec.size() >= 4 && spec.compare(spec.size() - 4, 4, "spec") == 0
                         ? spec.substr(0, spec.size() - 4) + "metadata"
                         : "metadata";
  for (FieldError& e : ValidateGpuAnnotations(pod, meta)) errs.push_back(std::move(e));
  if (validate_meta) {
    ValidateContainersOnlyForPod(pod.containers, spec + ".containers", errs);
    ValidateContainersOnlyForPod(pod.init_containers, spec + ".initContainers", errs);
    ValidateGatedNodeName(pod, spec, errs);  // ValidatePodCreate
  }
  return errs;
}

std::vector<FieldError> ValidateNode(const Node& node) {
  std::vector<FieldError> errs;
  ValidateObjectMeta(node.meta, /*namespaced=*/false, errs);
  // validateNodeTaints. Upstream passes fldPath "metadata" + "taints", so
  // the errors read metadata.taints[i], not spec.taints[i].
  std::map<std::string, std::set<std::string>> unique;  // effect -> keys
  for (size_t i = 0; i < node.taints.size(); ++i) {
    const Taint& t = node.taints[i];
    const std::string p = "metadata.taints[" + std::to_string(i) + "]";
    ValidateLabelName(t.key, p + ".key", errs);
    std::vector<std::string> v = IsValidLabelValue(t.value);
    if (!v.empty()) errs.push_back(FieldError::Invalid(p + ".value", t.value, Join(v, ";")));
    if (t.effect.empty()) {
      errs.push_back(FieldError::Required(p + ".effect", ""));
    } else if (!IsTaintEffect(t.effect)) {
      errs.push_back(NotSupportedJson(p + ".effect", t.effect, kTaintEffects));
    }
    if (!unique[t.effect].insert(t.key).second)
      errs.push_back(FieldError{FieldError::Type::kDuplicate, p, TaintJson(t),
                                "taints must be unique by key and effect pair"});
  }
  // ValidateNodeResources: quantities only, at field.NewPath("status",
  // "capacity", name) -- a child, not a [key]. Allocatable is checked after
  // defaulting, so a node without one checks its capacity twice.
  for (const auto& [name, q] : node.capacity) ValidateResourceQuantityValue(name, q, "status.capacity." + name, errs);
  for (const auto& [name, q] : node.EffectiveAllocatable())
    ValidateResourceQuantityValue(name, q, "status.allocatable." + name, errs);
  return errs;
}

void ValidateResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  ValidateResourceNameImpl(name, path, errs);
}

}  // namespace gpusched
