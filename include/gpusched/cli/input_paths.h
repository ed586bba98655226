// Checks on the -f paths before they are read: a directory that holds no
// manifest file (*.yaml, *.yml, *.json; in subdirectories too with -R) is an
// error that says so, rather than an empty cluster. Missing paths and
// unreadable files are the loader's to report. And checks on the paths a
// command writes.
#ifndef GPUSCHED_CLI_INPUT_PATHS_H_
#define GPUSCHED_CLI_INPUT_PATHS_H_

#include <string>
#include <vector>

#include "gpusched/util/status.h"

namespace gpusched {

// The message starts with "error: ".
Status CheckManifestDirectories(const std::vector<std::string>& paths, bool recursive);

// A path given to `flag` that does not exist: kubectl's "the path \"P\" does
// not exist", then what `flag` takes (`takes`). "-" (stdin) is not checked.
Status CheckInputPath(const std::string& flag, const std::string& path, const std::string& takes);

// Checks on where a command will write, before it runs (a simulation can
// take minutes): `flag` names the flag in the message, which starts with
// "error: ". A file (--report) cannot be a directory nor in a directory
// that does not exist, unless that is in `created_dir` (the -o directory,
// created before the file is written); a directory (-o) cannot be a file
// (one missing is created when written).
Status CheckOutputFile(const std::string& flag, const std::string& path, const std::string& created_dir = "");
Status CheckOutputDirectory(const std::string& flag, const std::string& path);

// Writes `text` to `path` (a file given through `flag`, or inside its
// directory); a write that fails says "error: FLAG: cannot write \"PATH\":
// <the system's reason>".
Status WriteOutputFile(const std::string& flag, const std::string& path, const std::string& text);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_INPUT_PATHS_H_
