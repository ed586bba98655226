// Memory that the process's exit can return faster than a destructor.
//
// A command such as `schedule` on a million pods holds ~2 GiB of small
// objects; destroying them one by one after the output is written costs about a
// tenth of the run, for nothing when the process exits next. When main() says
// the process ends with the command (SetProcessExitsAfterCommand), KeepUntilExit
// keeps an object reachable (so leak checkers stay quiet) and never destroys it,
// as clang does with -disable-free. Otherwise -- in tests, which run commands in
// process -- the object is destroyed at once, as usual.
#pragma once

#include <memory>

namespace gpusched {

void SetProcessExitsAfterCommand(bool exits);
bool ProcessExitsAfterCommand();

namespace internal {
void KeepReachable(void* object);
}  // namespace internal

template <class T>
void KeepUntilExit(std::unique_ptr<T> object) {
  if (object && ProcessExitsAfterCommand()) internal::KeepReachable(object.release());
}

}  // namespace gpusched
