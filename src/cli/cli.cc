#include "gpusched/cli/cli.h"
#include "gpusched/cli/serve_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include "gpusched/sched/api/version.h"
#include "gpusched/util/did_you_mean.h"

namespace gpusched {
namespace {

const std::vector<std::string> kCommandNames = {"schedule", "explain", "simulate", "experiment",
                                                "serve",    "help",    "version"};
constexpr const char* kCommands = "schedule, explain, simulate, experiment, serve, help, version";

constexpr const char* kAppFooter = R"(
'gpusched help COMMAND' (or 'gpusched COMMAND --help') shows a command's flags, examples and exit codes.)";

// `s` as one shell word: as it is when it needs no quotes.
std::string ShellWord(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./:@%+=,-").find(c) != std::string_view::npos;
  });
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command parsed, else null.
CLI::App* Parsed(const std::vector<CLI::App*>& commands) {
  for (CLI::App* c : commands)
    if (c->parsed()) return c;
  return nullptr;
}

// "Run 'PROGRAM COMMAND --help' for usage." for the command parsed.
std::string UsageHint(const CLI::App& app, const std::vector<CLI::App*>& commands) {
  if (CLI::App* c = Parsed(commands)) return "Run '" + app.get_name() + " " + c->get_name() + " --help' for usage.\n";
  return "Run '" + app.get_name() + " --help' for usage.\n";
}

std::string UnknownCommand(const std::string& name) {
  const std::string near = DidYouMean(NearNames(name, kCommandNames));
  return "error: unknown command \"" + name + "\" (" + (near.empty() ? "" : near + " ") + "commands: " + kCommands +
         ")\n";
}

bool IsFlag(const std::string& arg) { return arg.size() > 1 && arg.front() == '-'; }

// " (did you mean --policy?)" for an unknown flag near one of `cmd`'s long
// flags; a one-letter flag is near every other one, and gets none.
std::string FlagSuggestion(const std::string& flag, const CLI::App& cmd) {
  const bool one_dash = !flag.starts_with("--");
  const std::string name = flag.substr(one_dash ? 1 : 2);
  if (name.size() < 2) return "";
  std::vector<std::string> longs;
  for (const CLI::Option* o : cmd.get_options())
    for (const std::string& l : o->get_lnames()) longs.push_back(l);
  // -policy for --policy.
  if (one_dash && std::find(longs.begin(), longs.end(), name) != longs.end()) return " (did you mean --" + name + "?)";
  std::vector<std::string> near = NearNames(name, longs);
  for (std::string& n : near) n = "--" + n;
  const std::string phrase = DidYouMean(near);
  return phrase.empty() ? "" : " (" + phrase + ")";
}

// What was left over after parsing, in the order given: the unknown flags
// (each without its "=value"; a word right after one is taken as its value,
// as `--polcy best-fit`) and the arguments no flag or positional took.
struct Leftovers {
  std::vector<std::string> flags, arguments;
};

Leftovers SortLeftovers(const std::vector<std::string>& extras, const std::vector<std::string>& args) {
  // Where each extra stands in the command line (extras keep its order).
  std::vector<size_t> at;
  for (size_t i = 0, from = 0; i < extras.size(); ++i) {
    size_t k = from;
    while (k < args.size() && args[k] != extras[i]) ++k;
    at.push_back(k);
    from = k < args.size() ? k + 1 : from;
  }
  Leftovers l;
  for (size_t i = 0; i < extras.size(); ++i) {
    const std::string& e = extras[i];
    if (!IsFlag(e)) {
      l.arguments.push_back(e);
      continue;
    }
    const size_t eq = e.find('=');
    l.flags.push_back(e.substr(0, eq));
    if (eq == std::string::npos && i + 1 < extras.size() && !IsFlag(extras[i + 1]) && at[i] < args.size() &&
        at[i + 1] == at[i] + 1)
      ++i;  // its value
  }
  return l;
}

bool PathExists(const std::string& path) {
  std::error_code ec;
  return path != "-" && std::filesystem::exists(path, ec);
}

// One line per unknown flag, else per unexpected argument (an unknown flag
// may have let a positional, explain's POD, take its value: what is left
// is then no clue); an argument that is a path, for a command that reads
// -f, suggests it, and `suggested_f` tells.
std::string LeftoverLines(const Leftovers& l, const CLI::App& cmd, bool& suggested_f) {
  std::string out;
  for (const std::string& f : l.flags) {
    // A command's --version: the program's flag, given after the command.
    if (f == "--version" && cmd.get_parent() != nullptr) {
      const std::string program = cmd.get_parent()->get_name();
      out += "error: unknown flag --version for " + cmd.get_name() + ": the version is '" + program +
             " version' (or '" + program + " --version')\n";
      continue;
    }
    out += "error: unknown flag " + f + FlagSuggestion(f, cmd) + "\n";
  }
  if (!out.empty()) return out;
  const bool reads_files = cmd.get_option_no_throw("--filename") != nullptr;
  for (const std::string& a : l.arguments) {
    out += "error: unexpected argument \"" + a + "\"";
    if (reads_files && PathExists(a)) {
      out += " (did you mean -f " + ShellWord(a) + "?)";
      suggested_f = true;
    }
    out += "\n";
  }
  return out;
}

// No command, or arguments left over: the error, else "".
std::string WrongArguments(const CLI::App& app, const std::vector<std::string>& args,
                           const std::vector<CLI::App*>& commands) {
  const std::vector<std::string> extras = app.remaining(true);
  CLI::App* chosen = Parsed(commands);
  if (!chosen && !extras.empty() && !IsFlag(extras.front()))
    return UnknownCommand(extras.front()) + UsageHint(app, commands);
  bool suggested_f = false;
  if (!extras.empty())
    return LeftoverLines(SortLeftovers(extras, args), chosen ? *chosen : app, suggested_f) + UsageHint(app, commands);
  if (!chosen) return std::string("error: a command is required (") + kCommands + ")\n" + UsageHint(app, commands);
  return "";
}

// A required flag or argument missing (CLI11's "--filename is required"):
// what was left over comes first, since it is most often the missing part
// misplaced (`schedule examples/seed` for `schedule -f examples/seed`).
std::string MissingRequired(const CLI::Error& e, const CLI::App& app, const std::vector<std::string>& args,
                            const std::vector<CLI::App*>& commands) {
  CLI::App* chosen = Parsed(commands);
  const std::string what = e.what();
  std::string required = "error: " + what;
  if (what == "--filename is required") required += ": give the input with -f FILE, -f DIRECTORY or -f - (stdin)";
  if (what == "POD is required")
    required += ": name the pod to explain (NAME or NAMESPACE/NAME) or its controller (e.g. deployment/NAME)";
  required += "\n";
  if (chosen == nullptr) return required + UsageHint(app, commands);
  // explain's POD takes the first word: a path there is -f's.
  if (const CLI::Option* pod = chosen->get_option_no_throw("POD");
      pod != nullptr && pod->count() == 1 && chosen->get_option_no_throw("--filename") != nullptr &&
      chosen->get_option_no_throw("--filename")->count() == 0) {
    const std::string word = pod->results().front();
    if (PathExists(word))
      return "error: --filename is required, and \"" + word + "\" is a path, not a pod (did you mean -f " +
             ShellWord(word) + "?)\n" + UsageHint(app, commands);
  }
  bool suggested_f = false;
  const Leftovers leftovers = SortLeftovers(app.remaining(true), args);
  const std::string lines = LeftoverLines(leftovers, *chosen, suggested_f);
  // The -f suggested is the flag missing; with --version, the version was
  // what was asked for, not this command.
  const bool answered = (suggested_f && what.starts_with("--filename")) ||
                        std::find(leftovers.flags.begin(), leftovers.flags.end(), "--version") != leftovers.flags.end();
  return lines + (answered ? "" : required) + UsageHint(app, commands);
}

// What a flag given no value takes, for the error.
std::string ValueOf(const CLI::App* cmd, const std::string& flag) {
  static const std::vector<std::pair<std::string, std::string>> kValues = {
      {"--filename", "a file, a directory or - (stdin)"},
      {"--config", "a KubeSchedulerConfiguration file"},
      {"--workload", "a trace pod list (*.csv), a SyntheticWorkload spec or pod manifests"},
      {"--output-dir", "the directory to write into"},
      {"--report", "the HTML file to write"},
      {"--kubeconfig", "a kubeconfig file"},
      {"--listen", "ADDR:PORT, e.g. 127.0.0.1:8888"},
      {"--namespace", "a namespace"},
      {"--end", "a number of seconds"},
      {"--policy", "a policy, e.g. best-fit"},
      {"--policies", "policies separated by commas, e.g. fgd,best-fit"},
      {"--order", "a queue order, e.g. priority"},
      {"--feature-gates", "GATE=true or GATE=false, separated by commas"},
      {"--scheduler-name", "NAME=POLICY"},
      {"--preempt-gangs", "upstream or whole"},
      {"--seeds", "a range like 42-51 or a list like 1,2,3"},
      {"--trace", "a trace name or the path of a pod list CSV"},
      {"--data-dir", "the folder of the trace CSVs"},
      {"--assume-ttl", "a number of seconds"},
      {"--stale-after", "a number of seconds"},
  };
  const bool experiment = cmd != nullptr && cmd->get_name() == "experiment";
  if (flag == "--nodes") return experiment ? "the path of a trace node list CSV" : "a count or all";
  for (const auto& [name, value] : kValues)
    if (name == flag) return value;
  if (flag == "--output" && cmd != nullptr && cmd->get_option_no_throw("--explain") != nullptr) return "table or json";
  const CLI::Option* o = cmd == nullptr ? nullptr : cmd->get_option_no_throw(flag);
  const std::string type = o == nullptr ? "" : o->get_type_name();
  if (type == "UINT" || type == "INT") return "a whole number";
  if (type == "FLOAT") return "a number";
  return "";
}

// A flag at the end of the line or before another flag, without its value
// (CLI11's "--filename: 1 required TEXT missing"): the flag and what it takes.
std::string MissingValue(const std::string& what, const CLI::App& app, const std::vector<CLI::App*>& commands) {
  const std::string flag = what.substr(0, what.find(':'));
  CLI::App* chosen = Parsed(commands);
  const std::string value = ValueOf(chosen, flag);
  return "error: " + flag + " needs a value after it" + (value.empty() ? "" : ": " + value) + "\n" +
         UsageHint(app, commands);
}

// `gpusched version` and `gpusched --version`.
int Version(std::ostream& out) {
  out << "gpusched 0.1.0 (kube-scheduler behaviour of Kubernetes " << kTargetKubernetesVersion << ")\n";
  return kExitOk;
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
  err << UnknownCommand(topic) << "Run '" << app.get_name() << " --help' for usage.\n";
  return kExitUsage;
}

}  // namespace

std::string WithProgram(std::string_view text, const std::string& program) {
  constexpr std::string_view kName = "gpusched ";
  std::string out;
  size_t from = 0;
  for (size_t at; (at = text.find(kName, from)) != std::string_view::npos; from = at + kName.size()) {
    out += text.substr(from, at - from);
    // A command line's first word: at a line's start or after "| " or a quote.
    const char before = at == 0 ? '\n' : text[at - 1];
    out += before == '\n' || before == ' ' || before == '\'' ? program + " " : std::string(kName);
  }
  out += text.substr(from);
  return out;
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return RunCli(args, out, err, PluginRegistry::InTree());
}

int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const PluginRegistry& plugins) {
  CLI::App app{"gpusched: schedules GPU workloads the way Kubernetes does"};
  // The program as it was run (args[0], e.g. ./build/gpusched), so that
  // the examples and hints of the help run when pasted: gpusched is seldom
  // on PATH. A launcher that passes no name gets "gpusched".
  app.name(args.empty() || args[0].empty() ? "gpusched" : ShellWord(args[0]));
  app.require_subcommand(0, 1);
  app.allow_extras();
  app.footer(WithProgram(kAppFooter, app.get_name()));
  bool show_version = false;
  app.add_flag("--version", show_version, "Print the version (what the version command prints) and exit");

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
  const std::vector<std::string> given(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::vector<std::string> rest(given.rbegin(), given.rend());  // CLI11 parses a reversed vector
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
    if (e.get_name() == "RequiredError") {
      err << MissingRequired(e, app, given, commands);
    } else if (e.get_name() == "ArgumentMismatch" && std::string_view(e.what()).ends_with(" missing") &&
               std::string_view(e.what()).starts_with("-")) {
      err << MissingValue(e.what(), app, commands);
    } else {
      err << "error: " << e.what() << "\n" << UsageHint(app, commands);  // errors point to the command's own --help
    }
    return kExitUsage;
  }
  // --version, as git's: the version, whatever else was given.
  if (show_version) return Version(out);
  // Leftover arguments, in the order given.
  if (std::string wrong = WrongArguments(app, given, commands); !wrong.empty()) {
    err << wrong;
    return kExitUsage;
  }
  if (help->parsed()) return Help(app, help_topic, commands, out, err);
  if (version->parsed()) return Version(out);
  for (RunOptions* o : {&sf.run, &ef.run, &mf.run, &vf.run}) o->plugins = &plugins;
  if (simulate->parsed()) return RunSimulate(mf, out, err);
  if (experiment->parsed()) return RunExperimentCommand(xf, out, err);
  if (serve->parsed()) return RunServe(vf, out, err);
  if (explain->parsed()) return RunSchedule(ef, out, err);
  return RunSchedule(sf, out, err);
}

}  // namespace gpusched
