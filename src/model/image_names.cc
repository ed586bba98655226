#include "gpusched/model/image_names.h"

#include <mutex>
#include <unordered_set>

namespace gpusched {
namespace {

struct Pool {
  std::mutex mu;
  // Node-based: the strings never move, so views into them stay valid.
  std::unordered_set<std::string> names;
};

Pool& ThePool() {
  static Pool* pool = new Pool;  // never destroyed: views may outlive static destruction
  return *pool;
}

}  // namespace

std::string_view InternImageName(std::string_view name) {
  Pool& p = ThePool();
  std::lock_guard<std::mutex> lock(p.mu);
  return *p.names.emplace(name).first;
}

std::string_view FindImageName(std::string_view name) {
  Pool& p = ThePool();
  std::lock_guard<std::mutex> lock(p.mu);
  auto it = p.names.find(std::string(name));
  return it == p.names.end() ? std::string_view() : std::string_view(*it);
}

std::string NormalizedImageName(std::string_view name) {
  // strings.LastIndex(name, ":") <= strings.LastIndex(name, "/"), -1 when absent.
  const size_t colon = name.rfind(':'), slash = name.rfind('/');
  const long c = colon == std::string_view::npos ? -1 : static_cast<long>(colon);
  const long s = slash == std::string_view::npos ? -1 : static_cast<long>(slash);
  std::string out(name);
  if (c <= s) out += ":latest";
  return out;
}

}  // namespace gpusched
