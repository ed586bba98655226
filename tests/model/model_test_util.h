// Builders shared by the model tests: quantities and resource lists from text.
#ifndef GPUSCHED_TESTS_MODEL_MODEL_TEST_UTIL_H_
#define GPUSCHED_TESTS_MODEL_MODEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpusched/model/quantity.h"
#include "gpusched/model/resources.h"

namespace gpusched::testing {

inline Quantity Q(const std::string& s) {
  Result<Quantity> r = Quantity::Parse(s);
  EXPECT_TRUE(r.ok()) << s;
  return r.ok() ? *r : Quantity();
}

inline ResourceList RL(std::vector<std::pair<std::string, std::string>> items) {
  ResourceList l;
  for (auto& [k, v] : items) l.emplace(k, Q(v));
  return l;
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_MODEL_MODEL_TEST_UTIL_H_
