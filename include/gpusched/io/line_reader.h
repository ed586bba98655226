// LineReader: the lines of a text, each without its "\n" or "\r\n", numbered
// from 1, either from text already in memory or streamed from a file through
// one fixed-size block. Streaming keeps a million-row trace CSV (tens of MB)
// out of memory while the objects made from it are built: the loaders keep
// nothing that points into a line.
#ifndef GPUSCHED_IO_LINE_READER_H_
#define GPUSCHED_IO_LINE_READER_H_

#include <cstddef>
#include <fstream>
#include <string_view>
#include <vector>

namespace gpusched {

class LineReader {
 public:
  // Large enough that a read costs little per line, small enough to stay in
  // the cache.
  static constexpr size_t kDefaultBlockSize = size_t{1} << 20;

  // The longest line read (as a YAML value: kMaxYamlScalarBytes). A longer
  // one ends the reading (too_long()), so a hostile file costs at most a
  // few times this in memory, however long its lines.
  static constexpr size_t kMaxLineBytes = size_t{4} << 20;

  // Over `text`, which must outlive the reader (lines are views into it).
  explicit LineReader(std::string_view text, size_t max_line = kMaxLineBytes) : unread_(text), max_line_(max_line) {}
  // Streams `file` (opened in binary mode) from its current position. A line
  // longer than `block_size` grows the block.
  explicit LineReader(std::ifstream file, size_t block_size = kDefaultBlockSize, size_t max_line = kMaxLineBytes);

  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line, valid until the following call; false at the end. A final
  // line without "\n" is a line; the end of a text ending in "\n" is not.
  bool Next(std::string_view& line);
  // The number of the line Next returned last (0 before the first).
  int number() const { return number_; }
  // An upper bound on the lines still to come, to size output vectors once.
  // A streamed file is read ahead once for it (from the page cache, after
  // the first block: much cheaper than growing a vector of large objects).
  size_t RemainingBound();
  // A read of the file failed: the lines returned so far are all there is.
  bool failed() const { return failed_; }
  // Line number() + 1 is longer than max_line: Next stopped there.
  bool too_long() const { return too_long_; }
  size_t max_line() const { return max_line_; }

 private:
  // Moves the unread part of the block to its front and reads after it;
  // false when nothing more could be read.
  bool Refill();
  // Ends the reading at a line longer than max_line_; returns false.
  bool StopTooLong();

  std::string_view unread_;  // the caller's text, or the unread part of block_
  std::ifstream file_;
  bool streaming_ = false;
  bool failed_ = false;
  bool too_long_ = false;
  size_t max_line_ = kMaxLineBytes;
  std::vector<char> block_;
  int number_ = 0;
};

}  // namespace gpusched

#endif  // GPUSCHED_IO_LINE_READER_H_
