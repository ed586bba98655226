#include "gpusched/io/line_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gpusched {

LineReader::LineReader(std::ifstream file, size_t block_size, size_t max_line)
    : file_(std::move(file)), streaming_(true), max_line_(max_line), block_(std::max<size_t>(block_size, 1)) {}

bool LineReader::Next(std::string_view& line) {
  for (;;) {
    if (const size_t nl = unread_.find('\n'); nl != std::string_view::npos) {
      line = unread_.substr(0, nl);
      unread_.remove_prefix(nl + 1);
      break;
    }
    // The line goes on in the part of the file not read yet.
    if (streaming_ && Refill()) continue;
    if (unread_.empty()) return false;
    line = unread_;
    unread_ = {};
    break;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > max_line_) return StopTooLong();
  ++number_;
  return true;
}

bool LineReader::Refill() {
  const size_t kept = unread_.size();
  if (kept > 0) std::memmove(block_.data(), unread_.data(), kept);
  // One line fills the block: make room for the rest of it, up to the limit.
  if (kept == block_.size()) {
    if (kept > max_line_ + 1) return StopTooLong();  // + 1: its "\r"
    block_.resize(2 * block_.size());
  }
  file_.read(block_.data() + kept, static_cast<std::streamsize>(block_.size() - kept));
  const auto got = static_cast<size_t>(file_.gcount());
  unread_ = std::string_view(block_.data(), kept + got);
  if (got == 0) {
    // The end of the file, or an error that ends it early.
    failed_ = file_.bad();
    streaming_ = false;
    return false;
  }
  return true;
}

bool LineReader::StopTooLong() {
  too_long_ = true;
  streaming_ = false;
  unread_ = {};
  return false;
}

size_t LineReader::RemainingBound() {
  size_t n = static_cast<size_t>(std::count(unread_.begin(), unread_.end(), '\n'));
  if (streaming_) {
    const std::streampos here = file_.tellg();
    if (here != std::streampos(-1)) {
      std::vector<char> ahead(block_.size());
      while (file_.read(ahead.data(), static_cast<std::streamsize>(ahead.size())) || file_.gcount() > 0) {
        const auto got = static_cast<std::ptrdiff_t>(file_.gcount());
        n += static_cast<size_t>(std::count(ahead.data(), ahead.data() + got, '\n'));
      }
      file_.clear();
      file_.seekg(here);
    }
  } else if (unread_.empty()) {
    return 0;
  }
  // The last line may have no "\n".
  return n + 1;
}

}  // namespace gpusched
