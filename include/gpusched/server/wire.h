// The scheduler extender's wire format, k8s.io/kube-scheduler/extender/v1
// (KS extender/v1/types.go): the request bodies kube-scheduler POSTs to
// <urlPrefix>/<verb> and the responses it reads, in Go's encoding/json form.
// The v1 structs have no json tags, so keys are the Go field names; decoding
// matches them ignoring case (as Go does, the last of several wins) and
// ignores unknown keys; nil pointers, slices and maps are `null`. Pod and Node
// values are core/v1 objects in the API's lower-case JSON.
//
// The decoders read a parsed body (a Document from io/json_documents.h) and
// return InvalidArgument with Go's wording ("json: cannot unmarshal string
// into Go struct field ExtenderArgs.NodeNames of type []string") for a value
// of the wrong type. Views into the Document are valid while it lives.
#ifndef GPUSCHED_SERVER_WIRE_H_
#define GPUSCHED_SERVER_WIRE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/io/document.h"
#include "gpusched/util/status.h"

namespace gpusched {

inline constexpr int64_t kMinExtenderPriority = 0;
inline constexpr int64_t kMaxExtenderPriority = 10;

// Parses `body` as exactly one JSON value (RFC 8259, io/json_documents.h's
// bounds) and calls `f` with it while the tree lives. InvalidArgument naming
// the line and column of a syntax error, an empty body or data after the
// value; `f` is not called then.
Status WithJsonBody(std::string_view body, const std::function<void(const DocNode&)>& f);

// ExtenderArgs: the body of filter and prioritize.
struct ExtenderArgs {
  DocNode pod;                        // Pod (an object; null is refused)
  bool has_nodes = false;             // Nodes is non-null (nodeCacheCapable: false)
  std::vector<DocNode> node_items;    // Nodes.items
  bool has_node_names = false;        // NodeNames is non-null (nodeCacheCapable: true)
  std::vector<std::string_view> node_names;
};
Status DecodeExtenderArgs(const DocNode& body, ExtenderArgs& out);

// The name of a Nodes.items[] entry (metadata.name), "" when it has none.
std::string_view NodeItemName(const DocNode& item);

// ExtenderBindingArgs: the body of bind.
struct ExtenderBindingArgs {
  std::string pod_name, pod_namespace, pod_uid, node;
};
Status DecodeExtenderBindingArgs(const DocNode& body, ExtenderBindingArgs& out);

// MetaVictims (and Victims reduced to the pods' UIDs, as kube-scheduler's
// convertToMetaVictims does).
struct MetaVictims {
  std::vector<std::string> pod_uids;
  int64_t num_pdb_violations = 0;
  bool operator==(const MetaVictims&) const = default;
};
using NodeToMetaVictims = std::map<std::string, MetaVictims>;

// ExtenderPreemptionArgs: the body of preempt. NodeNameToMetaVictims when the
// extender is nodeCacheCapable, NodeNameToVictims (full pods) otherwise;
// either is read into `victims` (the one given; the meta form when both are).
struct ExtenderPreemptionArgs {
  DocNode pod;
  bool has_victims = false;
  NodeToMetaVictims victims;
};
Status DecodeExtenderPreemptionArgs(const DocNode& body, ExtenderPreemptionArgs& out);

// ExtenderFilterResult. With node names (nodeCacheCapable) `node_names` is
// written and Nodes is null; otherwise `nodes` (the request's items that
// passed, echoed) is written as a NodeList and NodeNames is null.
struct ExtenderFilterResult {
  bool names = true;
  std::vector<std::string_view> node_names;
  std::vector<DocNode> nodes;
  std::map<std::string, std::string> failed;
  std::map<std::string, std::string> failed_unresolvable;
  std::string error;
};
std::string EncodeFilterResult(const ExtenderFilterResult& r);

struct HostPriority {
  std::string_view host;
  int64_t score = 0;
};
// HostPriorityList; an empty list is [] (never null).
std::string EncodeHostPriorityList(const std::vector<HostPriority>& list);

// ExtenderBindingResult.
std::string EncodeBindingResult(std::string_view error);

// ExtenderPreemptionResult (always the meta form).
std::string EncodePreemptionResult(const NodeToMetaVictims& victims);

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_WIRE_H_
