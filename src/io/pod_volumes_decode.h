// Decoding a pod's spec.volumes into PodSpecExtras::volumes (model/
// pod_volume.h): the claim, ephemeral and inline sources the volume plugins
// read; other kinds are skipped (they take no part in scheduling). Private
// to src/io.
#ifndef GPUSCHED_IO_POD_VOLUMES_DECODE_H_
#define GPUSCHED_IO_POD_VOLUMES_DECODE_H_

#include <string>
#include <vector>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/pod_volume.h"

namespace gpusched {

// spec.volumes at `path`.
std::vector<PodVolume> DecodePodVolumes(DecodeContext& ctx, const DocNode& spec, const std::string& path);

// The in-tree or CSI source of a pod volume or PV spec (`node`), when it has
// one of the kinds the volume plugins tell apart; VolumeSource::kind stays
// "" otherwise.
VolumeSource DecodeVolumeSource(DecodeContext& ctx, const DocNode& node, const std::string& path);

}  // namespace gpusched

#endif  // GPUSCHED_IO_POD_VOLUMES_DECODE_H_
