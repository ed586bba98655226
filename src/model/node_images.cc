// Node::images (node.h): a node's status.images as ImageLocality looks
// them up, one interned name per entry.
#include <algorithm>
#include <functional>

#include "gpusched/model/image_names.h"
#include "gpusched/model/node.h"

namespace gpusched {
namespace {

bool ByAddress(const NodeImage& a, const NodeImage& b) {
  return std::less<const char*>()(a.name.data(), b.name.data());
}

}  // namespace

int64_t Node::ImageSize(std::string_view interned) const {
  auto it = std::lower_bound(images.begin(), images.end(), NodeImage{interned, 0}, ByAddress);
  return it != images.end() && it->name.data() == interned.data() ? it->size_bytes : -1;
}

void Node::SetImages(const std::vector<std::pair<std::string, int64_t>>& names_sizes) {
  images.clear();
  images.reserve(names_sizes.size());
  for (const auto& [name, size] : names_sizes) images.push_back(NodeImage{InternImageName(name), size});
  // Stable: of a name listed twice the first entry stays first, and is kept.
  std::stable_sort(images.begin(), images.end(), ByAddress);
  images.erase(std::unique(images.begin(), images.end(),
                           [](const NodeImage& a, const NodeImage& b) { return a.name.data() == b.name.data(); }),
               images.end());
  images.shrink_to_fit();
}

}  // namespace gpusched
