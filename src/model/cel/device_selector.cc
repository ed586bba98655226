// DeviceSelector: k8s.io/dynamic-resource-allocation/cel/compile.go
// (CompileCELExpression, DeviceMatches) on top of the parser, checker, cost
// estimator and interpreter of model/cel/.
//
// Compile errors are upstream's CompilationResult.Error details:
// "compilation failed: <cel-go issues>", "must evaluate to bool or the
// unknown type, not <type>"; an estimated cost above options.max_cost is
// validation's "too complex, exceeds cost limit" (pkg/apis/resource/
// validation validateCELSelector), which the contract makes a compile
// error. Runtime errors are cel-go's texts as DeviceMatches returns them.
#include "gpusched/model/cel/device_selector.h"

#include <string>
#include <utility>

#include "gpusched/model/cel/checker.h"
#include "gpusched/model/cel/cost.h"
#include "gpusched/model/cel/interpreter.h"
#include "gpusched/model/cel/parser.h"
#include "gpusched/model/cel/program.h"

namespace gpusched::cel {
namespace {

// cel-go's default limit on the size of an expression in code points
// (parser.go expressionSizeCodePointLimit).
constexpr size_t kMaxCodePoints = 100000;

// Invalid UTF-8 bytes become U+FFFD, as cel-go's rune buffer reads them.
std::string SanitizeUtf8(std::string_view s, size_t* code_points) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  *code_points = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t k = 1; ok && k < n; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      ok = (d & 0xC0) == 0x80;
      cp = (cp << 6) | (d & 0x3Fu);
    }
    if (ok && ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
               (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    ++*code_points;
    if (!ok) {
      out += "\xef\xbf\xbd";
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

CheckEnv SelectorEnv(bool consumable_capacity) {
  CheckEnv env;
  env.variables["device"] = Type::Struct("kubernetes.DRADevice");
  std::map<std::string, Type> fields = {
      {"driver", Type::String()},
      {"attributes", Type::Map(Type::String(), Type::Map(Type::String(), Type::Any()))},
      {"capacity", Type::Map(Type::String(), Type::Map(Type::String(), Type::Quantity()))},
  };
  if (consumable_capacity) fields["allowMultipleAllocations"] = Type::Bool();
  env.structs["kubernetes.DRADevice"] = std::move(fields);
  return env;
}

Status CompileError(std::string msg) { return Status::InvalidArgument(std::move(msg)); }

// compile.go getAttributeValue.
Result<Value> AttributeValue(const DeviceAttribute& a) {
  switch (a.kind) {
    case DeviceAttribute::Kind::kInt: return Value::Int(a.int_value);
    case DeviceAttribute::Kind::kBool: return Value::Bool(a.bool_value);
    case DeviceAttribute::Kind::kString: return Value::String(a.string_value);
    case DeviceAttribute::Kind::kVersion: {
      Result<Semver> v = Semver::Parse(a.string_value);
      if (!v.ok()) return Status::InvalidArgument("parse semantic version: " + v.status().message());
      return Value::OfSemver(*v);
    }
  }
  return Status::InvalidArgument("unsupported attribute value");
}

// domain -> id -> value, as compile.go's DeviceMatches builds it; the outer
// map reads an unknown domain as an empty map.
class DomainMaps {
 public:
  void Put(const std::string& domain, const std::string& id, Value value) {
    std::shared_ptr<MapValue>& inner = by_domain_[domain];
    if (!inner) inner = std::make_shared<MapValue>();
    inner->entries.emplace_back(Value::String(id), std::move(value));
  }
  Value Build() {
    auto outer = std::make_shared<MapValue>();
    outer->default_empty = true;
    for (auto& [domain, inner] : by_domain_) outer->entries.emplace_back(Value::String(domain), Value::Map(inner));
    return Value::Map(std::move(outer));
  }

 private:
  std::map<std::string, std::shared_ptr<MapValue>> by_domain_;
};

}  // namespace

Result<DeviceSelector> DeviceSelector::Compile(std::string_view expression, const CompileOptions& options) {
  size_t code_points = 0;
  std::string source = SanitizeUtf8(expression, &code_points);
  if (code_points > kMaxCodePoints)
    return CompileError("compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: " +
                        std::to_string(code_points) + ", limit " + std::to_string(kMaxCodePoints));
  ParseResult parsed = Parse(source);
  if (!parsed.issues.empty())
    return CompileError("compilation failed: " + FormatIssues(source, std::move(parsed.issues)));
  CheckResult checked = Check(*parsed.expr, SelectorEnv(options.consumable_capacity));
  if (!checked.issues.empty())
    return CompileError("compilation failed: " + FormatIssues(source, std::move(checked.issues)));
  // compile.go: the output must be bool or cel.AnyType (an attribute).
  if (checked.output.kind != Type::Kind::kBool && checked.output.kind != Type::Kind::kAny)
    return CompileError("must evaluate to bool or the unknown type, not " + checked.output.CelString());
  auto program = std::make_shared<Program>();
  program->max_cost = EstimateMaxCost(*parsed.expr, checked);
  if (program->max_cost > options.max_cost) return CompileError("too complex, exceeds cost limit");
  program->expression = std::string(expression);
  program->ast = std::move(parsed.expr);
  program->consumable_capacity = options.consumable_capacity;
  DeviceSelector s;
  s.program_ = std::move(program);
  return s;
}

Result<bool> DeviceSelector::Matches(const std::string& driver, const Device& device) const {
  DomainMaps attributes;
  for (const auto& [name, attr] : device.attributes) {
    Result<Value> v = AttributeValue(attr);
    if (!v.ok()) return Status::InvalidArgument("attribute " + name + ": " + v.status().message());
    QualifiedAttributeName q = SplitQualifiedName(name, driver);
    attributes.Put(q.domain, q.id, std::move(*v));
  }
  DomainMaps capacity;
  for (const auto& [name, cap] : device.capacity) {
    QualifiedAttributeName q = SplitQualifiedName(name, driver);
    capacity.Put(q.domain, q.id, Value::OfQuantity(cap.value));
  }
  auto dev = std::make_shared<MapValue>();
  dev->entries.emplace_back(Value::String("driver"), Value::String(driver));
  dev->entries.emplace_back(Value::String("attributes"), attributes.Build());
  dev->entries.emplace_back(Value::String("capacity"), capacity.Build());
  dev->entries.emplace_back(Value::String("allowMultipleAllocations"), Value::Bool(device.allow_multiple_allocations));
  EvalResult r = Evaluate(*program_->ast, Value::Map(std::move(dev)), kRuntimeCostLimit);
  if (r.value.is_error()) return Status::InvalidArgument(r.value.error());
  if (r.value.kind() != Value::Kind::kBool)
    return Status::InvalidArgument("CEL result of type " + RuntimeTypeName(r.value) + " could not be converted to bool");
  return r.value.bool_value();
}

const std::string& DeviceSelector::expression() const { return program_->expression; }

uint64_t DeviceSelector::max_cost() const { return program_->max_cost; }

// Upstream's cel.Cache compiles with DisableCostEstimation (an allocator
// only enforces the runtime limit); construct the cache with
// max_cost = UINT64_MAX to do the same, keep the default to reject what
// validation rejects.
Result<DeviceSelector> SelectorCache::Get(const std::string& expression) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = compiled_.find(expression);
  if (it != compiled_.end()) return it->second;
  Result<DeviceSelector> r = DeviceSelector::Compile(expression, options_);
  compiled_.emplace(expression, r);
  return r;
}

}  // namespace gpusched::cel
