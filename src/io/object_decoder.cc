#include "gpusched/io/object_decoder.h"

#include "object_loader.h"

namespace gpusched {
namespace {

Status Refused(const Manifests& m) {
  const InputError& e = m.rejected.front();
  return Status::InvalidArgument(e.message);
}

}  // namespace

Result<DecodedPod> DecodePodObject(const DocNode& obj, const ObjectDecodeOptions& options) {
  Manifests m;
  LoadTypedObject(Source{options.source, m}, obj, "Pod", options.strict);
  if (!m.rejected.empty()) return Refused(m);
  DecodedPod out;
  if (!m.pods.empty()) {
    out.pod = std::move(m.pods.front().pod);
  } else if (!m.terminal_pods.empty()) {
    out.pod = std::move(m.terminal_pods.front().pod);
    out.terminated = true;
  } else {
    return Status::InvalidArgument("no pod decoded");
  }
  out.warnings = std::move(m.warnings);
  return out;
}

Result<Node> DecodeNodeObject(const DocNode& obj, const ObjectDecodeOptions& options) {
  Manifests m;
  LoadTypedObject(Source{options.source, m}, obj, "Node", options.strict);
  if (!m.rejected.empty()) return Refused(m);
  if (m.nodes.empty()) return Status::InvalidArgument("no node decoded");
  return std::move(m.nodes.front().node);
}

Result<ApiObjects> DecodeApiObject(const DocNode& obj, const std::string& kind, const std::string& api_version,
                                   const ObjectDecodeOptions& options) {
  Manifests m;
  LoadTypedApiObject(Source{options.source, m, options.strict}, obj, kind, api_version);
  if (!m.rejected.empty()) return Refused(m);
  return std::move(m.api_objects);
}

}  // namespace gpusched
