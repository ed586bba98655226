#include "gpusched/server/request_pod.h"

#include "gpusched/io/json_documents.h"
#include "gpusched/io/object_decoder.h"

namespace gpusched {

std::shared_ptr<const RequestPod> DecodeRequestPod(std::string_view text) {
  // The reader reads up to 64 bytes past the value (simdjson's padding):
  // with that much room it parses `wrapped` where it is.
  std::string wrapped;
  wrapped.reserve(text.size() + 2 + 64);
  wrapped += '[';
  wrapped.append(text);
  wrapped += ']';
  bool ok = false;
  int values = 0;
  auto out = std::make_shared<RequestPod>();
  JsonStreamEvents events;
  events.end = [&](const DocNode& root, size_t) {
    if (++values != 1 || root.size() != 1 || !root[size_t{0}].IsMap()) return;
    ObjectDecodeOptions opts;
    opts.strict = false;
    opts.source = "request";
    Result<DecodedPod> pod = DecodePodObject(root[size_t{0}], opts);
    if (!pod.ok()) return;
    out->pod = std::move(pod->pod);
    ok = true;
  };
  events.error = [&](int, const std::string&) { ok = false, values = 2; };
  ParseJsonStream(wrapped.data(), wrapped.size(), wrapped.capacity(), 1, events);
  if (!ok || values != 1) return nullptr;
  out->text.assign(text);
  out->info = PodInfo::Make(out->pod, 0);
  return out;
}

}  // namespace gpusched
