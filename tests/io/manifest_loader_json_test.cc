// The manifest loader on JSON as kubectl reads it: streams of concatenated
// objects, Lists read item by item and refused whole, syntax errors with
// line, column and Go's wording. The ordinary rules are in
// manifest_loader_test.cc, hostile input in manifest_loader_hostile_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpusched/io/manifest_loader.h"
#include "manifest_test_util.h"

namespace gpusched {
namespace {

using manifest_test::Load;

std::string Pod(const std::string& name, const std::string& extra = "") {
  return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name +
         "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]" + extra + "}}";
}

struct Outcome {
  std::vector<std::string> pods;
  std::vector<std::string> rejected;  // "object | file:line: message"
};

Outcome LoadJson(const std::string& text) {
  Manifests m = Load(text, "t.json");
  Outcome o;
  for (const auto& p : m.pods) o.pods.push_back(p.pod.name() + "@" + std::to_string(p.line));
  for (const auto& r : m.rejected) o.rejected.push_back(r.object + " | " + r.ToString());
  return o;
}

TEST(ManifestLoaderJsonTest, StreamsListsAndSyntaxErrors) {
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> pods;
    std::vector<std::string> rejected;
  };
  const std::vector<Case> cases = {
      // What `jq -c '.items[]'` writes: every object loads (kubectl reads them all).
      {"concatenated objects", Pod("a") + "\n" + Pod("b") + "\n" + Pod("c") + "\n", {"a@1", "b@2", "c@3"}, {}},
      {"concatenated without separators", Pod("a") + Pod("b"), {"a@1", "b@1"}, {}},
      // kubectl stops the stream at a syntax error; the objects before it stay.
      {"a syntax error ends a stream", Pod("a") + "\n" + Pod("b", ",") + "\n" + Pod("c") + "\n",
       {"a@1"},
       {" | t.json:2: cannot parse JSON at line 2, column 105: invalid character '}' looking for beginning of object "
        "key string"}},
      {"a List", "{\"apiVersion\":\"v1\",\"items\":[\n" + Pod("a") + ",\n" + Pod("b") + "\n],\"kind\":\"List\"}",
       {"a@2", "b@3"}, {}},
      // A List is decoded whole or not at all: an error in its last item takes
      // the items read before it back.
      {"a List with a syntax error in its last item",
       "{\"apiVersion\":\"v1\",\"items\":[\n" + Pod("a") + ",\n" + Pod("b", ",") + "\n],\"kind\":\"List\"}",
       {},
       {" | t.json:1: cannot parse JSON at line 3, column 105: invalid character '}' looking for beginning of object "
        "key string"}},
      {"a List without kind", "{\"items\":[\n" + Pod("a") + "\n]}", {}, {" | t.json:1: Object 'Kind' is missing"}},
      // A List, then a pod: the pod still loads when the List is refused.
      {"a refused List does not take the next object",
       "{\"items\":[\n" + Pod("a") + "\n]}\n" + Pod("b"), {"b@4"}, {" | t.json:1: Object 'Kind' is missing"}},
      {"an invalid item is refused alone",
       "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n" + Pod("a") + ",\n" + Pod("B") + "\n]}", {"a@2"},
       {"Pod/default/B | t.json:3: The Pod \"B\" is invalid: metadata.name: Invalid value: \"B\": a lowercase RFC 1123 "
        "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
      {"a byte order mark", "\xEF\xBB\xBF" + Pod("a"), {"a@1"}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    Outcome o = LoadJson(c.text);
    EXPECT_EQ(o.pods, c.pods);
    EXPECT_EQ(o.rejected, c.rejected);
  }
}

// Names taken by a refused List are free again for the objects after it.
TEST(ManifestLoaderJsonTest, RefusedListGivesBackItsNames) {
  Manifests m = Load("{\"items\":[\n" + Pod("a") + "\n]}\n" + Pod("a"), "t.json");
  ASSERT_EQ(m.pods.size(), 1u);
  EXPECT_EQ(m.pods[0].line, 4);
  EXPECT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.pod_keys.count("default/a"), 1u);
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

// A List over 64 MiB has the pages already read given back as it is read
// (ParseJsonStream's release_read): lines are counted before they go, so
// the line of every item, and of an error at the end, stays right.
TEST(ManifestLoaderJsonTest, LinesStayRightWhenALargeListReleasesItsPages) {
  const std::string pad(90000, 'x');
  auto item = [&](int i) {
    return "  {\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\n      \"name\": \"p" +
           std::to_string(i) + "\",\n      \"annotations\": {\"pad\": \"" + pad +
           "\"}\n    },\n    \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}\n  }";
  };
  const int n = 800;  // 800 x 90 KB: 72 MB
  std::string text = "{\n \"apiVersion\": \"v1\",\n \"kind\": \"List\",\n \"items\": [\n";
  // Blank lines after each item put page boundaries between an item's last
  // token and the next item.
  const std::string blank(5000, '\n');
  for (int i = 0; i < n; ++i) text += item(i) + blank + (i + 1 < n ? ",\n" : "\n");
  text += " ]\n}\n";
  std::string stream = text + "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"q\"},\n \"x\": 1,}\n";
  ASSERT_GT(stream.size(), size_t{64} << 20);
  Manifests m = Load(stream, "t.json");
  ASSERT_EQ(m.pods.size(), static_cast<size_t>(n));
  // Item i starts on line 5 + 5009 i.
  EXPECT_EQ(m.pods[0].line, 5);
  EXPECT_EQ(m.pods[n - 1].line, 5 + 5009 * (n - 1));
  const int list_end = 5 + 5009 * n + 1;  // "]" then "}" (the List's last line)
  ASSERT_EQ(m.rejected.size(), 1u);
  EXPECT_EQ(m.rejected[0].ToString(),
            "t.json:" + std::to_string(list_end + 1) + ": cannot parse JSON at line " + std::to_string(list_end + 2) +
                ", column 9: invalid character '}' looking for beginning of object key string");
}

}  // namespace
}  // namespace gpusched
