// TemplateKey: the canonical text of a pod template's fields gpusched reads
// (labels without pod-template-hash, annotations, containers' names, images,
// resources and restart policies, overhead and the scheduling fields). Two
// templates with equal keys are equal on those fields, as the Deployment
// controller's EqualIgnoreHash compares whole templates
// (pkg/controller/deployment/util). Also the content generateName hashes.
#ifndef GPUSCHED_CONTROLLERS_TEMPLATE_KEY_H_
#define GPUSCHED_CONTROLLERS_TEMPLATE_KEY_H_

#include <string>

#include "gpusched/model/pod.h"

namespace gpusched {

std::string TemplateKey(const Pod& tmpl);

}  // namespace gpusched

#endif  // GPUSCHED_CONTROLLERS_TEMPLATE_KEY_H_
