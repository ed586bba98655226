#include "image_decode.h"

#include <utility>
#include <vector>

namespace gpusched {

void DecodeNodeImages(DecodeContext& ctx, const DocNode& status, const std::string& path, Node& node) {
  std::vector<std::pair<std::string, int64_t>> names_sizes;
  for (const auto& [img, p] : ctx.Objects(status, "images", path)) {
    const int64_t size = ctx.Int(img, "sizeBytes", p + ".sizeBytes").value_or(0);
    for (std::string& name : ctx.Strings(img, "names", p + ".names")) names_sizes.emplace_back(std::move(name), size);
  }
  if (!names_sizes.empty()) node.SetImages(names_sizes);
}

void DecodeImageVolumes(DecodeContext& ctx, const DocNode& spec, const std::string& path, PodSpecExtras& extras) {
  const DocNode vols = spec["volumes"];
  if (!vols.IsSequence()) return;
  for (size_t i = 0; i < vols.size(); ++i) {
    const DocNode image = vols[i].IsMap() ? vols[i]["image"] : DocNode();
    if (!image.IsMap()) continue;
    std::string ref = ctx.Str(image, "reference", path + "[" + std::to_string(i) + "].image.reference");
    if (!ref.empty()) extras.image_volumes.push_back(std::move(ref));
  }
}

}  // namespace gpusched
