#include "gpusched/model/resource_claims.h"

#include <algorithm>

#include "gpusched/util/plural.h"

namespace gpusched {
namespace {

// How field.Invalid renders a core.PodResourceClaim: encoding/json with the
// API's tags (nil pointers omitted).
std::string ClaimJson(const PodResourceClaim& c) {
  std::string s = "{\"name\":" + JsonQuote(c.name);
  if (!c.resource_claim_name.empty()) s += ",\"resourceClaimName\":" + JsonQuote(c.resource_claim_name);
  if (!c.resource_claim_template_name.empty())
    s += ",\"resourceClaimTemplateName\":" + JsonQuote(c.resource_claim_template_name);
  return s + "}";
}

// validateResourceClaimNames for one container's resources.claims.
void ValidateContainerClaims(const std::vector<ContainerClaim>& claims, const std::set<std::string>& pod_claims,
                             const std::string& path, std::vector<FieldError>& errs) {
  std::set<std::string> names;
  for (size_t i = 0; i < claims.size(); ++i) {
    const ContainerClaim& c = claims[i];
    const std::string p = path + "[" + std::to_string(i) + "]";
    if (c.name.empty()) {
      errs.push_back(FieldError::Required(p, ""));
      continue;
    }
    if (names.count(c.name)) {
      // All requests of that claim already referenced.
      errs.push_back(FieldError::Duplicate(p, c.name));
    } else {
      std::string key = c.name;
      if (!c.request.empty()) {
        for (const auto& m : IsDNS1123Label(c.request))
          errs.push_back(FieldError::Invalid(p + ".request", c.request, m));
        key += "/" + c.request;
      }
      if (names.count(key)) {
        errs.push_back(FieldError::Duplicate(p, key));
      } else if (c.request.empty()) {
        // A whole claim after one of its requests overlaps it.
        for (const std::string& k : names) {
          size_t slash = k.find('/');
          if (slash != std::string::npos && k.substr(0, slash) == c.name)
            errs.push_back(FieldError::Duplicate(p, c.name));
        }
      }
      names.insert(key);
    }
    if (!pod_claims.count(c.name)) {
      // field.NotFound with an explanation.
      FieldError e{FieldError::Type::kNotFound, p, GoQuote(c.name),
                   "must be one of the names in pod.spec.resourceClaims"};
      if (pod_claims.empty()) {
        e.detail += " which is empty";
      } else {
        std::string list;
        for (const std::string& n : pod_claims) list += (list.empty() ? "" : ", ") + n;
        e.detail += ": " + list;
      }
      errs.push_back(std::move(e));
    }
  }
}

}  // namespace

std::string DraObjects::Summary() const {
  std::vector<std::string> parts;
  if (!claims.empty()) parts.push_back(Plural(static_cast<int64_t>(claims.size()), "ResourceClaim", "ResourceClaims"));
  if (!templates.empty())
    parts.push_back(Plural(static_cast<int64_t>(templates.size()), "ResourceClaimTemplate", "ResourceClaimTemplates"));
  if (!slices.empty()) {
    // Devices and nodes per driver, drivers in name order.
    std::map<std::string, std::pair<int64_t, std::set<std::string>>> by_driver;
    for (const ResourceSlice& s : slices) {
      auto& [devices, nodes] = by_driver[s.driver];
      devices += static_cast<int64_t>(s.devices.size());
      if (!s.node_name.empty()) nodes.insert(s.node_name);
    }
    std::string detail;
    for (const auto& [driver, dn] : by_driver) {
      detail += (detail.empty() ? "" : "; ") + (driver.empty() ? std::string("no driver") : driver) + ": " +
                Plural(dn.first, "device", "devices") + " on " +
                Plural(static_cast<int64_t>(dn.second.size()), "node", "nodes");
    }
    parts.push_back(Plural(static_cast<int64_t>(slices.size()), "ResourceSlice", "ResourceSlices") + " (" + detail +
                    ")");
  }
  if (!device_classes.empty())
    parts.push_back(Plural(static_cast<int64_t>(device_classes.size()), "DeviceClass", "DeviceClasses"));
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

void DraObjects::Merge(DraObjects&& other) {
  for (auto& [k, c] : other.claims) claims.emplace(k, std::move(c));
  for (auto& [k, t] : other.templates) templates.emplace(k, std::move(t));
  for (auto& [k, c] : other.device_classes) device_classes.emplace(k, std::move(c));
  for (ResourceSlice& s : other.slices) {
    bool seen = false;
    for (const ResourceSlice& t : slices) seen = seen || t.meta.name == s.meta.name;
    if (!seen) slices.push_back(std::move(s));
  }
}

void ValidatePodResourceClaims(const Pod& pod, const std::string& spec_path, std::vector<FieldError>& errs) {
  const auto& claims = pod.Extras().resource_claims;
  std::set<std::string> seen;  // validatePodResourceClaims' podClaimNames
  for (size_t i = 0; i < claims.size(); ++i) {
    const PodResourceClaim& c = claims[i];
    const std::string p = spec_path + ".resourceClaims[" + std::to_string(i) + "]";
    if (c.name.empty()) {
      errs.push_back(FieldError::Required(p + ".name", ""));
    } else if (seen.count(c.name)) {
      errs.push_back(FieldError::Duplicate(p + ".name", c.name));
    } else {
      for (const auto& m : IsDNS1123Label(c.name)) errs.push_back(FieldError::Invalid(p + ".name", c.name, m));
      seen.insert(c.name);
    }
    const bool named = !c.resource_claim_name.empty(), templated = !c.resource_claim_template_name.empty();
    if (named && templated)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p, ClaimJson(c),
                                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"});
    if (!named && !templated)
      errs.push_back(FieldError{FieldError::Type::kInvalid, p, ClaimJson(c),
                                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"});
    if (named)
      for (const auto& m : IsDNS1123Subdomain(c.resource_claim_name))
        errs.push_back(FieldError::Invalid(p + ".resourceClaimName", c.resource_claim_name, m));
    if (templated)
      for (const auto& m : IsDNS1123Subdomain(c.resource_claim_template_name))
        errs.push_back(FieldError::Invalid(p + ".resourceClaimTemplateName", c.resource_claim_template_name, m));
  }
  // gatherPodResourceClaimNames: every non-empty name.
  std::set<std::string> pod_claims;
  for (const PodResourceClaim& c : claims)
    if (!c.name.empty()) pod_claims.insert(c.name);
  auto containers = [&](const std::vector<Container>& cs, const std::string& path) {
    for (size_t i = 0; i < cs.size(); ++i)
      ValidateContainerClaims(cs[i].claims, pod_claims, path + "[" + std::to_string(i) + "].resources.claims", errs);
  };
  containers(pod.containers, spec_path + ".containers");
  containers(pod.init_containers, spec_path + ".initContainers");
}

}  // namespace gpusched
