#include <iostream>
#include <string>
#include <vector>

#include "gpusched/cli/cli.h"
#include "gpusched/util/exit_memory.h"

int main(int argc, char** argv) {
  // The process ends with the command: its big results need not be freed.
  gpusched::SetProcessExitsAfterCommand(true);
  std::vector<std::string> args(argv, argv + argc);
  return gpusched::RunCli(args, std::cout, std::cerr);
}
