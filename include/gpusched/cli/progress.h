// ProgressBar: a one-line bar on stderr for long runs, drawn only when
// stderr is a terminal (a log file or CI output stays quiet), redrawn at
// most every 1%, and erased when done.
#ifndef GPUSCHED_CLI_PROGRESS_H_
#define GPUSCHED_CLI_PROGRESS_H_

#include <ostream>
#include <string>

namespace gpusched {

class ProgressBar {
 public:
  // `enabled` is normally IsTerminal(stderr); tests pass true.
  ProgressBar(std::ostream& err, std::string label, bool enabled);
  ~ProgressBar();
  void Update(double fraction);  // 0..1
  void Done();

  // True when file descriptor 2 is a terminal.
  static bool StderrIsTerminal();

 private:
  std::ostream& err_;
  std::string label_;
  bool enabled_;
  int last_percent_ = -1;
  bool drawn_ = false;
};

}  // namespace gpusched

#endif  // GPUSCHED_CLI_PROGRESS_H_
