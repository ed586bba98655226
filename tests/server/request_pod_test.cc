// src/server/request_pod.cc: a pod's text decoded alone decodes as the
// generic path decodes ExtenderArgs.Pod inside the whole body: the same pod,
// refused where it is refused (an invalid quantity, text that does not
// parse), and the nesting bound counted as in the body.
#include "gpusched/server/request_pod.h"

#include <gtest/gtest.h>

#include "gpusched/io/object_decoder.h"
#include "gpusched/server/wire.h"

namespace gpusched {
namespace {

// The generic path's pod: the body {"Pod":<text>,"NodeNames":[]} decoded
// whole. Null when it is refused.
std::optional<Pod> Generic(const std::string& text) {
  std::optional<Pod> out;
  (void)WithJsonBody(R"({"Pod":)" + text + R"(,"NodeNames":[]})", [&](const DocNode& root) {
    ExtenderArgs a;
    if (!DecodeExtenderArgs(root, a).ok()) return;
    ObjectDecodeOptions opts;
    opts.strict = false;
    Result<DecodedPod> pod = DecodePodObject(a.pod, opts);
    if (pod.ok()) out = pod->pod;
  });
  return out;
}

TEST(RequestPodTest, DecodesAsTheGenericPath) {
  const std::string cases[] = {
      R"({"metadata":{"name":"p","namespace":"ml","uid":"u"},"spec":{"schedulerName":"gpusched","containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"4"},"limits":{"nvidia.com/gpu":"2"}}}]}})",
      R"({"metadata":{"name":"s","annotations":{"alibabacloud.com/gpu-milli":"500","alibabacloud.com/gpu-count":"1"}},"spec":{"containers":[{"name":"c","image":"i"}],"nodeSelector":{"zone":"a"}}})",
      R"({"metadata":{"name":"i"},"items":[1],"spec":{"containers":[{"name":"c","image":"i"}]}})",
  };
  for (const std::string& text : cases) {
    std::shared_ptr<const RequestPod> fast = DecodeRequestPod(text);
    std::optional<Pod> want = Generic(text);
    ASSERT_TRUE(want) << text;
    ASSERT_NE(fast, nullptr) << text;
    EXPECT_EQ(fast->text, text);
    EXPECT_EQ(fast->pod.meta.name, want->meta.name);
    EXPECT_EQ(fast->pod.meta.namespace_, want->meta.namespace_);
    EXPECT_EQ(fast->pod.meta.uid, want->meta.uid);
    EXPECT_EQ(fast->pod.node_selector, want->node_selector);
    EXPECT_EQ(fast->pod.meta.annotations, want->meta.annotations);
    const PodInfo info = PodInfo::Make(*want, 0);
    EXPECT_EQ(fast->info.pod, &fast->pod);
    EXPECT_EQ(fast->info.requests, info.requests);
    EXPECT_EQ(fast->info.gpu, info.gpu);
    EXPECT_EQ(fast->info.whole_gpus, info.whole_gpus);
  }
}

TEST(RequestPodTest, RefusedWhereTheGenericPathRefuses) {
  const std::string cases[] = {
      R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"lots"}}}]}})",
      R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]},})",
      R"({"metadata":{"name":"p"} "spec":{}})",
      "{\"metadata\":{\"name\":\"\xff\"}}",
  };
  for (const std::string& text : cases) {
    EXPECT_EQ(DecodeRequestPod(text), nullptr) << text;
    EXPECT_FALSE(Generic(text)) << text;
  }
  // Nested as deep as the reader allows in the body, and deeper.
  int taken = 0;
  for (int depth = 190; depth <= 200; ++depth) {
    const std::string text = R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]},"x":)" +
                             std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']') + "}";
    EXPECT_EQ(DecodeRequestPod(text) != nullptr, Generic(text).has_value()) << depth;
    taken += Generic(text).has_value();
  }
  EXPECT_EQ(taken, 9);  // 190..198: the innermost array at depth 200
}

}  // namespace
}  // namespace gpusched
