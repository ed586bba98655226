#include "gpusched/util/exit_memory.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace gpusched {
namespace {

std::atomic<bool> g_exits{false};
std::mutex g_mu;
// Never freed: a global pointer keeps the kept objects reachable.
std::vector<void*>* g_kept = nullptr;

}  // namespace

void SetProcessExitsAfterCommand(bool exits) { g_exits = exits; }

bool ProcessExitsAfterCommand() { return g_exits; }

namespace internal {

void KeepReachable(void* object) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_kept == nullptr) g_kept = new std::vector<void*>();
  g_kept->push_back(object);
}

}  // namespace internal
}  // namespace gpusched
