// NameSet: the names of the objects loaded from one file, to refuse a name
// given twice ("pods \"a\" already exists") in a million-row trace at the
// cost of one small slot per row.
//
// A slot holds the position of the object loaded under a name (the name is
// read back from there, through the caller's name_at, so the set keeps
// neither the file's text nor copies of the names: the file can be streamed)
// and the top 32 bits of the name's hash, 8 bytes in one flat array with open
// addressing. The slot is a cache miss per row: with std::unordered_set (a
// node allocation and a miss per row) that took a quarter of the load time
// of a million-row file, and with 32-byte slots still a fifth; hence the
// small slots, and Prefetch so the miss overlaps the parsing of the row.
#ifndef GPUSCHED_IO_NAME_SET_H_
#define GPUSCHED_IO_NAME_SET_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched {

// NameAt: callable as name_at(size_t pos) -> std::string_view.
template <typename NameAt>
class NameSet {
 public:
  // `expected`: how many names it will probably hold (the file's line count),
  // to size the array once; more only cost a rehash.
  NameSet(size_t expected, NameAt name_at) : name_at_(std::move(name_at)) { Rehash(expected); }

  // The hash of `name`, for Insert; its slot is fetched meanwhile.
  uint64_t Prefetch(std::string_view name) const {
    const uint64_t hash = Hash(name);
    __builtin_prefetch(&slots_[hash & mask_]);
    return hash;
  }

  // False when `name` (whose Prefetch gave `hash`) is in the set already;
  // else records that the object at `pos` (< 2^32 - 1) has it.
  bool Insert(std::string_view name, uint64_t hash, size_t pos) {
    if (2 * (size_ + 1) > slots_.size()) Rehash(size_ + 1);
    const auto tag = static_cast<uint32_t>(hash >> 32);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.pos == 0) {
        s = Slot{static_cast<uint32_t>(pos + 1), tag};
        ++size_;
        return true;
      }
      if (s.tag == tag && name_at_(s.pos - 1) == name) return false;
    }
  }

  size_t size() const { return size_; }
  size_t capacity() const { return slots_.size(); }

 private:
  struct Slot {
    uint32_t pos = 0;  // position + 1; 0 = empty
    uint32_t tag = 0;
  };

  static uint64_t Hash(std::string_view name) { return std::hash<std::string_view>{}(name); }

  // At most half full, so probe sequences stay short.
  void Rehash(size_t names) {
    size_t capacity = 16;
    while (capacity < 2 * names) capacity <<= 1;
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
    mask_ = capacity - 1;
    for (const Slot& o : old) {
      if (o.pos == 0) continue;
      size_t i = Hash(name_at_(o.pos - 1)) & mask_;
      while (slots_[i].pos != 0) i = (i + 1) & mask_;
      slots_[i] = o;
    }
  }

  NameAt name_at_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_IO_NAME_SET_H_
