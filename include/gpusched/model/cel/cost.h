// The estimated worst-case cost of a checked expression: cel-go's
// checker/cost.go estimator with k8s.io/apiserver/pkg/cel/library/cost.go's
// CostEstimator and DRA's sizeEstimator (dynamic-resource-allocation/cel/
// compile.go: the declared maximum sizes of the `device` fields). Only the
// maximum is computed; it is what compile.go returns as MaxCost and what
// validation compares with CELSelectorExpressionMaxCost.
#ifndef GPUSCHED_MODEL_CEL_COST_H_
#define GPUSCHED_MODEL_CEL_COST_H_

#include <cstdint>

#include "gpusched/model/cel/ast.h"
#include "gpusched/model/cel/checker.h"

namespace gpusched::cel {

uint64_t EstimateMaxCost(const Expr& root, const CheckResult& checked);

}  // namespace gpusched::cel

#endif  // GPUSCHED_MODEL_CEL_COST_H_
