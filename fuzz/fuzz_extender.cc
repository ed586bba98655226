// libFuzzer target: the extender's request decoding and verbs (`gpusched
// serve`): the first byte picks filter, prioritize, preempt or bind, the rest
// is the body, served by an ExtenderService over a small static cluster.
// Nothing may crash; every answer is a status and a body.
#include <cstdint>
#include <string_view>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/json_documents.h"
#include "gpusched/io/object_decoder.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/server/extender.h"

namespace {

gpusched::Node MakeNode(const char* json) {
  gpusched::Node out;
  gpusched::JsonStreamEvents ev;
  ev.end = [&](const gpusched::DocNode& n, size_t) { out = gpusched::DecodeNodeObject(n).value(); };
  gpusched::ParseJsonStream(json, 1, ev);
  return out;
}

gpusched::ExtenderService& Service() {
  static gpusched::ExtenderService* service = [] {
    auto* s = new gpusched::ExtenderService(
        [](const gpusched::ClusterView&) {
          return gpusched::BuildSchedulers(gpusched::DefaultSchedulerConfiguration(), "best-fit", 1);
        },
        gpusched::ExtenderOptions{true, 30, 1}, nullptr, nullptr);
    std::vector<gpusched::Node> nodes = {
        MakeNode(R"({"metadata":{"name":"a"},"status":{"allocatable":{"cpu":"8","memory":"64Gi","pods":"110","nvidia.com/gpu":"4"}}})"),
        MakeNode(R"({"metadata":{"name":"b"},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]},"status":{"allocatable":{"cpu":"8","memory":"64Gi","pods":"110","nvidia.com/gpu":"8"}}})"),
        MakeNode(R"({"metadata":{"name":"c"},"status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"10"}}})")};
    s->Update([&](gpusched::ClusterView& v) { v.ReplaceNodes(nodes); });
    (void)s->MarkSynced();
    return s;
  }();
  return *service;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  gpusched::ExtenderService& s = Service();
  switch (data[0] % 4) {
    case 0: (void)s.Filter(body); break;
    case 1: (void)s.Prioritize(body); break;
    case 2: (void)s.Preempt(body); break;
    default: (void)s.Bind(body); break;
  }
  return 0;
}
