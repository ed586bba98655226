// Container image names as ImageLocality compares them: one interned copy
// per distinct name in the process, so that the thousands of nodes of a
// large dump that list the same images (Node status.images, usually a few
// names per image and tens of images per node) share the text, and a name
// is compared by its address. Thread-safe; names are never freed (their
// number is bounded by the distinct names of the inputs read).
#ifndef GPUSCHED_MODEL_IMAGE_NAMES_H_
#define GPUSCHED_MODEL_IMAGE_NAMES_H_

#include <string>
#include <string_view>

namespace gpusched {

// The interned copy of `name` (added when new).
std::string_view InternImageName(std::string_view name);
// The interned copy of `name`, or a view with data() == nullptr when no
// input has named it (then no node has it).
std::string_view FindImageName(std::string_view name);

// imagelocality's normalizedImageName: a name without a tag (no ':' after
// the last '/') gets ":latest" (parsers.DefaultImageTag); a digest
// ("name@sha256:...") and a tag are kept.
std::string NormalizedImageName(std::string_view name);

}  // namespace gpusched

#endif  // GPUSCHED_MODEL_IMAGE_NAMES_H_
