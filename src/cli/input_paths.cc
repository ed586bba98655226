#include "gpusched/cli/input_paths.h"

#include <filesystem>

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

}  // namespace gpusched
