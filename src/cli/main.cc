#include <iostream>
#include <string>
#include <vector>

#include "gpusched/cli/cli.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  return gpusched::RunCli(args, std::cout, std::cerr);
}
