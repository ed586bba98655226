// RequestPod: the Pod of a filter/prioritize request decoded once and kept
// by its JSON text (server/recent_texts.h): kube-scheduler sends /prioritize
// the same pod, marshalled the same, as the /filter before it.
//
// DecodeRequestPod parses the Pod object's text on its own (the rest of the
// body is the scanner's, server/args_scanner.h) and decodes it as the
// generic path decodes ExtenderArgs.Pod (DecodePodObject, not strict, source
// "request"). The text is parsed inside a one-element array so that it sits
// at the same depth as in the body (the reader's nesting bound counts from
// the top) and a top-level "items" key is not streamed. Null when the text
// does not parse or the pod is refused: the generic path then answers, with
// its message.
#ifndef GPUSCHED_SERVER_REQUEST_POD_H_
#define GPUSCHED_SERVER_REQUEST_POD_H_

#include <memory>
#include <string>
#include <string_view>

#include "gpusched/model/pod.h"
#include "gpusched/sched/api/pod_info.h"
#include "gpusched/server/recent_texts.h"

namespace gpusched {

struct RequestPod {
  std::string text;  // the Pod object's JSON text
  Pod pod;
  PodInfo info;  // PodInfo::Make(pod, 0)
};
using RequestPodCache = RecentTexts<RequestPod>;

std::shared_ptr<const RequestPod> DecodeRequestPod(std::string_view text);

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_REQUEST_POD_H_
