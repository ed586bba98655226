// Checks on the -f paths before they are read: a directory that holds no
// manifest file (*.yaml, *.yml, *.json; in subdirectories too with -R) is an
// error that says so, rather than an empty cluster. Missing paths and
// unreadable files are the loader's to report.
#ifndef GPUSCHED_CLI_INPUT_PATHS_H_
#define GPUSCHED_CLI_INPUT_PATHS_H_

#include <string>
#include <vector>

#include "gpusched/util/status.h"

namespace gpusched {

// The message starts with "error: ".
Status CheckManifestDirectories(const std::vector<std::string>& paths, bool recursive);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_INPUT_PATHS_H_
