#include "gpusched/io/line_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct Read {
  std::vector<std::string> lines;
  std::vector<int> numbers;
  size_t bound = 0;  // RemainingBound() before the first line
  bool failed = false;
};

Read ReadAll(LineReader& r) {
  Read out;
  out.bound = r.RemainingBound();
  std::string_view line;
  while (r.Next(line)) {
    out.lines.emplace_back(line);
    out.numbers.push_back(r.number());
  }
  out.failed = r.failed();
  return out;
}

// A file holding `text`, removed when the test ends; the pid keeps parallel
// test runs apart.
class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_((std::filesystem::temp_directory_path() / ("gpusched_line_reader_" + std::to_string(::getpid())))
                  .string()) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  std::ifstream Open() const { return std::ifstream(path_, std::ios::binary); }

 private:
  std::string path_;
};

struct LinesCase {
  const char* name;
  std::string text;
  std::vector<std::string> lines;
  size_t bound;  // RemainingBound() of the whole text
};

const LinesCase kCases[] = {
    {"empty", "", {}, 0},
    {"one line, no newline", "abc", {"abc"}, 1},
    {"one line", "abc\n", {"abc"}, 2},
    {"crlf", "a\r\nb\r\n", {"a", "b"}, 3},
    {"blank lines are lines", "\n\na\n\r\n", {"", "", "a", ""}, 5},
    {"last line without newline", "a\nbc", {"a", "bc"}, 2},
    {"a lone cr inside a line stays", "a\rb\n", {"a\rb"}, 2},
    {"long line", std::string(40, 'x') + "\ny\n", {std::string(40, 'x'), "y"}, 3},
};

TEST(LineReaderTest, TextInMemory) {
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.name);
    LineReader r(c.text);
    const Read got = ReadAll(r);
    EXPECT_EQ(got.lines, c.lines);
    EXPECT_EQ(got.bound, c.bound);
    EXPECT_FALSE(got.failed);
    for (size_t i = 0; i < got.numbers.size(); ++i) EXPECT_EQ(got.numbers[i], static_cast<int>(i + 1));
  }
}

TEST(LineReaderTest, StreamedFileGivesTheSameLinesWhateverTheBlockSize) {
  // Block sizes of 1 and 3 split every line, "\r\n" included, across reads;
  // a line longer than the block grows it.
  for (size_t block : {size_t{1}, size_t{3}, size_t{16}, LineReader::kDefaultBlockSize}) {
    for (const auto& c : kCases) {
      SCOPED_TRACE(std::string(c.name) + ", block " + std::to_string(block));
      TempFile f(c.text);
      LineReader r(f.Open(), block);
      const Read got = ReadAll(r);
      EXPECT_EQ(got.lines, c.lines);
      // A file is counted ahead from its current position: the same bound,
      // except that an empty file may still have a last line to come.
      EXPECT_EQ(got.bound, c.text.empty() ? 1 : c.bound);
      EXPECT_FALSE(got.failed);
    }
  }
}

TEST(LineReaderTest, RemainingBoundAfterSomeLines) {
  const std::string text = "h\na\nb\nc";
  TempFile f(text);
  LineReader file(f.Open(), 2);
  LineReader mem(text);
  for (LineReader* r : {&file, &mem}) {
    std::string_view line;
    ASSERT_TRUE(r->Next(line));
    EXPECT_EQ(line, "h");
    // "a\nb\nc": two newlines and a last line without one.
    EXPECT_EQ(r->RemainingBound(), 3u);
    // Counting ahead does not move the reader.
    ASSERT_TRUE(r->Next(line));
    EXPECT_EQ(line, "a");
    EXPECT_EQ(r->number(), 2);
  }
}

TEST(LineReaderTest, ALineLongerThanTheLimitEndsTheReading) {
  // Limit 8: "12345678" is the longest line read ("\r\n" not counted); the
  // reading stops at line 3, whatever the block size, and says so.
  const std::string text = "12345678\r\nab\n" + std::string(100, 'x') + "\nafter\n";
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> lines;
    bool too_long;
  };
  const Case cases[] = {
      {"stops at the long line", text, {"12345678", "ab"}, true},
      {"a last line without newline", "ab\n123456789", {"ab"}, true},
      {"a line of exactly the limit", "12345678\n", {"12345678"}, false},
  };
  for (const Case& c : cases) {
    for (size_t block : {size_t{0}, size_t{1}, size_t{3}, size_t{16}, size_t{1024}}) {  // 0: in memory
      SCOPED_TRACE(std::string(c.name) + ", block " + std::to_string(block));
      TempFile f(c.text);
      LineReader streamed(f.Open(), block, 8);
      LineReader mem(c.text, 8);
      LineReader& r = block == 0 ? mem : streamed;
      const Read got = ReadAll(r);
      EXPECT_EQ(got.lines, c.lines);
      EXPECT_EQ(r.too_long(), c.too_long);
      EXPECT_EQ(r.number(), static_cast<int>(c.lines.size()));
      EXPECT_FALSE(got.failed);
    }
  }
}

TEST(LineReaderTest, UnreadableStreamEndsWithoutLines) {
  // A stream that failed to open reads as nothing; it is not a read error
  // (the loaders check that the file opened).
  LineReader r(std::ifstream("/nonexistent/gpusched-line-reader"), 16);
  const Read got = ReadAll(r);
  EXPECT_TRUE(got.lines.empty());
  EXPECT_FALSE(got.failed);
}

}  // namespace
}  // namespace gpusched
