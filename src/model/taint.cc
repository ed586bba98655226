#include "gpusched/model/taint.h"

namespace gpusched {

// k8s.io/api/core/v1/toleration.go
bool ToleratesTaint(const Toleration& t, const Taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  // An empty key with operator Exists matches all keys, values and effects.
  if (t.op == "Exists") return true;
  if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
  return false;
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& ts, const Taint& taint) {
  for (const auto& t : ts)
    if (ToleratesTaint(t, taint)) return true;
  return false;
}

}  // namespace gpusched
