#include "gpusched/cli/cli.h"
#include "gpusched/cli/serve_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>

#include "gpusched/sched/api/version.h"

namespace gpusched {
namespace {

constexpr const char* kCommands = "schedule, explain, simulate, experiment, serve, help, version";

constexpr const char* kAppFooter = R"(
'gpusched help COMMAND' (or 'gpusched COMMAND --help') shows a command's flags, examples and exit codes.)";

// "--bogus --other" for flags, as given; positional leftovers are arguments.
std::string UnexpectedMessage(const std::vector<std::string>& extras) {
  bool all_flags = true;
  std::string list;
  for (const auto& e : extras) {
    all_flags &= e.starts_with("-");
    list += (list.empty() ? "" : " ") + e;
  }
  const bool one = extras.size() == 1;
  return std::string("error: ") + (all_flags ? (one ? "unknown flag: " : "unknown flags: ")
                                             : (one ? "unexpected argument: " : "unexpected arguments: ")) +
         list;
}

// "Run 'gpusched COMMAND --help' for usage." for the command parsed.
std::string UsageHint(const std::vector<CLI::App*>& commands) {
  for (CLI::App* c : commands)
    if (c->parsed()) return "Run 'gpusched " + c->get_name() + " --help' for usage.\n";
  return "Run 'gpusched --help' for usage.\n";
}

// No command, or arguments left over: the error, else "".
std::string WrongArguments(const std::vector<std::string>& extras, const std::vector<CLI::App*>& commands) {
  const bool chosen = std::any_of(commands.begin(), commands.end(), [](CLI::App* c) { return c->parsed(); });
  if (!chosen && !extras.empty() && !extras.front().starts_with("-"))
    return "error: unknown command \"" + extras.front() + "\" (commands: " + kCommands + ")\n" + UsageHint(commands);
  if (!extras.empty()) return UnexpectedMessage(extras) + "\n" + UsageHint(commands);
  if (!chosen) return std::string("error: a command is required (") + kCommands + ")\n" + UsageHint(commands);
  return "";
}

// `gpusched help [COMMAND]`.
int Help(CLI::App& app, const std::string& topic, const std::vector<CLI::App*>& commands, std::ostream& out,
         std::ostream& err) {
  if (topic.empty()) {
    // app.help() would show the help of the command parsed: `help` itself.
    out << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
    return kExitOk;
  }
  for (CLI::App* c : commands) {
    if (c->get_name() == topic) {
      out << c->help(app.get_name());
      return kExitOk;
    }
  }
  err << "error: unknown command \"" << topic << "\" (commands: " << kCommands << ")\n"
      << "Run 'gpusched --help' for usage.\n";
  return kExitUsage;
}

}  // namespace

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return RunCli(args, out, err, PluginRegistry::InTree());
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const PluginRegistry& plugins) {
  CLI::App app{"gpusched: schedules GPU workloads the way Kubernetes does"};
  app.name(args.empty() ? "gpusched" : args[0]);
  app.require_subcommand(0, 1);
  app.allow_extras();
  app.footer(kAppFooter);

  ScheduleFlags sf, ef;
  CLI::App* schedule = AddScheduleCommand(app, sf);
  CLI::App* explain = AddExplainCommand(app, ef);
  SimulateFlags mf;
  CLI::App* simulate = AddSimulateCommand(app, mf);
  ExperimentFlags xf;
  CLI::App* experiment = AddExperimentCommand(app, xf);
  ServeFlags vf;
  CLI::App* serve = AddServeCommand(app, vf);

  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Show the help of gpusched or of one command");
  help->add_option("COMMAND", help_topic, "The command");

  CLI::App* version = app.add_subcommand("version", "Print the version and the Kubernetes release followed");

  const std::vector<CLI::App*> commands = {schedule, explain, simulate, experiment, serve, help, version};
  for (CLI::App* c : commands) c->allow_extras();
  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(rest.begin(), rest.end());  // CLI11 parses a reversed vector
  try {
    app.parse(rest);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the parsed command's help, when there is one
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      out << app.help();
      return kExitOk;
    }
    err << "error: " << e.what() << "\n" << UsageHint(commands);  // errors point to the command's own --help
    return kExitUsage;
  }
  // Leftover arguments, in the order given.
  if (std::string wrong = WrongArguments(app.remaining(true), commands); !wrong.empty()) {
    err << wrong;
    return kExitUsage;
  }
  if (help->parsed()) return Help(app, help_topic, commands, out, err);
  if (version->parsed()) {
    out << "gpusched 0.1.0 (kube-scheduler behaviour of Kubernetes " << kTargetKubernetesVersion << ")\n";
    return kExitOk;
  }
  for (RunOptions* o : {&sf.run, &ef.run, &mf.run, &vf.run}) o->plugins = &plugins;
  if (simulate->parsed()) return RunSimulate(mf, out, err);
  if (experiment->parsed()) return RunExperimentCommand(xf, out, err);
  if (serve->parsed()) return RunServe(vf, out, err);
  if (explain->parsed()) return RunSchedule(ef, out, err);
  return RunSchedule(sf, out, err);
}

}  // namespace gpusched
