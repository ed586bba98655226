// The warning for pods that mount PersistentVolumeClaims in an input that
// holds none (most often a dump that did not ask kubectl for them): every
// such pod stays pending, as kube-scheduler keeps it.
#ifndef GPUSCHED_MODEL_VOLUME_CLAIMS_WARNING_H_
#define GPUSCHED_MODEL_VOLUME_CLAIMS_WARNING_H_

#include <string>
#include <vector>

#include "gpusched/model/pod.h"
#include "gpusched/model/volume_objects.h"

namespace gpusched {

// "" when there is nothing to say.
std::string ClaimsWithoutObjectsWarning(const std::vector<const Pod*>& pods, const VolumeObjects& objects);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_VOLUME_CLAIMS_WARNING_H_
