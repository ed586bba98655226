#include "gpusched/cli/progress.h"

#include <unistd.h>

#include <algorithm>

namespace gpusched {

ProgressBar::ProgressBar(std::ostream& err, std::string label, bool enabled)
    : err_(err), label_(std::move(label)), enabled_(enabled) {}

ProgressBar::~ProgressBar() { Done(); }

bool ProgressBar::StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

void ProgressBar::Update(double fraction) {
  if (!enabled_) return;
  const int percent = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100);
  if (percent == last_percent_) return;
  last_percent_ = percent;
  constexpr int kWidth = 30;
  const int filled = percent * kWidth / 100;
  err_ << "\r" << label_ << " [" << std::string(static_cast<size_t>(filled), '#')
       << std::string(static_cast<size_t>(kWidth - filled), ' ') << "] " << percent << "%" << std::flush;
  drawn_ = true;
}

void ProgressBar::Done() {
  if (!drawn_) return;
  // Erase the line so the next output starts clean.
  err_ << "\r" << std::string(label_.size() + 40, ' ') << "\r" << std::flush;
  drawn_ = false;
}

}  // namespace gpusched
