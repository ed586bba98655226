// RecentTexts<T>: the last few values the server derived from a piece of
// request text (a NodeNames array, a Pod object), found again by that exact
// text, so that the next request carrying the same bytes skips the work:
// kube-scheduler sends /prioritize the pod of the /filter before it and the
// names that filter answered, and the same node list for pod after pod.
//
// The key is the text itself, compared byte for byte (never a hash alone):
// equal bytes decode to equal values, so a hit gives exactly what decoding
// again would. Match finds an entry whose text `input` begins with; for a
// complete JSON value that is the value `input` starts with, as a JSON
// value's extent is fixed by its bytes. At most `capacity` entries, the most
// recently used first; entries are immutable and shared (a reader keeps its
// shared_ptr after another thread replaced it). Texts over `max_bytes` are not
// kept. Thread-safe.
#ifndef GPUSCHED_SERVER_RECENT_TEXTS_H_
#define GPUSCHED_SERVER_RECENT_TEXTS_H_

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched {

// T has a member `std::string text`: the key.
template <class T>
class RecentTexts {
 public:
  explicit RecentTexts(size_t capacity, size_t max_bytes = size_t{4} << 20)
      : capacity_(capacity), max_bytes_(max_bytes) {}

  // The entry whose text is a prefix of `input`, or null.
  std::shared_ptr<const T> Match(std::string_view input) const {
    std::vector<std::shared_ptr<const T>> candidates;
    {
      std::lock_guard<std::mutex> l(mu_);
      candidates = entries_;
    }
    // Compared outside the lock: a text can be a few hundred kB.
    for (const std::shared_ptr<const T>& e : candidates) {
      const std::string& t = e->text;
      if (t.size() <= input.size() && std::memcmp(t.data(), input.data(), t.size()) == 0) {
        Touch(e.get());
        return e;
      }
    }
    return nullptr;
  }

  // Adds `entry` first, replacing an entry with the same text.
  void Insert(std::shared_ptr<const T> entry) {
    if (!entry || entry->text.size() > max_bytes_ || capacity_ == 0) return;
    std::lock_guard<std::mutex> l(mu_);
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (entries_[i]->text == entry->text) {
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    if (entries_.size() >= capacity_) entries_.pop_back();
    entries_.insert(entries_.begin(), std::move(entry));
  }

  size_t size() const {
    std::lock_guard<std::mutex> l(mu_);
    return entries_.size();
  }

 private:
  // Moves `e` to the front if it is still held.
  void Touch(const T* e) const {
    std::lock_guard<std::mutex> l(mu_);
    for (size_t i = 1; i < entries_.size(); ++i) {
      if (entries_[i].get() == e) {
        std::shared_ptr<const T> hit = std::move(entries_[i]);
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(i));
        entries_.insert(entries_.begin(), std::move(hit));
        return;
      }
    }
  }

  size_t capacity_, max_bytes_;
  mutable std::mutex mu_;
  mutable std::vector<std::shared_ptr<const T>> entries_;  // most recently used first
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_RECENT_TEXTS_H_
