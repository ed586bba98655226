// Decoding what ImageLocality reads: a Node's status.images ({names,
// sizeBytes}) and a pod's image volumes (spec.volumes[].image.reference).
// Private to src/io.
#ifndef GPUSCHED_IO_IMAGE_DECODE_H_
#define GPUSCHED_IO_IMAGE_DECODE_H_

#include <string>

#include "gpusched/io/decode_context.h"
#include "gpusched/io/document.h"
#include "gpusched/model/node.h"
#include "gpusched/model/pod.h"

namespace gpusched {

// status.images into node.images (Node::SetImages).
void DecodeNodeImages(DecodeContext& ctx, const DocNode& status, const std::string& path, Node& node);

// The references of spec.volumes[].image (ImageVolume), the volumes that are
// objects with an image source; the volume decoders report the others.
void DecodeImageVolumes(DecodeContext& ctx, const DocNode& spec, const std::string& path, PodSpecExtras& extras);

}  // namespace gpusched

#endif  // GPUSCHED_IO_IMAGE_DECODE_H_
