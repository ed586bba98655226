#include "gpusched/io/read_input.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace gpusched {

namespace fs = std::filesystem;

Status ReadInput(const std::string& path, std::string& out, uint64_t limit, std::istream* in) {
  out.clear();
  std::ifstream file;
  std::string name = "<stdin>";
  if (in == nullptr) in = &std::cin;
  if (path != "-") {
    name = "\"" + path + "\"";
    std::error_code ec;
    const uintmax_t size = fs::file_size(path, ec);  // fails on pipes and the like: then only the read counts
    if (!ec && size > limit)
      return Status::InvalidArgument(name + " is " + std::to_string(size) + " bytes, more than the " +
                                     std::to_string(limit) + " gpusched reads from one input");
    // A directory opens, and only its read fails: said before.
    if (std::error_code dir; fs::is_directory(path, dir)) return Status::IOError(name + " is a directory, not a file");
    errno = 0;
    file.open(path, std::ios::binary);
    if (!file) {
      // As the manifest loader says it of -f's paths.
      std::error_code missing;
      if (!fs::exists(path, missing) && !missing) return Status::NotFound("the path " + name + " does not exist");
      const int why = errno;
      return Status::NotFound("cannot read " + name + (why == 0 ? std::string() : ": " + std::string(std::strerror(why))));
    }
    in = &file;
    if (!ec) {
      // Straight into the string: no copy through a buffer.
      out.reserve(static_cast<size_t>(size) + kInputPadding);
      out.resize(static_cast<size_t>(size));
      file.read(out.data(), static_cast<std::streamsize>(size));
      out.resize(static_cast<size_t>(file.gcount()));
    }
  }
  char buf[1 << 16];
  while (*in) {
    in->read(buf, sizeof buf);
    const auto got = static_cast<uint64_t>(in->gcount());
    if (out.size() + got > limit)
      return Status::InvalidArgument(name + " is more than the " + std::to_string(limit) +
                                     " bytes gpusched reads from one input");
    out.append(buf, static_cast<size_t>(got));
  }
  if (in->bad()) return Status::IOError("cannot read " + name);
  if (out.capacity() < out.size() + kInputPadding) out.reserve(out.size() + kInputPadding);
  return Status::Ok();
}

}  // namespace gpusched
