// Decoding core/v1 objects (ObjectMeta, PodSpec, Node) from parsed YAML/JSON
// into the model; errors go to the DecodeContext. Public for readers that
// embed a Node manifest in their own format (siminput's SyntheticWorkload
// node events); a whole manifest goes through io/manifest_loader.h.
#ifndef GPUSCHED_IO_KUBE_DECODE_H_
#define GPUSCHED_IO_KUBE_DECODE_H_

#include <string>

#include "gpusched/io/decode_context.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

void DecodeObjectMeta(DecodeContext& ctx, const DocNode& obj, const std::string& path, ObjectMeta& meta);
// Decodes the pod spec at obj[spec] (path "spec" or "spec.template.spec").
void DecodePodSpec(DecodeContext& ctx, const DocNode& spec, const std::string& path, Pod& pod);
void DecodePod(DecodeContext& ctx, const DocNode& obj, Pod& pod);
void DecodeNode(DecodeContext& ctx, const DocNode& obj, Node& node);

}  // namespace gpusched

#endif  // GPUSCHED_IO_KUBE_DECODE_H_
