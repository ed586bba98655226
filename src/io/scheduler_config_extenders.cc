// ConfigDecoder (scheduler_config_decoder.h): the extenders stanza, one
// KubeSchedulerConfiguration v1 Extender per entry, with httpTimeout read as
// a Go duration (time.ParseDuration) and the TLS []byte fields as base64.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "gpusched/model/field_error.h"
#include "gpusched/util/base64.h"
#include "scheduler_config_decoder.h"

namespace gpusched {
namespace scheduler_config_internal {

std::optional<double> ParseGoDuration(std::string_view s) {
  if (s.empty()) return std::nullopt;
  double sign = 1;
  if (s[0] == '-' || s[0] == '+') {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (s == "0") return 0.0;
  if (s.empty()) return std::nullopt;
  double total = 0;
  while (!s.empty()) {
    size_t i = 0;
    double value = 0;
    bool digits = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') value = value * 10 + (s[i++] - '0'), digits = true;
    if (i < s.size() && s[i] == '.') {
      ++i;
      double scale = 0.1;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') value += (s[i++] - '0') * scale, scale /= 10, digits = true;
    }
    if (!digits) return std::nullopt;
    s.remove_prefix(i);
    static constexpr std::pair<std::string_view, double> kUnits[] = {
        {"ns", 1e-9}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"\xce\xbcs", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}};
    bool found = false;
    for (const auto& [unit, factor] : kUnits) {
      if (s.substr(0, unit.size()) == unit && (unit != "m" || s.substr(0, 2) != "ms")) {
        total += value * factor;
        s.remove_prefix(unit.size());
        found = true;
        break;
      }
    }
    if (!found) return std::nullopt;  // a missing or unknown unit
  }
  return sign * total;
}

bool ConfigDecoder::DecodeExtender(const DocNode& n, const std::string& path, Extender& e) {
  if (!Item(n, path)) return false;
  WarnUnknown(n, path,
              {"urlPrefix", "filterVerb", "preemptVerb", "prioritizeVerb", "weight", "bindVerb", "enableHTTPS",
               "tlsConfig", "httpTimeout", "nodeCacheCapable", "managedResources", "ignorable"});
  e.url_prefix = ctx_.Str(n, "urlPrefix", path + ".urlPrefix");
  e.filter_verb = ctx_.Str(n, "filterVerb", path + ".filterVerb");
  e.preempt_verb = ctx_.Str(n, "preemptVerb", path + ".preemptVerb");
  e.prioritize_verb = ctx_.Str(n, "prioritizeVerb", path + ".prioritizeVerb");
  e.bind_verb = ctx_.Str(n, "bindVerb", path + ".bindVerb");
  e.weight = ctx_.Int(n, "weight", path + ".weight").value_or(0);
  e.enable_https = ctx_.Bool(n, "enableHTTPS", path + ".enableHTTPS").value_or(false);
  e.node_cache_capable = ctx_.Bool(n, "nodeCacheCapable", path + ".nodeCacheCapable").value_or(false);
  e.ignorable = ctx_.Bool(n, "ignorable", path + ".ignorable").value_or(false);
  const std::string timeout = ctx_.Str(n, "httpTimeout", path + ".httpTimeout");
  if (!timeout.empty()) {
    if (std::optional<double> secs = ParseGoDuration(timeout)) {
      e.http_timeout_seconds = *secs;
    } else {
      ctx_.Error(path + ".httpTimeout", n["httpTimeout"], "time: invalid duration " + GoQuote(timeout));
    }
  }
  const std::string tp = path + ".tlsConfig";
  const DocNode tls = ctx_.Map(n, "tlsConfig", tp);
  if (tls.IsDefined()) {
    WarnUnknown(tls, tp,
                {"insecure", "serverName", "certFile", "keyFile", "caFile", "certData", "keyData", "caData"});
    ExtenderTLSConfig t;
    t.insecure = ctx_.Bool(tls, "insecure", tp + ".insecure").value_or(false);
    t.server_name = ctx_.Str(tls, "serverName", tp + ".serverName");
    t.cert_file = ctx_.Str(tls, "certFile", tp + ".certFile");
    t.key_file = ctx_.Str(tls, "keyFile", tp + ".keyFile");
    t.ca_file = ctx_.Str(tls, "caFile", tp + ".caFile");
    t.cert_data = Bytes(tls, "certData", tp + ".certData");
    t.key_data = Bytes(tls, "keyData", tp + ".keyData");
    t.ca_data = Bytes(tls, "caData", tp + ".caData");
    e.tls_config = std::move(t);
  }
  const std::string mp = path + ".managedResources";
  const DocNode managed = ctx_.Seq(n, "managedResources", mp);
  if (managed.IsDefined()) {
    for (size_t j = 0; j < managed.size(); ++j) {
      const DocNode r = managed[j];
      const std::string p = Idx(mp, j);
      if (!Item(r, p)) continue;
      WarnUnknown(r, p, {"name", "ignoredByScheduler"});
      ExtenderManagedResource res;
      res.name = ctx_.Str(r, "name", p + ".name");
      res.ignored_by_scheduler = ctx_.Bool(r, "ignoredByScheduler", p + ".ignoredByScheduler").value_or(false);
      e.managed_resources.push_back(std::move(res));
    }
  }
  return true;
}

std::string ConfigDecoder::Bytes(const DocNode& parent, const char* key, const std::string& path) {
  const std::string text = ctx_.Str(parent, key, path);
  size_t bad = 0;
  std::optional<std::string> bytes = Base64Decode(text, &bad);
  if (bytes) return *bytes;
  ctx_.Error(path, parent[key], "illegal base64 data at input byte " + std::to_string(bad));
  return "";
}

}  // namespace scheduler_config_internal
}  // namespace gpusched
