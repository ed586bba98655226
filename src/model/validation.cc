#include "gpusched/model/validation.h"

#include <set>

namespace gpusched {
namespace {

// k8s.io/apimachinery/pkg/util/validation/validation.go constants.
constexpr const char* kDNS1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr const char* kDNS1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character";
constexpr const char* kDNS1123SubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr const char* kDNS1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character";
constexpr const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr const char* kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character";
// pkg/apis/core/validation/validation.go
constexpr const char* kIsNegativeErrorMsg = "must be greater than or equal to 0";
constexpr const char* kIsNotIntegerErrorMsg = "must be an integer";

std::string MaxLenError(size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }

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

bool MatchesQualifiedNamePart(std::string_view v) {
  if (v.empty() || !IsAlnum(v.front()) || !IsAlnum(v.back())) return false;
  for (char c : v)
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

std::string Quote(std::string_view s) {
  // Go's %q: printable ASCII as is, with " and \ escaped; other bytes as \xNN.
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out + "\"";
}

void ValidateResourceQuantityValue(std::string_view name, const Quantity& q, const std::string& path,
                                   std::vector<FieldError>& errs) {
  if (q.Sign() < 0) errs.push_back(FieldError::Invalid(path, q.String(), kIsNegativeErrorMsg));
  if (IsIntegerResourceName(name) && q.MilliValue() % 1000 != 0)
    errs.push_back(FieldError::Invalid(path, q.String(), kIsNotIntegerErrorMsg));
}

bool IsStandardResourceName(std::string_view name) {
  static const std::set<std::string, std::less<>> kStandard = {
      "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services", "replicationcontrollers",
      "resourcequotas", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
      "services.nodeports", "services.loadbalancers"};
  return kStandard.count(name) > 0 || IsHugePageResourceName(name) || name.substr(0, 19) == "requests.hugepages-";
}

// validateResourceName: a qualified name; a bare name must be standard.
bool ValidateResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  size_t before = errs.size();
  for (const auto& msg : IsQualifiedName(name)) errs.push_back(FieldError::Invalid(path, name, msg));
  if (errs.size() != before) return false;
  if (name.find('/') == std::string_view::npos && !IsStandardResourceName(name)) {
    errs.push_back(FieldError::Invalid(path, name, "must be a standard resource type or fully qualified"));
    return false;
  }
  return true;
}

void ValidateContainerResourceName(std::string_view name, const std::string& path, std::vector<FieldError>& errs) {
  ValidateResourceName(name, path, errs);
  if (name.find('/') == std::string_view::npos) {
    if (!IsStandardContainerResourceName(name))
      errs.push_back(FieldError::Invalid(path, name, "must be a standard resource for containers"));
  } else if (!IsNativeResource(name) && !IsExtendedResourceName(name)) {
    errs.push_back(FieldError::Invalid(path, name, "doesn't follow extended resource name standard"));
  }
}

// ValidateResourceRequirements, with Go's random map order replaced by sorted order.
void ValidateResources(const Container& c, const std::string& path, std::vector<FieldError>& errs) {
  const std::string lim_path = path + ".limits";
  const std::string req_path = path + ".requests";
  for (const auto& [name, q] : c.limits) {
    std::string p = lim_path + "[" + name + "]";
    ValidateContainerResourceName(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
  }
  for (const auto& [name, q] : c.requests) {
    std::string p = req_path + "[" + name + "]";
    ValidateContainerResourceName(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
    auto lim = c.limits.find(name);
    if (lim != c.limits.end()) {
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
  }
}

void ValidateContainers(const std::vector<Container>& cs, const std::string& path, bool required,
                        std::set<std::string>& all_names, std::vector<FieldError>& errs) {
  if (cs.empty() && required) {
    errs.push_back(FieldError::Required(path, ""));
    return;
  }
  for (size_t i = 0; i < cs.size(); ++i) {
    const Container& c = cs[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    if (c.name.empty()) {
      errs.push_back(FieldError::Required(p + ".name", ""));
    } else {
      for (const auto& msg : IsDNS1123Label(c.name)) errs.push_back(FieldError::Invalid(p + ".name", c.name, msg));
      if (!all_names.insert(c.name).second) errs.push_back(FieldError::Duplicate(p + ".name", c.name));
    }
    if (c.image.empty()) errs.push_back(FieldError::Required(p + ".image", ""));
    ValidateResources(c, p + ".resources", errs);
  }
}

const std::vector<std::string> kTaintEffects = {kTaintEffectNoSchedule, kTaintEffectPreferNoSchedule,
                                                kTaintEffectNoExecute};

}  // namespace

FieldError FieldError::Invalid(std::string field, std::string_view value, std::string detail) {
  return FieldError{Type::kInvalid, std::move(field), Quote(value), std::move(detail)};
}
FieldError FieldError::Required(std::string field, std::string detail) {
  return FieldError{Type::kRequired, std::move(field), "", std::move(detail)};
}
FieldError FieldError::Duplicate(std::string field, std::string_view value) {
  return FieldError{Type::kDuplicate, std::move(field), Quote(value), ""};
}
FieldError FieldError::NotSupported(std::string field, std::string_view value,
                                    const std::vector<std::string>& supported) {
  std::string detail;
  if (!supported.empty()) {
    detail = "supported values: ";
    for (size_t i = 0; i < supported.size(); ++i) detail += (i ? ", " : "") + Quote(supported[i]);
  }
  return FieldError{Type::kNotSupported, std::move(field), Quote(value), std::move(detail)};
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
  }
  if (!detail.empty()) body += ": " + detail;
  return field + ": " + body;
}

std::string InvalidObjectMessage(std::string_view kind, std::string_view name, const std::vector<FieldError>& errors) {
  // field.ErrorList.ToAggregate drops repeated messages; kubectl's
  // MultilineError prints one error inline and several as a "* " list.
  std::vector<std::string> msgs;
  std::set<std::string> seen;
  for (const auto& e : errors) {
    std::string m = e.ToString();
    if (seen.insert(m).second) msgs.push_back(std::move(m));
  }
  std::string s = "The " + std::string(kind) + " " + Quote(name) + " is invalid: ";
  if (msgs.size() == 1) return s + msgs[0];
  for (const auto& m : msgs) s += "\n* " + m;
  return s;
}

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(MaxLenError(63));
  if (!MatchesDNSLabel(value)) {
    if (MatchesDNSSubdomain(value)) {
      errs.push_back("must not contain dots");
    } else {
      errs.push_back(RegexError(kDNS1123LabelErrMsg, kDNS1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back(MaxLenError(253));
  if (!MatchesDNSSubdomain(value))
    errs.push_back(RegexError(kDNS1123SubdomainErrMsg, kDNS1123SubdomainFmt, {"example.com"}));
  return errs;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a qualified name " +
                     RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const auto& m : IsDNS1123Subdomain(prefix)) errs.push_back("prefix part " + m);
    }
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part " + MaxLenError(63));
  }
  if (!MatchesQualifiedNamePart(name))
    errs.push_back("name part " + RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

void DefaultPod(Pod& pod) {
  if (pod.meta.namespace_.empty()) pod.meta.namespace_ = kDefaultNamespace;
  auto default_requests = [](std::vector<Container>& cs) {
    for (auto& c : cs)
      for (const auto& [name, q] : c.limits)
        if (!c.requests.count(name)) c.requests.emplace(name, q);
  };
  default_requests(pod.containers);
  default_requests(pod.init_containers);
}

std::vector<FieldError> ValidatePod(const Pod& pod, std::string_view spec_path, bool validate_meta) {
  std::vector<FieldError> errs;
  if (validate_meta) {
    // ValidateObjectMeta with ValidatePodName = NameIsDNSSubdomain.
    if (pod.meta.name.empty()) {
      errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
    } else {
      for (const auto& m : IsDNS1123Subdomain(pod.meta.name))
        errs.push_back(FieldError::Invalid("metadata.name", pod.meta.name, m));
    }
    for (const auto& m : IsDNS1123Label(pod.meta.namespace_))
      errs.push_back(FieldError::Invalid("metadata.namespace", pod.meta.namespace_, m));
  }
  const std::string spec(spec_path);
  std::set<std::string> names;
  ValidateContainers(pod.containers, spec + ".containers", true, names, errs);
  ValidateContainers(pod.init_containers, spec + ".initContainers", false, names, errs);
  for (const auto& [name, q] : pod.overhead) {
    std::string p = spec + ".overhead[" + name + "]";
    ValidateResourceName(name, p, errs);
    ValidateResourceQuantityValue(name, q, p, errs);
  }
  for (size_t i = 0; i < pod.tolerations.size(); ++i) {
    const Toleration& t = pod.tolerations[i];
    const std::string p = spec + ".tolerations[" + std::to_string(i) + "]";
    if (!t.key.empty())
      for (const auto& m : IsQualifiedName(t.key)) errs.push_back(FieldError::Invalid(p + ".key", t.key, m));
    // validateTolerations: an empty key only makes sense with Exists (match all).
    if (t.key.empty() && t.op != "Exists")
      errs.push_back(FieldError::Invalid(p + ".operator", t.op,
                                         "operator must be Exists when `key` is empty, which means \"match all "
                                         "values and all keys\""));
    if (t.op == "Exists") {
      if (!t.value.empty())
        errs.push_back(FieldError::Invalid(p + ".operator", t.value,
                                           "value must be empty when `operator` is 'Exists'"));
    } else if (t.op != "Equal" && !t.op.empty()) {
      errs.push_back(FieldError::NotSupported(p + ".operator", t.op, {"Equal", "Exists"}));
    }
    if (!t.effect.empty() && t.effect != kTaintEffectNoSchedule && t.effect != kTaintEffectPreferNoSchedule &&
        t.effect != kTaintEffectNoExecute)
      errs.push_back(FieldError::NotSupported(p + ".effect", t.effect, kTaintEffects));
  }
  if (!pod.preemption_policy.empty() && pod.preemption_policy != "Never" &&
      pod.preemption_policy != "PreemptLowerPriority")
    errs.push_back(FieldError::NotSupported(spec + ".preemptionPolicy", pod.preemption_policy,
                                            {"Never", "PreemptLowerPriority"}));
  return errs;
}

std::vector<FieldError> ValidateNode(const Node& node) {
  std::vector<FieldError> errs;
  if (node.meta.name.empty()) {
    errs.push_back(FieldError::Required("metadata.name", "name or generateName is required"));
  } else {
    for (const auto& m : IsDNS1123Subdomain(node.meta.name))
      errs.push_back(FieldError::Invalid("metadata.name", node.meta.name, m));
  }
  for (size_t i = 0; i < node.taints.size(); ++i) {
    const Taint& t = node.taints[i];
    const std::string p = "spec.taints[" + std::to_string(i) + "]";
    if (t.key.empty()) {
      errs.push_back(FieldError::Required(p + ".key", ""));
    } else {
      for (const auto& m : IsQualifiedName(t.key)) errs.push_back(FieldError::Invalid(p + ".key", t.key, m));
    }
    if (t.effect.empty()) {
      errs.push_back(FieldError::Required(p + ".effect", ""));
    } else if (t.effect != kTaintEffectNoSchedule && t.effect != kTaintEffectPreferNoSchedule &&
               t.effect != kTaintEffectNoExecute) {
      errs.push_back(FieldError::NotSupported(p + ".effect", t.effect, kTaintEffects));
    }
  }
  auto check_list = [&](const ResourceList& list, const std::string& path) {
    for (const auto& [name, q] : list) {
      std::string p = path + "[" + name + "]";
      ValidateResourceName(name, p, errs);
      ValidateResourceQuantityValue(name, q, p, errs);
    }
  };
  check_list(node.capacity, "status.capacity");
  check_list(node.allocatable, "status.allocatable");
  return errs;
}

}  // namespace gpusched
