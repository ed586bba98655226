// Cost estimation after cel-go checker/cost.go (coster: costIdent,
// costSelect, costCall/functionCost, costCreateList/Map, costComprehension,
// costBind, computeSize), with the Kubernetes library estimates of
// k8s.io/apiserver/pkg/cel/library/cost.go (EstimateCallCost) and the DRA
// sizeEstimator (dynamic-resource-allocation/cel/compile.go). Constants:
// common/cost.go (ident/select 1, const 0, list 10, map 30, string
// traversal factor 0.1, regex length factor 0.25). Kubernetes turns off the
// cost of has() (checker.PresenceTestHasCost(false), environment/base.go).
//
// Simplifications: only maximums are tracked; entry sizes are kept for list
// literals only; library functions outside the DRA environment have none.
#include "gpusched/model/cel/cost.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpusched::cel {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

uint64_t Add(uint64_t a, uint64_t b) { return b > 0 && a > kMax - b ? kMax : a + b; }
uint64_t Mul(uint64_t a, uint64_t b) { return b != 0 && a > kMax / b ? kMax : a * b; }
// cel-go multiplyByCostFactor: rounded up, saturating.
uint64_t Factor(uint64_t x, double f) {
  double xf = static_cast<double>(x);
  if (xf > 0 && f > 0 && xf > static_cast<double>(kMax) / f) return kMax;
  double c = std::ceil(xf * f);
  if (c >= 18446744073709551616.0) return kMax;
  return static_cast<uint64_t>(c);
}

// The declared shape of `device` (compile.go newCompiler, resource API
// limits: DriverNameMaxLength 63, DeviceMaxDomainLength 63,
// DeviceMaxIDLength 32, DeviceAttributeMaxValueLength 64,
// ResourceSliceMaxAttributesAndCapacitiesPerDevice 32).
struct Decl {
  explicit Decl(uint64_t m, const Decl* k = nullptr, const Decl* e = nullptr,
                std::map<std::string, const Decl*> f = {})
      : max(m), fields(std::move(f)), key(k), elem(e) {}
  uint64_t max;
  std::map<std::string, const Decl*> fields;
  const Decl* key;
  const Decl* elem;
};

const Decl* DeviceDecl(const Decl** attribute) {
  static const Decl domain(63), id(32), driver(63), attr(64), quantity(0), multi(1);
  static const Decl inner_attr(32, &id, &attr), outer_attr(32, &domain, &inner_attr);
  static const Decl inner_cap(32, &id, &quantity), outer_cap(32, &domain, &inner_cap);
  static const Decl device(0, nullptr, nullptr,
                           {{"driver", &driver}, {"attributes", &outer_attr}, {"capacity", &outer_cap},
                            {"allowMultipleAllocations", &multi}});
  *attribute = &attr;
  return &device;
}

std::optional<uint64_t> DevicePathSize(const std::vector<std::string>& path) {
  if (path.empty() || path[0] != "device") return std::nullopt;
  const Decl* attribute = nullptr;
  const Decl* node = DeviceDecl(&attribute);
  for (size_t i = 1; i < path.size(); ++i) {
    const std::string& p = path[i];
    if (p == "@items" || p == "@values") {
      if (!node->elem) return std::nullopt;
      node = node->elem;
    } else if (p == "@keys") {
      if (!node->key) return std::nullopt;
      node = node->key;
    } else {
      auto f = node->fields.find(p);
      if (f == node->fields.end()) {
        if (node->elem == attribute) {
          node = attribute;
          continue;
        }
        return std::nullopt;
      }
      node = f->second;
    }
  }
  return node->max;
}

struct LocalVar {
  std::string name;
  std::vector<std::string> path;
  std::optional<uint64_t> size;
};

class Coster {
 public:
  explicit Coster(const CheckResult& c) : checked_(c) {}

  uint64_t Cost(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kConst: return 0;
      case Expr::Kind::kIdent: {
        if (const LocalVar* v = Local(e.name)) {
          paths_[e.id] = v->path;
        } else {
          paths_[e.id] = {e.name};
        }
        return 1;
      }
      case Expr::Kind::kSelect: {
        uint64_t c = Cost(*e.target);
        if (e.test_only) return c;
        Type::Kind k = TypeOf(*e.target).kind;
        if (k == Type::Kind::kMap || k == Type::Kind::kStruct || k == Type::Kind::kTypeParam) c = Add(c, 1);
        std::vector<std::string> p = paths_[e.target->id];
        p.push_back(e.name);
        paths_[e.id] = std::move(p);
        return c;
      }
      case Expr::Kind::kCall: return CostCall(e);
      case Expr::Kind::kList: {
        uint64_t c = 10;
        std::optional<uint64_t> item;
        for (const ExprPtr& a : e.args) {
          c = Add(c, Cost(*a));
          uint64_t s = Size(*a);
          item = item ? std::max(*item, s) : s;
        }
        item_sizes_[e.id] = item.value_or(0);
        return c;
      }
      case Expr::Kind::kMap: {
        uint64_t c = 30;
        for (const ExprPtr& a : e.args) c = Add(c, Cost(*a));
        return c;
      }
      case Expr::Kind::kComprehension: return CostComprehension(e);
    }
    return 0;
  }

 private:
  Type TypeOf(const Expr& e) const {
    auto it = checked_.types.find(e.id);
    return it == checked_.types.end() ? Type::Dyn() : it->second;
  }
  const LocalVar* Local(const std::string& name) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->name == name) return &*it;
    return nullptr;
  }

  // cel-go computeSize, then unknown.
  uint64_t Size(const Expr& e) {
    auto c = computed_.find(e.id);
    if (c != computed_.end()) return c->second;
    if (e.kind == Expr::Kind::kConst) {
      const Value& v = e.constant;
      if (v.kind() == Value::Kind::kString) return static_cast<uint64_t>(CodePointCount(v.string_value()));
      if (v.kind() == Value::Kind::kBytes) return v.bytes_value().size();
      return 1;
    }
    if (e.kind == Expr::Kind::kList) return e.args.size();
    if (e.kind == Expr::Kind::kMap) return e.args.size() / 2;
    auto p = paths_.find(e.id);
    if (p != paths_.end()) {
      if (std::optional<uint64_t> s = DevicePathSize(p->second)) {
        computed_[e.id] = *s;
        return *s;
      }
    }
    switch (TypeOf(e).kind) {
      case Type::Kind::kBool: case Type::Kind::kInt: case Type::Kind::kUint: case Type::Kind::kDouble: return 1;
      default: break;
    }
    if (e.kind == Expr::Kind::kIdent)
      if (const LocalVar* v = Local(e.name); v && v->size) return *v->size;
    return kMax;
  }

  // The size of one element of the list `e` (entry sizes of literals,
  // else the "@items" path).
  uint64_t ItemSize(const Expr& e) {
    auto it = item_sizes_.find(e.id);
    if (it != item_sizes_.end()) return it->second;
    auto p = paths_.find(e.id);
    if (p != paths_.end()) {
      std::vector<std::string> path = p->second;
      path.push_back("@items");
      if (std::optional<uint64_t> s = DevicePathSize(path)) return *s;
    }
    return kMax;
  }

  uint64_t CostCall(const Expr& e) {
    // dyn(x) costs 1 plus its argument and keeps the argument's size.
    if (e.name == "dyn" && e.args.size() == 1 && !e.target) {
      uint64_t c = Add(1, Cost(*e.args[0]));
      computed_[e.id] = Size(*e.args[0]);
      paths_[e.id] = paths_[e.args[0]->id];
      return c;
    }
    std::vector<uint64_t> arg_costs;
    uint64_t arg_sum = 0;
    for (const ExprPtr& a : e.args) {
      arg_costs.push_back(Cost(*a));
      arg_sum = Add(arg_sum, arg_costs.back());
    }
    auto ov = checked_.overloads.find(e.id);
    if (ov == checked_.overloads.end() || ov->second.empty()) return 0;
    uint64_t sum = 0;
    if (e.target) sum = Cost(*e.target);
    uint64_t fn = 0;
    std::optional<uint64_t> result_size;
    for (const Overload* o : ov->second) {
      std::optional<uint64_t> rs;
      fn = std::max(fn, FunctionCost(e, *o, arg_costs, arg_sum, &rs));
      if (rs) result_size = result_size ? std::max(*result_size, *rs) : *rs;
      if (o->id == "index_list" || o->id == "index_map") {
        std::vector<std::string> p = paths_[e.args[0]->id];
        p.push_back(o->id == "index_list" ? "@items" : "@values");
        paths_[e.id] = std::move(p);
        if (o->id == "index_list") {
          auto it = item_sizes_.find(e.args[0]->id);
          if (it != item_sizes_.end()) result_size = it->second;
        }
      }
    }
    if (result_size) computed_[e.id] = *result_size;
    return Add(sum, fn);
  }

  uint64_t FunctionCost(const Expr& e, const Overload& o, const std::vector<uint64_t>& arg_costs, uint64_t arg_sum,
                        std::optional<uint64_t>* result_size) {
    const std::string& f = e.name;
    const Expr* target = e.target.get();
    // k8s.io/apiserver/pkg/cel/library/cost.go EstimateCallCost.
    if (target && (f == "isSorted" || f == "sum" || f == "max" || f == "min" || f == "indexOf" || f == "lastIndexOf")) {
      Type t = TypeOf(*target);
      if (t.kind == Type::Kind::kList) {
        uint64_t el = 1;
        Type::Kind ek = t.params[0].kind;
        if (ek == Type::Kind::kString || ek == Type::Kind::kBytes) el = Add(el, Factor(ItemSize(*target), 0.1));
        return Add(Mul(Size(*target), el), arg_sum);
      }
      return Add(Factor(Size(*target), 0.1), arg_sum);
    }
    if (target && (f == "lowerAscii" || f == "upperAscii" || f == "substring" || f == "trim")) {
      uint64_t sz = Size(*target);
      *result_size = sz;
      return Add(Factor(sz, 0.1), arg_sum);
    }
    if (target && f == "replace" && e.args.size() >= 2) return Add(Factor(Size(*target), 0.2), arg_sum);
    if (target && f == "split") {
      uint64_t sz = Size(*target);
      uint64_t max = sz;
      if (e.args.size() > 1 && e.args[1]->kind == Expr::Kind::kConst && e.args[1]->constant.kind() == Value::Kind::kInt)
        max = static_cast<uint64_t>(e.args[1]->constant.int_value());
      *result_size = max;
      return Add(Factor(sz, 0.2), arg_sum);
    }
    if (target && f == "join") {
      uint64_t list = Size(*target);
      // Without a list element type upstream leaves the joined size at 0.
      uint64_t sz = TypeOf(*target).kind == Type::Kind::kList ? Mul(list, ItemSize(*target)) : 0;
      if (!e.args.empty()) sz = Add(sz, Mul(Size(*e.args[0]), list > 0 ? list - 1 : 0));
      *result_size = sz;
      return Add(Factor(sz, 0.1), arg_sum);
    }
    if (target && (f == "find" || f == "findAll") && !e.args.empty()) {
      uint64_t sz = Size(*target);
      *result_size = sz;
      return Add(Mul(Factor(Add(sz, 1), 0.1), Factor(Size(*e.args[0]), 0.25)), arg_sum);
    }
    if ((f == "quantity" || f == "isQuantity" || f == "semver" || f == "isSemver") && !e.args.empty())
      return Add(Factor(Size(*e.args[0]), 0.1), arg_sum);
    if (f == "sign" || f == "asInteger" || f == "isInteger" || f == "asApproximateFloat" || f == "isGreaterThan" ||
        f == "isLessThan" || f == "compareTo" || f == "add" || f == "sub" || f == "major" || f == "minor" ||
        f == "patch")
      return Add(1, arg_sum);
    // cel-go checker/cost.go functionCost.
    const std::string& id = o.id;
    if (id == "string_to_bytes" || id == "bytes_to_string") return Add(Factor(Size(*e.args[0]), 0.1), arg_sum);
    if ((id == "starts_with_string" || id == "ends_with_string") && e.args.size() == 1)
      return Add(Factor(Size(*e.args[0]), 0.1), arg_sum);
    if (id == "in_list" && e.args.size() == 2) return Add(Size(*e.args[1]), arg_sum);
    if (id == "matches_string" && target && e.args.size() == 1)
      return Add(Mul(Factor(Add(Size(*target), 1), 0.1), Factor(Size(*e.args[0]), 0.25)), arg_sum);
    if (id == "contains_string" && target && e.args.size() == 1)
      return Add(Mul(Factor(Size(*target), 0.1), Factor(Size(*e.args[0]), 0.1)), arg_sum);
    if (id == "logical_or" || id == "logical_and") return Add(arg_costs[0], arg_costs[1]);
    if (id == "conditional") {
      *result_size = std::max(Size(*e.args[1]), Size(*e.args[2]));
      return Add(arg_costs[0], std::max(arg_costs[1], arg_costs[2]));
    }
    if (id == "add_string" || id == "add_bytes" || id == "add_list") {
      uint64_t sz = Add(Size(*e.args[0]), Size(*e.args[1]));
      *result_size = sz;
      if (id == "add_list") return Add(1, arg_sum);
      return Add(Factor(sz, 0.1), arg_sum);
    }
    bool string_cmp = id == "equals" || id == "not_equals" ||
                      ((id.starts_with("less") || id.starts_with("greater")) &&
                       (id.ends_with("_string") || id.ends_with("_bytes")));
    if (string_cmp && e.args.size() == 2) return Add(Factor(std::min(Size(*e.args[0]), Size(*e.args[1])), 0.1), arg_sum);
    return Add(1, arg_sum);
  }

  uint64_t CostComprehension(const Expr& e) {
    uint64_t sum = Add(Cost(*e.iter_range), Cost(*e.accu_init));
    LocalVar accu{e.accu_var, paths_[e.accu_init->id], std::nullopt};
    uint64_t init_size = Size(*e.accu_init);
    if (init_size != kMax) accu.size = init_size;
    bool bind = e.iter_range->kind == Expr::Kind::kList && e.iter_range->args.empty() &&
                e.loop_cond->kind == Expr::Kind::kConst && e.loop_cond->constant.kind() == Value::Kind::kBool &&
                !e.loop_cond->constant.bool_value() && e.accu_var != kAccumulatorName;
    locals_.push_back(accu);
    if (bind) {
      sum = Add(sum, Cost(*e.result));
      locals_.pop_back();
      auto r = computed_.find(e.result->id);
      if (r != computed_.end()) computed_[e.id] = r->second;
      paths_[e.id] = paths_[e.result->id];
      return sum;
    }
    Type range = TypeOf(*e.iter_range);
    LocalVar iter{e.iter_var, paths_[e.iter_range->id], std::nullopt};
    if (range.kind == Type::Kind::kList) {
      iter.path.push_back("@items");
      uint64_t s = ItemSize(*e.iter_range);
      if (s != kMax) iter.size = s;
    } else {
      iter.path.push_back("@keys");
    }
    if (!e.iter_var2.empty()) {
      // pushIterKey / pushIterValue: the index or key, and the value.
      LocalVar value{e.iter_var2, paths_[e.iter_range->id], std::nullopt};
      iter.path.back() = range.kind == Type::Kind::kList ? "@indices" : "@keys";
      value.path.push_back(range.kind == Type::Kind::kList ? "@items" : "@values");
      if (range.kind == Type::Kind::kList) {
        value.size = iter.size;
        iter.size = std::nullopt;
      }
      locals_.push_back(value);
    }
    locals_.push_back(iter);
    uint64_t loop = Cost(*e.loop_cond);
    uint64_t step = Cost(*e.loop_step);
    locals_.pop_back();
    if (!e.iter_var2.empty()) locals_.pop_back();
    sum = Add(sum, Cost(*e.result));
    locals_.pop_back();
    uint64_t count = Size(*e.iter_range);
    sum = Add(sum, Mul(count, Add(step, loop)));
    if (e.accu_init->kind == Expr::Kind::kConst) {
      computed_[e.id] = Size(*e.accu_init);
    } else if (e.accu_init->kind == Expr::Kind::kList || e.accu_init->kind == Expr::Kind::kMap) {
      computed_[e.id] = count;
    }
    return sum;
  }

  const CheckResult& checked_;
  std::map<int64_t, std::vector<std::string>> paths_;
  std::map<int64_t, uint64_t> computed_;
  std::map<int64_t, uint64_t> item_sizes_;
  std::vector<LocalVar> locals_;
};

}  // namespace

uint64_t EstimateMaxCost(const Expr& root, const CheckResult& checked) { return Coster(checked).Cost(root); }

}  // namespace gpusched::cel
