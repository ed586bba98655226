// Tests for the Kubernetes CEL libraries (model/cel/k8s_lib.cc): quantity.go,
// semverlib.go (with the normalize flag, SemverVersion(1)), regex.go,
// lists.go and cel-go ext.Sets, with upstream's error texts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cel_test_util.h"

namespace gpusched::cel {
namespace {

using testing::Outcome;

TEST(CelKubernetesLibTest, Quantity) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"quantity('1Gi').isGreaterThan(quantity('1G'))", "true"},
      {"quantity('500m').isLessThan(quantity('1'))", "true"},
      {"quantity('1k').compareTo(quantity('1000')) == 0", "true"},
      {"quantity('1Ki').compareTo(quantity('1k')) == 1", "true"},
      {"sign(quantity('-1')) == -1 && sign(quantity('0')) == 0", "true"},
      {"quantity('1.5').asApproximateFloat() == 1.5", "true"},
      {"quantity('2k').asInteger() == 2000", "true"},
      {"quantity('1.5').asInteger() == 1", "error: cannot convert value to integer"},
      {"quantity('2k').isInteger() && !quantity('500m').isInteger()", "true"},
      {"quantity('1Gi').add(quantity('512Mi')).compareTo(quantity('1536Mi')) == 0", "true"},
      {"quantity('1').add(2).compareTo(quantity('3')) == 0", "true"},
      {"quantity('1').sub(quantity('250m')).compareTo(quantity('750m')) == 0", "true"},
      {"quantity('1').sub(3).compareTo(quantity('-2')) == 0", "true"},
      {"isQuantity('10Gi') && !isQuantity('10 Gi')", "true"},
      {"quantity('10 Gi').isInteger()",
       "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"quantity('1iK').isInteger()", "error: unable to parse quantity's suffix"},
      {"quantity('8E').add(quantity('8E')).isInteger()", "error: quantity too large"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

TEST(CelKubernetesLibTest, Semver) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3", "true"},
      {"semver('1.2.3').isGreaterThan(semver('1.2.3-rc.1'))", "true"},
      {"semver('1.10.0').compareTo(semver('1.9.0')) == 1", "true"},
      {"semver('v1.2', true).compareTo(semver('1.2.0')) == 0", "true"},
      {"isSemver('1.2.3') && !isSemver('v1.2.3') && isSemver('v1.2.3', true)", "true"},
      {"semver('1.2').major() == 1", "error: No Major.Minor.Patch elements found"},
      {"semver('1.2-rc', true).major() == 1", "error: short version cannot contain PreRelease/Build meta data"},
      {"device.attributes['gpu.nvidia.com'].cudaComputeCapability.isLessThan(semver('9.0.0'))", "true"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

TEST(CelKubernetesLibTest, RegexListsSets) {
  struct Case {
    std::string expr;
    std::string outcome;
  };
  const std::vector<Case> cases = {
      {"'abc 123'.find('[0-9]+') == '123'", "true"},
      {"'abc'.find('[0-9]+') == ''", "true"},
      {"'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333']", "true"},
      {"'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']", "true"},
      {"'abc'.findAll('x*') == ['', '', '', '']", "true"},
      {"'abc'.find(device.driver + '(') == ''", "error: Illegal regex: missing ): gpu.nvidia.com("},
      {"[1, 2, 3].isSorted() && !['b', 'a'].isSorted()", "true"},
      {"[1, 2, 3].sum() == 6 && [1.5, 2.0].sum() == 3.5 && [].sum() == 0", "true"},
      {"[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3", "true"},
      {"[].min() == 1", "error: min(list) called on empty list"},
      {"[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1", "true"},
      {"sets.contains([1, 2, 3], [3, 1]) && !sets.contains([1], [2])", "true"},
      {"sets.equivalent([1, 2], [2, 1, 1]) && !sets.equivalent([1], [1, 2])", "true"},
      {"sets.intersects([1, 2], [2, 3]) && !sets.intersects([1], [])", "true"},
      // ext.Lists v3.
      {"[1, 2, 3, 4].slice(1, 3) == [2, 3] && [1].slice(1, 1) == []", "true"},
      {"[1, 2].slice(1, 3) == []", "error: cannot slice(1, 3), list is length 2"},
      {"[1, 2].slice(2, 1) == []", "error: cannot slice(2, 1), start index must be less than or equal to end index"},
      {"[1, 2].slice(-1, 1) == []", "error: cannot slice(-1, 1), negative indexes not supported"},
      {"[[1], [2, 3]].flatten() == [1, 2, 3]", "true"},
      {"[dyn([1]), dyn([dyn(2), dyn([3])])].flatten(2) == [1, 2, 3]", "true"},
      {"[dyn([1]), dyn([dyn(2), dyn([3])])].flatten(1) == [dyn(1), dyn(2), dyn([3])]", "true"},
      {"dyn([1]).flatten(-1) == []", "error: level must be non-negative"},
      {"[1, 2, 1, 3, 2].distinct() == [1, 2, 3] && [1, 2].reverse() == [2, 1]", "true"},
      {"[3, 1, 2].sort() == [1, 2, 3] && ['b', 'a'].sort() == ['a', 'b']", "true"},
      {"[[1], [0]].sort() == []", "error: list elements must be comparable"},
      {"[dyn(1), dyn('a')].sort() == []", "error: list elements must have the same type"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.expr);
    EXPECT_EQ(Outcome(c.expr), c.outcome);
  }
}

}  // namespace
}  // namespace gpusched::cel
