#include "gpusched/cli/input_paths.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace gpusched {
namespace {

namespace fs = std::filesystem;

// The files LoadManifestPaths reads from a directory.
bool IsManifestFile(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// Iterates with error codes: an unreadable entry ends the search, never throws.
template <typename It>
bool HoldsManifest(It it) {
  std::error_code ec;
  for (; it != It(); it.increment(ec)) {
    if (ec) return false;
    if (it->is_regular_file(ec) && IsManifestFile(it->path())) return true;
  }
  return false;
}

}  // namespace

Status CheckManifestDirectories(const std::vector<std::string>& paths, bool recursive) {
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path == "-" || !fs::is_directory(path, ec)) continue;
    const auto opts = fs::directory_options::skip_permission_denied;
    if (recursive ? HoldsManifest(fs::recursive_directory_iterator(path, opts, ec))
                  : HoldsManifest(fs::directory_iterator(path, opts, ec)))
      continue;
    if (ec) continue;  // the loader reports an unreadable directory
    std::string msg = "error: the directory \"" + path + "\" holds no manifests (no *.yaml, *.yml or *.json file)";
    if (!recursive && HoldsManifest(fs::recursive_directory_iterator(path, opts, ec)))
      msg += "; its subdirectories do: add -R to read them";
    return Status::InvalidArgument(msg);
  }
  return Status::Ok();
}

Status CheckInputPath(const std::string& flag, const std::string& path, const std::string& takes) {
  std::error_code ec;
  if (path.empty() || path == "-" || fs::exists(path, ec) || ec) return Status::Ok();
  return Status::NotFound("error: the path \"" + path + "\" does not exist; " + flag + " takes " + takes);
}

namespace {

// `path` is `dir` or inside it (lexically: "a//b/" is "a/b").
bool IsWithin(const fs::path& path, const std::string& dir) {
  if (dir.empty()) return false;
  const fs::path rel = path.lexically_normal().lexically_relative(fs::path(dir).lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

Status CheckOutputFile(const std::string& flag, const std::string& path, const std::string& created_dir) {
  std::error_code ec;
  if (path.empty()) return Status::Ok();
  if (fs::is_directory(path, ec))
    return Status::InvalidArgument("error: " + flag + " \"" + path + "\" is a directory; give the file to write, e.g. " +
                                   (fs::path(path) / "report.html").string());
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty() || IsWithin(parent, created_dir)) return Status::Ok();
  if (!fs::exists(parent, ec))
    return Status::InvalidArgument("error: " + flag + " \"" + path + "\": the directory \"" + parent.string() +
                                   "\" does not exist; create it or give another path");
  if (!fs::is_directory(parent, ec))
    return Status::InvalidArgument("error: " + flag + " \"" + path + "\": \"" + parent.string() +
                                   "\" is a file, not a directory; give another path");
  return Status::Ok();
}

Status WriteOutputFile(const std::string& flag, const std::string& path, const std::string& text) {
  errno = 0;
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) return Status::IOError("error: " + flag + ": cannot write \"" + path + "\": " + std::strerror(errno));
  return Status::Ok();
}

Status CheckOutputDirectory(const std::string& flag, const std::string& path) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec) || fs::is_directory(path, ec)) return Status::Ok();
  return Status::InvalidArgument("error: " + flag + " \"" + path +
                                 "\" is a file, not a directory; give a directory (one missing is created)");
}

}  // namespace gpusched
