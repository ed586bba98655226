// Decoding core/v1 objects (ObjectMeta, PodSpec, Node) from parsed YAML/JSON
// into the model; errors go to the DecodeContext. Public for readers that
// embed a Node manifest in their own format (siminput's SyntheticWorkload
// node events); a whole manifest goes through io/manifest_loader.h.
#ifndef GPUSCHED_IO_KUBE_DECODE_H_
#define GPUSCHED_IO_KUBE_DECODE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/io/decode_context.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

void DecodeObjectMeta(DecodeContext& ctx, const DocNode& obj, const std::string& path, ObjectMeta& meta);
// Decodes the pod spec at obj[spec] (path "spec" or "spec.template.spec").
void DecodePodSpec(DecodeContext& ctx, const DocNode& spec, const std::string& path, Pod& pod);
void DecodePod(DecodeContext& ctx, const DocNode& obj, Pod& pod);
void DecodeNode(DecodeContext& ctx, const DocNode& obj, Node& node);
// The nodeSelectorTerms list of parent (a NodeSelector: a PersistentVolume's
// spec.nodeAffinity.required), `path` naming the list.
std::vector<NodeSelectorTerm> DecodeNodeSelectorTerms(DecodeContext& ctx, const DocNode& parent,
                                                      const std::string& path);

// A metav1.Time as its JSON decoder reads it (time.Parse with RFC 3339:
// "2006-01-02T15:04:05Z07:00", optional fraction of a second, "Z" or an
// offset): nanoseconds since the Unix epoch, saturated at +-(INT64_MAX /
// 1e9 - 1) s (years before 1678 or after 2261), or nullopt when the text is
// not such a time.
std::optional<int64_t> ParseRfc3339(std::string_view text);

}  // namespace gpusched

#endif  // GPUSCHED_IO_KUBE_DECODE_H_
