// Tests for checker types (model/cel/types.cc): cel-go's two spellings of a
// type (FormatCELType in messages, Type.String in compile.go's output check)
// and assignability with type parameters (checker/types.go).
#include "gpusched/model/cel/types.h"

#include <gtest/gtest.h>

namespace gpusched::cel {
namespace {

TEST(CelTypesTest, Spellings) {
  EXPECT_EQ(Type::Any().Format(), "any");
  EXPECT_EQ(Type::Any().CelString(), "google.protobuf.Any");
  EXPECT_EQ(Type::Null().Format(), "null");
  EXPECT_EQ(Type::Null().CelString(), "null_type");
  EXPECT_EQ(Type::Map(Type::String(), Type::List(Type::Int())).Format(), "map(string, list(int))");
  EXPECT_EQ(Type::TypeOf(Type::Uint()).CelString(), "type(uint)");
  EXPECT_EQ(Type::Quantity().Format(), "kubernetes.Quantity");
  EXPECT_EQ(Type::Struct("kubernetes.DRADevice").CelString(), "kubernetes.DRADevice");
  EXPECT_EQ(Type::Param("A").Format(), "A");
}

TEST(CelTypesTest, Assignability) {
  TypeMapping m;
  EXPECT_TRUE(IsAssignable(m, Type::Int(), Type::Int()));
  EXPECT_FALSE(IsAssignable(m, Type::Int(), Type::Uint()));
  EXPECT_TRUE(IsAssignable(m, Type::Int(), Type::Dyn()));
  EXPECT_TRUE(IsAssignable(m, Type::String(), Type::Any()));
  EXPECT_FALSE(IsAssignable(m, Type::Int(), Type::Null()));
  EXPECT_TRUE(IsAssignable(m, Type::Struct("x"), Type::Null()));
  EXPECT_TRUE(IsAssignable(m, Type::List(Type::Dyn()), Type::List(Type::String())));
  EXPECT_FALSE(IsAssignable(m, Type::Quantity(), Type::Semver()));
  EXPECT_TRUE(IsAssignable(m, Type::TypeOf(Type::Int()), Type::TypeOf(Type::Uint())));

  // A binds to the first argument's type; the second must then fit it.
  TypeMapping eq;
  EXPECT_TRUE(IsAssignable(eq, Type::Param("A"), Type::Int()));
  EXPECT_FALSE(IsAssignable(eq, Type::Param("A"), Type::String()));
  EXPECT_EQ(eq.Substitute(Type::List(Type::Param("A")), false).Format(), "list(int)");
  // Binding to dyn keeps the more general type.
  TypeMapping dyn;
  EXPECT_TRUE(IsAssignable(dyn, Type::Param("A"), Type::Int()));
  EXPECT_TRUE(IsAssignable(dyn, Type::Param("A"), Type::Dyn()));
  EXPECT_EQ(dyn.Substitute(Type::Param("A"), false).Format(), "dyn");
  // Unbound parameters become dyn when asked to.
  EXPECT_EQ(TypeMapping().Substitute(Type::Map(Type::Param("K"), Type::Int()), true).Format(), "map(dyn, int)");
  EXPECT_EQ(TypeMapping().Substitute(Type::Param("K"), false).Format(), "K");
  // No binding of a parameter to a type containing itself.
  TypeMapping occurs;
  EXPECT_FALSE(IsAssignable(occurs, Type::Param("A"), Type::List(Type::Param("A"))));
  // Parameters bound to each other resolve instead of looping (the fuzzer's
  // {}.transformMap(k, v, k) bound them in a cycle before).
  TypeMapping chain;
  EXPECT_TRUE(IsAssignable(chain, Type::Param("A"), Type::Param("B")));
  EXPECT_TRUE(IsAssignable(chain, Type::Param("B"), Type::Param("A")));
  EXPECT_TRUE(IsAssignable(chain, Type::Param("A"), Type::Int()));
  EXPECT_EQ(chain.Substitute(Type::Param("B"), true).Format(), "int");
  EXPECT_FALSE(IsAssignable(chain, Type::List(Type::Param("B")), Type::List(Type::String())));
}

}  // namespace
}  // namespace gpusched::cel
