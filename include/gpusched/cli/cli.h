// The gpusched command line: parses flags and calls the library. Kept thin;
// in-process so tests can run commands and read their output and exit code.
#ifndef GPUSCHED_CLI_CLI_H_
#define GPUSCHED_CLI_CLI_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace gpusched {

// Exit codes, as documented in the README.
inline constexpr int kExitOk = 0;        // every input object was valid
inline constexpr int kExitRejected = 1;  // some object was rejected (the rest was still scheduled)
inline constexpr int kExitUsage = 2;     // usage error, unreadable file or invalid --config

// args[0] is the program name.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct ScheduleFlags {
  std::vector<std::string> files;
  bool recursive = false;
  std::string config;  // KubeSchedulerConfiguration file
  std::string policy;  // "" = kube-default with --config, first-fit without
  std::string order;   // "" = priority for kube-default, fifo otherwise
  std::string output = "table";
  uint64_t seed = 1;
  bool explain = false;
  std::string explain_pod;  // `gpusched explain POD`: "name" or "namespace/name"
};

int RunSchedule(const ScheduleFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace gpusched

#endif  // GPUSCHED_CLI_CLI_H_
