// The settings of a run (run/setting.h) as gpusched's command line spells
// them: each setting's flag, added to a command with its help — whose
// "(default: ...)" is rendered from run/defaults.h — and the run layer's
// errors and documents rendered with the flags. cli is the only layer that
// knows the flag names: `unknown policy "x"` from the run layer prints as
// `error: unknown --policy "x"`.
#ifndef GPUSCHED_CLI_RUN_FLAGS_H_
#define GPUSCHED_CLI_RUN_FLAGS_H_

#include <initializer_list>
#include <ostream>
#include <string>

#include "gpusched/run/run_error.h"
#include "gpusched/run/run_settings.h"
#include "gpusched/run/setting.h"

namespace CLI {
class App;
}

namespace gpusched {

// "--policy", "--order", "--seed", "--config", "--feature-gates",
// "--scheduler-name", "--preempt-gangs".
std::string FlagName(Setting s);

// Adds to `cmd` the flag of each setting in `settings`, bound to `options`,
// with `command`'s help text and default.
void AddSettingFlags(CLI::App* cmd, RunOptions& options, Command command, std::initializer_list<Setting> settings);

// Prints "error: <the error, with flag names>\n"; returns kExitUsage.
int PrintRunError(std::ostream& err, const RunError& error);

// Prints each configuration warning as "warning: <text>\n".
void PrintWarnings(std::ostream& err, const std::vector<std::string>& warnings);

// The README's table of defaults (Markdown, one row per setting), rendered
// from run/defaults.h with the flag names; a test keeps the README's copy
// equal to it.
std::string DefaultsMarkdown();

}  // namespace gpusched

#endif  // GPUSCHED_CLI_RUN_FLAGS_H_
