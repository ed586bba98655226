// libFuzzer target: the extender's request decoding and verbs (`gpusched
// serve`): the first byte picks filter, prioritize, preempt or bind, the rest
// is the body, served by an ExtenderService over a small static cluster.
// Nothing may crash; every answer is a status and a body. Filter and
// prioritize bodies also go through the plain path (the generic decoder and
// writers) and must get the same answer; and whatever the fast path's
// scanner (server/args_scanner.h) takes, the generic decoder must read the
// same way (same names, same pod): a difference aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/io/json_documents.h"
#include "gpusched/io/object_decoder.h"
#include "gpusched/sched/framework/profile_factory.h"
#include "gpusched/server/args_scanner.h"
#include "gpusched/server/extender.h"
#include "gpusched/server/go_json.h"
#include "gpusched/server/wire.h"

namespace {

gpusched::Node MakeNode(const char* json) {
  gpusched::Node out;
  gpusched::JsonStreamEvents ev;
  ev.end = [&](const gpusched::DocNode& n, size_t) { out = gpusched::DecodeNodeObject(n).value(); };
  gpusched::ParseJsonStream(json, 1, ev);
  return out;
}

gpusched::ExtenderService* MakeService(bool plain) {
  gpusched::ExtenderOptions options{true, 30, 1};
  options.plain = plain;
  auto* s = new gpusched::ExtenderService(
      [](const gpusched::ClusterView&) {
        return gpusched::BuildSchedulers(gpusched::DefaultSchedulerConfiguration(), "best-fit", 1);
      },
      options, nullptr, nullptr);
  std::vector<gpusched::Node> nodes = {
      MakeNode(R"({"metadata":{"name":"a"},"status":{"allocatable":{"cpu":"8","memory":"64Gi","pods":"110","nvidia.com/gpu":"4"}}})"),
      MakeNode(R"({"metadata":{"name":"b"},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]},"status":{"allocatable":{"cpu":"8","memory":"64Gi","pods":"110","nvidia.com/gpu":"8"}}})"),
      MakeNode(R"({"metadata":{"name":"c"},"status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"10"}}})")};
  s->Update([&](gpusched::ClusterView& v) { v.ReplaceNodes(nodes); });
  (void)s->MarkSynced();
  return s;
}

gpusched::ExtenderService& Service() {
  static gpusched::ExtenderService* service = MakeService(false);
  return *service;
}

gpusched::ExtenderService& PlainService() {
  static gpusched::ExtenderService* service = MakeService(true);
  return *service;
}

[[noreturn]] void Differ(const char* what, std::string_view body) {
  std::fprintf(stderr, "fast and generic paths differ (%s) on: %.*s\n", what, static_cast<int>(body.size()), body.data());
  std::abort();
}

// The scanner against the generic decoder.
void CheckScanner(std::string_view body) {
  gpusched::ScannedArgs a;
  if (!gpusched::ScanExtenderArgs(body, nullptr, a)) return;
  bool ok = false;
  std::vector<std::string_view> names;
  std::string pod, scanned_pod;
  std::vector<std::string> owned;
  (void)gpusched::WithJsonBody(body, [&](const gpusched::DocNode& root) {
    gpusched::ExtenderArgs g;
    if (!gpusched::DecodeExtenderArgs(root, g).ok() || !g.has_node_names || g.has_nodes) return;
    ok = true;
    owned.assign(g.node_names.begin(), g.node_names.end());
    gpusched::AppendDocJson(pod, g.pod);
  });
  // The fast path parses the pod's text alone: when that fails it leaves
  // the body to the generic path.
  if (!gpusched::WithJsonBody("[" + std::string(a.pod) + "]", [&](const gpusched::DocNode& root) {
         gpusched::AppendDocJson(scanned_pod, root[size_t{0}]);
       }).ok())
    return;
  if (!gpusched::WithJsonBody(body, [](const gpusched::DocNode&) {}).ok() || !ok) Differ("scanner took a refused body", body);
  if (owned != std::vector<std::string>(a.names.begin(), a.names.end())) Differ("names", body);
  if (pod != scanned_pod) Differ("pod", body);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  gpusched::ExtenderService& s = Service();
  switch (data[0] % 4) {
    case 0: {
      CheckScanner(body);
      const gpusched::Reply fast = s.Filter(body), plain = PlainService().Filter(body);
      if (fast.status != plain.status || fast.body != plain.body) Differ("filter", body);
      break;
    }
    case 1: {
      CheckScanner(body);
      const gpusched::Reply fast = s.Prioritize(body), plain = PlainService().Prioritize(body);
      if (fast.status != plain.status || fast.body != plain.body) Differ("prioritize", body);
      break;
    }
    case 2: (void)s.Preempt(body); break;
    default: {
      // Both services bind alike, so that their clusters stay the same.
      const gpusched::Reply fast = s.Bind(body), plain = PlainService().Bind(body);
      if (fast.status != plain.status || fast.body != plain.body) Differ("bind", body);
      break;
    }
  }
  return 0;
}
