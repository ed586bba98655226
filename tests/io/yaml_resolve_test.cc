#include "gpusched/io/yaml_resolve.h"

#include <gtest/gtest.h>

#include <string>

namespace gpusched {
namespace {

using T = ResolvedScalar::Type;

std::string Name(T t) {
  switch (t) {
    case T::kNull: return "null";
    case T::kBool: return "bool";
    case T::kInt: return "int";
    case T::kFloat: return "float";
    case T::kString: return "string";
  }
  return "?";
}

// Plain scalars as go-yaml v2's resolve() reads them, written as the JSON
// sigs.k8s.io/yaml makes of them. The expected values were checked with
// `kubectl label --local -f` (kubectl v1.32) where an annotation or a
// quantity shows them.
TEST(YamlResolveTest, PlainScalarsResolveAsGoYamlV2) {
  struct Case {
    const char* in;
    T type;
    const char* json;
  };
  const Case cases[] = {
      // null
      {"", T::kNull, ""}, {"~", T::kNull, ""}, {"null", T::kNull, ""}, {"Null", T::kNull, ""},
      {"NULL", T::kNull, ""}, {"nULL", T::kString, "nULL"},
      // YAML 1.1 booleans
      {"y", T::kBool, "true"}, {"Y", T::kBool, "true"}, {"yes", T::kBool, "true"}, {"Yes", T::kBool, "true"},
      {"YES", T::kBool, "true"}, {"on", T::kBool, "true"}, {"On", T::kBool, "true"}, {"ON", T::kBool, "true"},
      {"true", T::kBool, "true"}, {"True", T::kBool, "true"}, {"TRUE", T::kBool, "true"},
      {"n", T::kBool, "false"}, {"N", T::kBool, "false"}, {"no", T::kBool, "false"}, {"off", T::kBool, "false"},
      {"OFF", T::kBool, "false"}, {"false", T::kBool, "false"}, {"FALSE", T::kBool, "false"},
      {"yEs", T::kString, "yEs"}, {"tRue", T::kString, "tRue"},
      // integers: Go's ParseInt(s, 0, 64) after removing '_'
      {"0", T::kInt, "0"}, {"-0", T::kInt, "0"}, {"12", T::kInt, "12"}, {"+12", T::kInt, "12"},
      {"-12", T::kInt, "-12"}, {"010", T::kInt, "8"}, {"-010", T::kInt, "-8"}, {"0x2", T::kInt, "2"},
      {"0x1F", T::kInt, "31"}, {"0X1f", T::kInt, "31"}, {"0o17", T::kInt, "15"}, {"0b101", T::kInt, "5"},
      {"-0b101", T::kInt, "-5"}, {"1_000", T::kInt, "1000"}, {"1__0", T::kInt, "10"},
      {"9223372036854775807", T::kInt, "9223372036854775807"},
      {"-9223372036854775808", T::kInt, "-9223372036854775808"},
      {"18446744073709551615", T::kInt, "18446744073709551615"},  // ParseUint
      // floats: go-yaml's yamlStyleFloat, printed as encoding/json prints a float64
      {"08", T::kFloat, "8"}, {"0.5", T::kFloat, "0.5"}, {"1.0", T::kFloat, "1"}, {"1e3", T::kFloat, "1000"},
      {"1E3", T::kFloat, "1000"}, {"-1.5e+2", T::kFloat, "-150"}, {".5", T::kFloat, "0.5"}, {"5.", T::kFloat, "5"},
      {"6.02e23", T::kFloat, "6.02e+23"}, {"1.5e20", T::kFloat, "150000000000000000000"}, {"1e21", T::kFloat, "1e+21"},
      {"1e-7", T::kFloat, "1e-7"}, {"0.000001", T::kFloat, "0.000001"},
      {"18446744073709551616", T::kFloat, "18446744073709552000"},  // past uint64: a float
      {"1_000.5", T::kFloat, "1000.5"},
      // special floats: JSON cannot hold them
      {".inf", T::kFloat, "+Inf"}, {"+.Inf", T::kFloat, "+Inf"}, {"-.INF", T::kFloat, "-Inf"},
      {".nan", T::kFloat, "NaN"},
      // strings
      {"1e400", T::kString, "1e400"}, {"0x", T::kString, "0x"}, {"0xg", T::kString, "0xg"},
      {"1.2.3", T::kString, "1.2.3"}, {"500m", T::kString, "500m"}, {"64Gi", T::kString, "64Gi"},
      {"2024-01-02", T::kString, "2024-01-02"}, {"inf", T::kString, "inf"}, {".infinity", T::kString, ".infinity"},
      {"_1", T::kString, "_1"}, {"+", T::kString, "+"}, {"-", T::kString, "-"}, {"<<", T::kString, "<<"},
      {"nvidia.com/gpu", T::kString, "nvidia.com/gpu"}, {"0x1p3", T::kString, "0x1p3"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    ResolvedScalar r = ResolveYamlScalar(c.in, "", true);
    EXPECT_EQ(Name(r.type), Name(c.type));
    EXPECT_EQ(r.text, c.json);
    EXPECT_EQ(r.json_ok, std::string(c.json) != "+Inf" && std::string(c.json) != "-Inf" && std::string(c.json) != "NaN");
    EXPECT_EQ(r.error, "");
  }
}

TEST(YamlResolveTest, QuotedScalarsAndTags) {
  struct Case {
    const char* in;
    const char* tag;
    bool plain;
    T type;
    const char* json;
    const char* error;
  };
  const Case cases[] = {
      {"010", "", false, T::kString, "010", ""},
      {"yes", "", false, T::kString, "yes", ""},
      {"~", "", false, T::kString, "~", ""},
      {"010", "tag:yaml.org,2002:str", true, T::kString, "010", ""},
      {"010", "tag:yaml.org,2002:int", false, T::kInt, "8", ""},
      {"1", "tag:yaml.org,2002:float", true, T::kFloat, "1", ""},
      {"yes", "tag:yaml.org,2002:bool", true, T::kBool, "true", ""},
      {"abc", "tag:yaml.org,2002:int", true, T::kString, "abc", "cannot decode !!str `abc` as a !!int"},
      {"1.5", "tag:yaml.org,2002:int", true, T::kString, "1.5", "cannot decode !!float `1.5` as a !!int"},
      {"5", "!custom", true, T::kString, "5", ""},
      {"5", "!", true, T::kString, "5", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.in) + " " + c.tag);
    ResolvedScalar r = ResolveYamlScalar(c.in, c.tag, c.plain);
    EXPECT_EQ(Name(r.type), Name(c.type));
    EXPECT_EQ(r.text, c.json);
    EXPECT_EQ(r.error, c.error);
  }
}

// Map keys as sigs.k8s.io/yaml's convertToJSONableObject writes them.
TEST(YamlResolveTest, KeysBecomeJsonStrings) {
  struct Case {
    const char* in;
    const char* key;
  };
  const Case cases[] = {{"n", "false"}, {"yes", "true"}, {"010", "8"}, {"0x1F", "31"}, {"1_000", "1000"},
                        {"1e3", "1000"}, {"1.5", "1.5"}, {"0.1", "0.1"}, {"08", "8"}, {"1e6", "1e+06"},
                        {"123456", "123456"}, {"1234567.0", "1.234567e+06"}, {"0.0001", "0.0001"},
                        {"0.00001", "1e-05"}, {".inf", ".inf"}, {"-.inf", "-.inf"}, {".nan", ".nan"},
                        {"2024-01-02", "2024-01-02"}, {"app", "app"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    std::string key, error;
    EXPECT_TRUE(YamlKeyToJson(ResolveYamlScalar(c.in, "", true), key, error));
    EXPECT_EQ(key, c.key);
  }
  std::string key, error;
  EXPECT_FALSE(YamlKeyToJson(ResolveYamlScalar("~", "", true), key, error));
  EXPECT_EQ(error, "unsupported map key of type: <nil>");
}

TEST(YamlResolveTest, FloatPrinting) {
  EXPECT_EQ(FormatJsonFloat(1000), "1000");
  EXPECT_EQ(FormatJsonFloat(-0.5), "-0.5");
  EXPECT_EQ(FormatJsonFloat(1e21), "1e+21");
  EXPECT_EQ(FormatJsonFloat(1.5e-7), "1.5e-7");
  EXPECT_EQ(FormatJsonFloat(1e-100), "1e-100");
  EXPECT_EQ(FormatFloat32G(0.1), "0.1");
  EXPECT_EQ(FormatFloat32G(100000), "100000");
  EXPECT_EQ(FormatFloat32G(1000000), "1e+06");
  EXPECT_EQ(FormatFloat32G(16777217), "1.6777216e+07");  // float32 rounding
  // Past float32's range a key is infinite (found by fuzzing: it overran).
  EXPECT_EQ(FormatFloat32G(1e300), ".inf");
  EXPECT_EQ(FormatFloat32G(-1e39), "-.inf");
  std::string key, error;
  EXPECT_TRUE(YamlKeyToJson(ResolveYamlScalar("1e300", "", true), key, error));
  EXPECT_EQ(key, ".inf");
}

}  // namespace
}  // namespace gpusched
