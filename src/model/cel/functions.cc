// The function registry of the DRA selector environment: the libraries
// k8s.io/apiserver/pkg/cel/environment/base.go enables for stored
// expressions, as far as selectors use them (see functions.h).
#include "gpusched/model/cel/functions.h"

#include <re2/re2.h>

#include <mutex>
#include <unordered_map>

namespace gpusched::cel {

const FunctionRegistry& FunctionRegistry::Get() {
  static const FunctionRegistry* registry = [] {
    auto* r = new FunctionRegistry();
    AddStandardFunctions(r);
    AddStringFunctions(r);
    AddKubernetesFunctions(r);
    AddOptionalFunctions(r);
    return r;
  }();
  return *registry;
}

const std::vector<Overload>* FunctionRegistry::Find(const std::string& function) const {
  auto it = by_name_.find(function);
  return it == by_name_.end() ? nullptr : &it->second;
}

void FunctionRegistry::Add(Overload o) {
  std::string name = o.function;
  by_name_[name].push_back(std::move(o));
}

bool ValueMatches(const Type& t, const Value& v) {
  using K = Type::Kind;
  using VK = Value::Kind;
  switch (t.kind) {
    case K::kDyn: case K::kAny: case K::kTypeParam: case K::kError: return true;
    case K::kNull: return v.kind() == VK::kNull;
    case K::kBool: return v.kind() == VK::kBool;
    case K::kInt: return v.kind() == VK::kInt;
    case K::kUint: return v.kind() == VK::kUint;
    case K::kDouble: return v.kind() == VK::kDouble;
    case K::kString: return v.kind() == VK::kString;
    case K::kBytes: return v.kind() == VK::kBytes;
    case K::kList: return v.kind() == VK::kList;
    case K::kMap: return v.kind() == VK::kMap;
    case K::kType: return v.kind() == VK::kType;
    case K::kOpaque:
      if (t.name == "kubernetes.Quantity") return v.kind() == VK::kQuantity;
      if (t.name == "kubernetes.Semver") return v.kind() == VK::kSemver;
      if (t.name == "optional_type") return v.kind() == VK::kOptional;
      return false;
    case K::kStruct: return v.kind() == VK::kMap;
  }
  return false;
}

Value NoSuchOverload() { return Value::Error("no such overload"); }

std::shared_ptr<const re2::RE2> CachedRegex(const std::string& pattern) {
  // Bounded: dropped whole when full (patterns built from device data could
  // otherwise grow it without limit).
  constexpr size_t kMaxEntries = 256;
  static std::mutex mu;
  static auto* cache = new std::unordered_map<std::string, std::shared_ptr<const re2::RE2>>();
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache->find(pattern);
    if (it != cache->end()) return it->second;
  }
  re2::RE2::Options opts;
  opts.set_log_errors(false);
  auto re = std::make_shared<const re2::RE2>(pattern, opts);
  // Long patterns (built from data, say) are compiled each time rather than
  // kept: the cache stays small.
  constexpr size_t kMaxCachedPattern = 1024;
  if (pattern.size() > kMaxCachedPattern) return re;
  std::lock_guard<std::mutex> lock(mu);
  if (cache->size() >= kMaxEntries) cache->clear();
  cache->emplace(pattern, re);
  return re;
}

int64_t CodePointCount(const std::string& s) {
  int64_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace gpusched::cel
