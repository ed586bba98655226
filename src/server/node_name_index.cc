#include "gpusched/server/node_name_index.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace gpusched {

namespace {

uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

uint64_t Load4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

}  // namespace

uint32_t NodeNameIndex::Hash(std::string_view s) {
  // Eight bytes at a time, the last eight overlapping (no loop over a tail),
  // each word multiplied in and folded: a request resolves thousands of names
  // of a dozen or two bytes each.
  const char* p = s.data();
  const size_t n = s.size();
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  auto mix = [&h](uint64_t w) {
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) mix(Load8(p + i));
    mix(Load8(p + n - 8));
  } else if (n >= 4) {
    mix(Load4(p) | Load4(p + n - 4) << 32);
  } else if (n > 0) {
    mix(uint64_t{static_cast<uint8_t>(p[0])} | uint64_t{static_cast<uint8_t>(p[n / 2])} << 8 |
        uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  h *= 0xc4ceb9fe1a85ec53ull;
  return static_cast<uint32_t>(h >> 32);
}

NodeNameIndex::NodeNameIndex(const ClusterState& cluster)
    : serial_(cluster.serial()), nodes_version_(cluster.nodes_version()), size_(cluster.size()) {
  const size_t capacity = std::bit_ceil(std::max<size_t>(16, 2 * cluster.num_present()));
  slots_.resize(capacity);
  offset_.push_back(0);
  for (size_t i = 0; i < cluster.size(); ++i) {
    if (!cluster.present(i)) continue;
    const std::string& name = cluster.node(i).meta.name;
    const uint32_t h = Hash(name);
    // A name present twice: the later slot wins, as in ClusterState's map.
    size_t k = h & (capacity - 1);
    for (; slots_[k].entry != 0; k = (k + 1) & (capacity - 1)) {
      const Slot& s = slots_[k];
      const uint32_t e = s.entry - 1;
      if (s.hash == h && std::string_view(names_).substr(offset_[e], offset_[e + 1] - offset_[e]) == name) break;
    }
    if (slots_[k].entry != 0) {
      node_[slots_[k].entry - 1] = static_cast<uint32_t>(i);
      continue;
    }
    node_.push_back(static_cast<uint32_t>(i));
    names_ += name;
    offset_.push_back(static_cast<uint32_t>(names_.size()));
    slots_[k] = Slot{h, static_cast<uint32_t>(node_.size())};
  }
}

int64_t NodeNameIndex::Find(std::string_view name) const {
  const uint32_t h = Hash(name);
  const size_t mask = slots_.size() - 1;
  for (size_t k = h & mask;; k = (k + 1) & mask) {
    const Slot& s = slots_[k];
    if (s.entry == 0) return -1;
    if (s.hash != h) continue;
    const uint32_t e = s.entry - 1;
    const size_t len = offset_[e + 1] - offset_[e];
    if (len == name.size() && (len == 0 || std::memcmp(names_.data() + offset_[e], name.data(), len) == 0)) return node_[e];
  }
}

}  // namespace gpusched

namespace gpusched {

uint32_t NodeNameIndex::Rank(size_t slot) const {
  std::call_once(ranked_, [this] {
    auto name = [this](uint32_t e) { return std::string_view(names_).substr(offset_[e], offset_[e + 1] - offset_[e]); };
    std::vector<uint32_t> order(node_.size());
    for (uint32_t e = 0; e < order.size(); ++e) order[e] = e;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return name(a) < name(b); });
    rank_.assign(size_, 0);
    for (uint32_t r = 0; r < order.size(); ++r) rank_[node_[order[r]]] = r;
  });
  return rank_[slot];
}

}  // namespace gpusched
