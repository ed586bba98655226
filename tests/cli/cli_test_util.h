// Runs the gpusched command line in-process for the CLI tests: exit code,
// standard output and standard error of one invocation.
#ifndef GPUSCHED_TESTS_CLI_CLI_TEST_UTIL_H_
#define GPUSCHED_TESTS_CLI_CLI_TEST_UTIL_H_

#include <sstream>
#include <string>
#include <vector>

#include "gpusched/cli/cli.h"

namespace gpusched::testing {

struct CliRun {
  int code;
  std::string out, err;
};

inline CliRun Cli(std::vector<std::string> args) {
  args.insert(args.begin(), "gpusched");
  std::ostringstream out, err;
  int code = RunCli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_CLI_CLI_TEST_UTIL_H_
