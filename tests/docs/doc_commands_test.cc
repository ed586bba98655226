// DocCommandsTest: every command block of README.md, docs/*.md and examples/**/*.md is run against the
// built binary, and the output it shows is compared with what the binary prints now. One test per block,
// named after its file and the line of its opening fence (README.md line 179: README_md_L179). The rules
// (which blocks are commands, what their output is, elisions, the markers) are in docs/tests.md, section
// "Documentation that cannot drift".
//
// A block runs as a bash script in a private directory holding symlinks to the checkout's examples/,
// data/, deploy/, scripts/ and docs/ and build/gpusched -> the binary under test (GPUSCHED_BINARY), so
// ./build/gpusched is this build's binary whatever its build directory is, and files a command writes
// (out/, report.html, cluster.json) stay out of the checkout.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

const std::string kSource = GPUSCHED_SOURCE_DIR;
const std::string kBinary = GPUSCHED_BINARY;

// One command as typed (continuation lines joined with their newlines) and the output shown after it.
struct Step {
  std::string command;
  std::vector<std::string> expected;
  bool compare = false;  // false: the block shows no output for it
};

enum class Kind { kCommands, kSynopsis, kJsonKeys, kUnmarked };

struct Block {
  std::string file;  // relative to the checkout
  int line = 0;      // the opening fence's line, 1-based
  Kind kind = Kind::kCommands;
  std::vector<Step> steps;
  std::vector<std::string> body;  // kSynopsis, kJsonKeys, kUnmarked: the block's lines
  std::string json_command;       // kJsonKeys: the command whose output the block's keys describe
  std::optional<std::string> skip;
  int exit_code = 0;          // what the last command exits with (marker "exit N")
  bool whole_output = false;  // a ```sh block followed by its output block: one output for all commands
  std::string error;          // a malformed block or marker
};

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Whether the command text typed so far needs another line: a trailing backslash or an open quote.
bool Continues(const std::string& text) {
  bool single = false, dbl = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (single) {
      if (c == '\'') single = false;
    } else if (c == '\\') {
      if (i + 1 == text.size()) return true;
      ++i;
    } else if (c == '\'' && !dbl) {
      single = true;
    } else if (c == '"') {
      dbl = !dbl;
    } else if (c == '#' && !dbl && (i == 0 || text[i - 1] == ' ')) {
      while (i < text.size() && text[i] != '\n') ++i;
    }
  }
  return single || dbl;
}

bool IsShellInfo(const std::string& info) { return info == "sh" || info == "bash" || info == "shell"; }

// The commands of a ```sh block, each with its continuation lines.
std::vector<std::string> ShellCommands(const std::vector<std::string>& body) {
  std::vector<std::string> commands;
  std::string current;
  for (const std::string& line : body) {
    if (current.empty() && (Trim(line).empty() || Trim(line)[0] == '#')) continue;
    current += current.empty() ? line : "\n" + line;
    if (!Continues(current)) commands.push_back(std::exchange(current, ""));
  }
  if (!current.empty()) commands.push_back(current);
  return commands;
}

// A console block: "$ command" lines (with their continuation lines), each followed by its output.
std::vector<Step> ConsoleSteps(const std::vector<std::string>& body) {
  std::vector<Step> steps;
  for (size_t i = 0; i < body.size();) {
    Step step;
    step.command = body[i].substr(2);
    ++i;
    while (Continues(step.command) && i < body.size()) step.command += "\n" + body[i++];
    while (i < body.size() && body[i].rfind("$ ", 0) != 0) step.expected.push_back(body[i++]);
    step.compare = true;
    steps.push_back(step);
  }
  return steps;
}

// Every fenced block of one markdown file. A marker is an HTML comment `<!-- doc-test: ... -->` on the
// lines just before a block's opening fence (blank lines between allowed).
std::vector<Block> ParseFile(const std::string& rel) {
  const std::vector<std::string> lines = ReadLines(kSource + "/" + rel);
  std::vector<Block> blocks;
  std::string marker;
  int marker_line = -1;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = Trim(lines[i]);
    if (t.rfind("<!-- doc-test:", 0) == 0) {
      size_t end = t.find("-->");
      marker = Trim(t.substr(14, end == std::string::npos ? std::string::npos : end - 14));
      marker_line = static_cast<int>(i);
      continue;
    }
    if (lines[i].rfind("```", 0) != 0) {
      if (!t.empty()) marker.clear();
      continue;
    }
    Block b;
    b.file = rel;
    b.line = static_cast<int>(i) + 1;
    const std::string info = Trim(lines[i].substr(3));
    size_t j = i + 1;
    while (j < lines.size() && lines[j].rfind("```", 0) != 0) b.body.push_back(lines[j++]);
    if (j == lines.size()) b.error = "the block is never closed";
    i = j;
    // Its output: the next block, when only blank lines separate them and it is not itself commands.
    std::optional<std::vector<std::string>> output;
    if (IsShellInfo(info)) {
      size_t k = i + 1;
      while (k < lines.size() && Trim(lines[k]).empty()) ++k;
      if (k < lines.size() && lines[k].rfind("```", 0) == 0 && !IsShellInfo(Trim(lines[k].substr(3)))) {
        std::vector<std::string> out;
        size_t m = k + 1;
        while (m < lines.size() && lines[m].rfind("```", 0) != 0) out.push_back(lines[m++]);
        output = out;
        i = m;
      }
    }
    const std::string mark = std::exchange(marker, "");
    (void)marker_line;
    if (mark.rfind("text:", 0) == 0) continue;  // not a command, nor a command's output
    if (mark.rfind("skip:", 0) == 0) {
      b.skip = Trim(mark.substr(5));
    } else if (mark == "synopsis") {
      b.kind = Kind::kSynopsis;
    } else if (mark.rfind("json-keys:", 0) == 0) {
      b.kind = Kind::kJsonKeys;
      b.json_command = Trim(mark.substr(10));
    } else if (mark.rfind("exit ", 0) == 0) {
      b.exit_code = std::atoi(mark.c_str() + 5);
    } else if (!mark.empty()) {
      b.error = "unknown marker <!-- doc-test: " + mark + " -->";
    }
    if (b.kind == Kind::kSynopsis || b.kind == Kind::kJsonKeys) {
      blocks.push_back(b);
      continue;
    }
    const bool console = !b.body.empty() && b.body[0].rfind("$ ", 0) == 0;
    if (IsShellInfo(info)) {
      for (const std::string& c : ShellCommands(b.body)) b.steps.push_back({c, {}, false});
      if (b.steps.empty()) b.error = "a ```sh block without a command";
      if (output && !b.steps.empty()) {
        b.whole_output = true;
        b.steps.back().expected = *output;
        b.steps.back().compare = true;
      }
    } else if (console) {
      b.steps = ConsoleSteps(b.body);
    } else {
      b.kind = Kind::kUnmarked;
    }
    blocks.push_back(b);
  }
  return blocks;
}

std::vector<std::string> DocFiles() {
  std::vector<std::string> files = {"README.md"};
  std::vector<std::string> more;
  for (const char* dir : {"docs", "examples"}) {
    for (const auto& e : fs::recursive_directory_iterator(kSource + "/" + dir)) {
      if (e.is_regular_file() && e.path().extension() == ".md") {
        more.push_back(fs::relative(e.path(), kSource).string());
      }
    }
  }
  std::sort(more.begin(), more.end());
  files.insert(files.end(), more.begin(), more.end());
  return files;
}

std::string TestName(const Block& b) {
  std::string name;
  for (char c : b.file) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_L" + std::to_string(b.line);
}

// Expected lines against actual ones: a line that is exactly "..." (leading blanks aside) stands for any
// number of lines, none included; every other line must be equal, byte for byte.
bool Matches(const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
  // match[i][j]: expected[i..] matches actual[j..].
  std::vector<std::vector<char>> match(expected.size() + 1, std::vector<char>(actual.size() + 1, 0));
  match[expected.size()][actual.size()] = 1;
  for (size_t i = expected.size(); i-- > 0;) {
    const bool gap = Trim(expected[i]) == "...";
    for (size_t j = actual.size() + 1; j-- > 0;) {
      if (gap) {
        match[i][j] = match[i + 1][j] || (j < actual.size() && match[i][j + 1]);
      } else {
        match[i][j] = j < actual.size() && expected[i] == actual[j] && match[i + 1][j + 1];
      }
    }
  }
  return match[0][0];
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// A private directory that looks like the checkout with ./build/gpusched built.
std::string MakeWorkDir() {
  std::string dir = ::testing::TempDir() + "/doc-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) return "";
  for (const char* entry : {"examples", "data", "deploy", "scripts", "docs", "bench", "README.md"}) {
    fs::create_symlink(kSource + "/" + entry, dir + "/" + entry);
  }
  fs::create_directory(dir + "/build");
  fs::create_symlink(kBinary, dir + "/build/gpusched");
  return dir;
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string Numbered(const std::vector<std::string>& lines) {
  std::string s;
  for (size_t i = 0; i < lines.size(); ++i) s += "  " + std::to_string(i + 1) + "\t" + lines[i] + "\n";
  return s;
}

void RunCommands(const Block& b) {
  const std::string dir = MakeWorkDir();
  ASSERT_FALSE(dir.empty());
  const std::string port = std::to_string(FreePort());
  // The script: each command's stderr, then its stdout, appended to `capture` (warnings and errors come
  // before the report, as a terminal shows them), with a newline added when the output lacks its last
  // one; each exit status to `status`. A command ending in `&` runs in the background, writing to
  // `capture` directly; the next command waits (10 s at most) until `capture` holds the lines the block
  // shows for it. Background jobs are stopped when the script ends.
  std::string script = "cd " + Quote(dir) + " || exit 99\nset -o pipefail\n" +
                       "trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT\n: > .capture; : > .status\n";
  size_t shown = 0;  // lines shown so far (a background command's wait target)
  for (const Step& step : b.steps) {
    const std::string command = ReplaceAll(step.command, "127.0.0.1:8888", "127.0.0.1:" + port);
    std::string trimmed = Trim(command);
    if (!trimmed.empty() && trimmed.back() == '&' && trimmed.substr(trimmed.size() - 2) != "&&") {
      trimmed.pop_back();
      script += trimmed + " >> .capture 2>&1 &\n";  // a simple command: its job is the process itself
      shown += step.expected.size();
      script += "for _ in $(seq 100); do (( $(wc -l < .capture) >= " + std::to_string(shown) +
                " )) && break; sleep 0.1; done\n";
      continue;
    }
    script += "{ " + command + "\n} > .out 2> .err\necho $? >> .status\ncat .err .out >> .capture\n" +
              "[[ -s .capture && $(tail -c1 .capture | wc -l) -eq 0 ]] && echo >> .capture\n";
    shown += step.expected.size();
  }
  script += "true\n";
  std::ofstream(dir + "/.script.sh") << script;
  const int rc = std::system(("timeout 300 bash " + Quote(dir + "/.script.sh") + " </dev/null").c_str());
  ASSERT_EQ(rc, 0) << "the block's script did not finish (timeout 300 s?):\n" << script;
  const std::vector<std::string> status = SplitLines(Slurp(dir + "/.status"));
  const std::vector<std::string> captured = SplitLines(Slurp(dir + "/.capture"));
  std::vector<std::string> foreground;
  for (const Step& s : b.steps) {
    std::string t = Trim(s.command);
    if (t.empty() || t.back() != '&' || t.substr(t.size() - 2) == "&&") foreground.push_back(s.command);
  }
  ASSERT_EQ(status.size(), foreground.size()) << Slurp(dir + "/.capture");
  for (size_t i = 0; i < status.size(); ++i) {
    const int want = i + 1 == status.size() ? b.exit_code : 0;
    EXPECT_EQ(std::atoi(status[i].c_str()), want)
        << "exit status of `" << foreground[i] << "`" << (want ? "" : " (a marker <!-- doc-test: exit N --> "
                                                                       "before the block says another)")
        << "\noutput:\n" << Slurp(dir + "/.capture");
  }
  // What the block shows: its steps' outputs in order, each command's own block of lines.
  bool compare = false;
  std::vector<std::string> expected;
  for (const Step& s : b.steps) {
    compare = compare || s.compare;
    if (!s.compare) continue;
    if (!s.expected.empty() || !b.whole_output) expected.insert(expected.end(), s.expected.begin(), s.expected.end());
  }
  while (!expected.empty() && expected.back().empty()) expected.pop_back();
  if (!compare) return;
  std::vector<std::string> actual = captured;
  for (std::string& l : actual) l = ReplaceAll(l, "127.0.0.1:" + port, "127.0.0.1:8888");
  EXPECT_TRUE(Matches(expected, actual)) << b.file << ":" << b.line
                                         << ": the output shown is not what the commands print now.\nshown:\n"
                                         << Numbered(expected) << "printed:\n" << Numbered(actual);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// The flags of one synopsis: every token that starts with '-', up to '=' or ' '.
std::vector<std::string> Flags(const std::string& text) {
  std::vector<std::string> flags;
  std::string token;
  std::string spaced = text;
  for (char& c : spaced) {
    if (c == '[' || c == ']' || c == '(' || c == ')' || c == '|') c = ' ';
  }
  std::istringstream in(spaced);
  while (in >> token) {
    if (token.size() < 2 || token[0] != '-' || token == "--help") continue;
    token = token.substr(0, token.find('='));
    if (std::find(flags.begin(), flags.end(), token) == flags.end()) flags.push_back(token);
  }
  std::sort(flags.begin(), flags.end());
  return flags;
}

std::string Run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// A synopsis block: each "gpusched COMMAND ..." entry (with its indented continuation lines) names the
// flags `gpusched help COMMAND` lists, no more and no fewer.
void CheckSynopsis(const Block& b) {
  std::map<std::string, std::string> entries;
  std::vector<std::string> order;
  std::string current;
  for (const std::string& line : b.body) {
    if (line.rfind("gpusched ", 0) == 0) {
      std::istringstream in(line.substr(9));
      in >> current;
      order.push_back(current);
      entries[current] = line.substr(9 + current.size());
    } else if (!current.empty()) {
      entries[current] += " " + line;
    }
  }
  ASSERT_FALSE(order.empty()) << "no `gpusched COMMAND` line in the synopsis";
  for (const std::string& command : order) {
    if (command == "help" || command == "version") continue;
    const std::string help = Run(Quote(kBinary) + " help " + command + " 2>&1");
    // The help's options, each with its aliases: "  -f,--filename TEXT ... REQUIRED" (CLI11's layout).
    std::vector<std::vector<std::string>> options;
    for (const std::string& line : SplitLines(help)) {
      const std::string t = Trim(line);
      if (t.size() < 2 || t[0] != '-' || line[0] != ' ') continue;
      std::vector<std::string> aliases = Flags(ReplaceAll(t.substr(0, t.find(' ')), ",", " "));
      if (std::find(aliases.begin(), aliases.end(), "-h") == aliases.end()) options.push_back(aliases);
    }
    ASSERT_FALSE(options.empty()) << "`gpusched help " << command << "` lists no option:\n" << help;
    const std::vector<std::string> shown = Flags(entries[command]);
    std::vector<std::string> missing, unknown;
    for (const auto& aliases : options) {
      if (std::none_of(aliases.begin(), aliases.end(), [&](const std::string& a) {
            return std::find(shown.begin(), shown.end(), a) != shown.end();
          })) {
        missing.push_back(Join(aliases));
      }
    }
    for (const std::string& f : shown) {
      if (std::none_of(options.begin(), options.end(), [&](const auto& aliases) {
            return std::find(aliases.begin(), aliases.end(), f) != aliases.end();
          })) {
        unknown.push_back(f);
      }
    }
    EXPECT_TRUE(missing.empty() && unknown.empty())
        << b.file << ":" << b.line << ": the synopsis of `gpusched " << command
        << "` does not name the options its help lists.\nmissing: " << Join(missing)
        << "\nnot in the help: " << Join(unknown) << "\nsynopsis:" << entries[command] << "\nhelp:\n" << help;
  }
}

using Json = nlohmann::ordered_json;

std::vector<std::string> Keys(const Json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

// The doc's object at `path` names the keys of the output's objects there, in their order: every key
// every one of them has (an array's elements are one object's examples), and no key none of them has.
void CompareKeys(const Json& doc, const Json& actual, const std::string& path) {
  if (doc.is_object()) {
    std::vector<Json> objects;
    if (actual.is_object()) objects.push_back(actual);
    if (actual.is_array()) {
      for (const Json& e : actual) {
        if (e.is_object()) objects.push_back(e);
      }
    }
    ASSERT_FALSE(objects.empty()) << path << ": the command's output has no object there to compare with";
    std::vector<std::string> all;  // every key, in the order the objects give them
    for (const Json& o : objects) {
      size_t at = 0;
      for (const std::string& k : Keys(o)) {
        auto it = std::find(all.begin(), all.end(), k);
        if (it == all.end()) {
          all.insert(all.begin() + static_cast<long>(at), k);
          ++at;
        } else {
          at = static_cast<size_t>(it - all.begin()) + 1;
        }
      }
    }
    std::vector<std::string> want;  // the keys the doc must show: those every object has, and any other it shows
    const std::vector<std::string> shown = Keys(doc);
    for (const std::string& k : all) {
      const bool everywhere =
          std::all_of(objects.begin(), objects.end(), [&](const Json& o) { return o.contains(k); });
      if (everywhere || std::find(shown.begin(), shown.end(), k) != shown.end()) want.push_back(k);
    }
    EXPECT_EQ(Join(shown), Join(want)) << path << ": the keys shown are not the output's, in its order";
    for (const auto& [key, value] : doc.items()) {
      for (const Json& o : objects) {
        if (o.contains(key) && (value.is_object() || (value.is_array() && !value.empty()))) {
          CompareKeys(value, o[key], path + "." + key);
          break;
        }
      }
    }
  } else if (doc.is_array() && !doc.empty()) {
    CompareKeys(doc[0], actual, path + "[]");
  }
}

// A block showing a JSON output's shape: the keys of every object it shows are those the command's output
// has there, in the same order.
void CheckJsonKeys(const Block& b) {
  std::string text;
  for (const std::string& l : b.body) text += l + "\n";
  const Json doc = Json::parse(text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << b.file << ":" << b.line << ": the block is not JSON";
  const std::string dir = MakeWorkDir();
  const std::string out = Run("cd " + Quote(dir) + " && " + b.json_command);
  const Json actual = Json::parse(out, nullptr, false);
  ASSERT_FALSE(actual.is_discarded()) << "`" << b.json_command << "` printed no JSON:\n" << out;
  CompareKeys(doc, actual, b.file + ":" + std::to_string(b.line) + ": $");
  std::error_code ec;
  fs::remove_all(dir, ec);
}

class DocBlockTest : public ::testing::Test {
 public:
  explicit DocBlockTest(Block b) : b_(std::move(b)) {}
  void TestBody() override {
    if (!b_.error.empty()) FAIL() << b_.file << ":" << b_.line << ": " << b_.error;
    if (b_.skip) GTEST_SKIP() << b_.file << ":" << b_.line << ": " << *b_.skip;
    switch (b_.kind) {
      case Kind::kSynopsis:
        CheckSynopsis(b_);
        break;
      case Kind::kJsonKeys:
        CheckJsonKeys(b_);
        break;
      case Kind::kUnmarked:
        FAIL() << b_.file << ":" << b_.line
               << ": a block that is neither commands nor a command's output. Show the command that prints it "
                  "(`$ ./build/gpusched ...` lines in the block, or a ```sh block just before it), or say what "
                  "it is before the block: <!-- doc-test: text: WHY --> (not a command's output), "
                  "<!-- doc-test: skip: WHY --> (a command that cannot run in a test)";
      case Kind::kCommands:
        RunCommands(b_);
        break;
    }
  }

 private:
  Block b_;
};

class StaleNameTest : public ::testing::Test {
 public:
  explicit StaleNameTest(std::string name) : name_(std::move(name)) {}
  void TestBody() override {
    FAIL() << name_ << " names no block of the markdown files now: they changed since ctest's list was made. "
           << "Build again (cmake --build), which lists the blocks anew.";
  }

 private:
  std::string name_;
};

// The names of this process's --gtest_filter (ctest runs each test by its exact name), read before main.
std::vector<std::string> FilterNames() {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> names;
  for (std::string arg; std::getline(f, arg, '\0');) {
    if (arg.rfind("--gtest_filter=", 0) != 0) continue;
    std::istringstream in(arg.substr(15));
    for (std::string name; std::getline(in, name, ':');) names.push_back(name);
  }
  return names;
}

const bool registered = [] {
  std::vector<std::string> names;
  for (const std::string& file : DocFiles()) {
    for (const Block& b : ParseFile(file)) {
      names.push_back("DocCommandsTest." + TestName(b));
      ::testing::RegisterTest("DocCommandsTest", TestName(b).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [b]() -> ::testing::Test* { return new DocBlockTest(b); });
    }
  }
  // A name ctest listed before the markdown changed matches no block now: fail rather than run nothing.
  for (const std::string& name : FilterNames()) {
    if (name.rfind("DocCommandsTest.", 0) != 0 || name.find_first_of("*?-") != std::string::npos ||
        std::find(names.begin(), names.end(), name) != names.end()) {
      continue;
    }
    ::testing::RegisterTest("DocCommandsTest", name.substr(16).c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [name]() -> ::testing::Test* {
                              return new StaleNameTest(name);
                            });
  }
  return true;
}();

}  // namespace
