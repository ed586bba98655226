// `gpusched experiment`: the FGD paper's protocol on the Alibaba trace
// (sim/experiment.h): policies x seeds, in parallel, then a table of
// unallocated GPU % at chosen arrived-GPU % and, on request, the full curves
// as CSV and the chart in an HTML report.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <sstream>

#include "gpusched/cli/cli.h"
#include "gpusched/cli/flag_checks.h"
#include "gpusched/cli/input_paths.h"
#include "gpusched/cli/progress.h"
#include "gpusched/report/experiment_chart.h"
#include "gpusched/report/html_report.h"
#include "gpusched/run/setting.h"
#include "gpusched/sched/policies/policy_registry.h"
#include "gpusched/sim/experiment.h"
#include "gpusched/siminput/trace_loader.h"

#ifndef GPUSCHED_DATA_DIR
#define GPUSCHED_DATA_DIR "data/alibaba-gpu-2023"
#endif

namespace gpusched {
namespace {

constexpr const char* kExperimentFooter = R"(
Examples:
  gpusched experiment
  gpusched experiment --trace multigpu50 --policies fgd,paper-best-fit --seeds 42-44 -o out --report exp.html

Exit codes:
  0  every trace row was valid
  1  some trace row was rejected; the rest was used
  2  usage error or unreadable trace)";

std::string Fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(decimals) << v;
  return o.str();
}

// "42-51" or "1,2,3".
// --seeds: "" when read into `out`, else what is wrong with it.
std::string ParseSeeds(const std::string& text, std::vector<uint64_t>& out) {
  auto whole = [](const std::string& s, uint64_t& v) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
  };
  if (size_t dash = text.find('-'); dash != std::string::npos && text.find(',') == std::string::npos) {
    const std::string from = text.substr(0, dash), to = text.substr(dash + 1);
    uint64_t a = 0, b = 0;
    if (!whole(from, a) || !whole(to, b)) return "a range is two whole numbers, FIRST-LAST, e.g. 42-51";
    if (b < a) return "the range runs backwards (did you mean " + to + "-" + from + "?)";
    if (b - a > 10000) return "at most 10001 seeds in a range";
    for (uint64_t s = a; s <= b; ++s) out.push_back(s);
    return "";
  }
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    uint64_t v = 0;
    if (!whole(item, v)) return "\"" + item + "\" is not a whole number (use a range like 42-51 or a list like 1,2,3)";
    out.push_back(v);
  }
  if (out.empty()) return "no seed (use a range like 42-51 or a list like 1,2,3)";
  return "";
}

std::string CurvesCsv(const ExperimentResult& r) {
  std::ostringstream o;
  o << "policy,arrived_gpu_pct,unallocated_gpu_pct_mean,unallocated_gpu_pct_sd,frag_pct_mean\n";
  for (const ExperimentCurve& c : r.curves)
    for (size_t x = 0; x < c.unalloc_mean.size(); ++x)
      o << c.policy << "," << x << "," << Fixed(c.unalloc_mean[x], 4) << "," << Fixed(c.unalloc_sd[x], 4) << ","
        << Fixed(c.frag_mean[x], 4) << "\n";
  return o.str();
}

std::string RunsCsv(const ExperimentResult& r) {
  std::ostringstream o;
  o << "policy,seed,pods,placed,failed,arrived_gpu_pct,allocated_gpu_pct,frag_pct\n";
  for (const ExperimentRun& run : r.runs)
    for (size_t x = 0; x < run.alloc_pct.size(); ++x)
      o << run.policy << "," << run.seed << "," << run.pods << "," << run.placed << "," << run.failed << "," << x
        << "," << Fixed(run.alloc_pct[x], 4) << "," << Fixed(run.frag_pct[x], 4) << "\n";
  return o.str();
}

// --policies: the FGD paper's policies and gpusched's simple ones (not
// kube-default: the protocol has no KubeSchedulerConfiguration).
std::optional<std::string> ParsePolicies(const std::string& text, std::vector<std::string>& out) {
  std::stringstream ss(text);
  for (std::string p; std::getline(ss, p, ',');) {
    if (p.empty()) continue;
    if (p == "kube-default" || !IsKnownPolicy(p)) {
      std::vector<std::string> known = PolicyNames();
      std::erase(known, "kube-default");
      if (p == "kube-default") {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        return "error: --policies \"kube-default\" is not run by experiment (the FGD paper's protocol has no "
               "KubeSchedulerConfiguration); choose among: " + list + "\n";
      }
      return "error: " + UnknownNameText("--policies", p, known).Render() + "\n";
    }
    out.push_back(p);
  }
  if (out.empty()) return "error: --policies is empty; give one or more policies separated by commas, e.g. fgd,best-fit\n";
  return std::nullopt;
}

// The table of unallocated GPU % at x% arrived, one row per policy.
void WriteCurves(std::ostream& out, const ExperimentResult& r) {
  out << "  unallocated GPU % (mean ± sd over seeds) when the arrived GPU request reaches x% of capacity\n";
  const int xs[] = {80, 90, 100, 110, 120};
  out << "  " << std::left << std::setw(16) << "POLICY" << std::right;
  for (int x : xs) out << std::setw(15) << ("x=" + std::to_string(x) + "%");
  out << std::setw(16) << "FRAG @100%" << "\n";
  for (const ExperimentCurve& c : r.curves) {
    out << "  " << std::left << std::setw(16) << PolicyDisplayName(c.policy) << std::right;
    for (int x : xs) {
      const size_t i = static_cast<size_t>(x);
      out << std::setw(15) << (Fixed(c.unalloc_mean[i], 2) + " ± " + Fixed(c.unalloc_sd[i], 2));
    }
    out << std::setw(15) << Fixed(c.frag_mean[100], 2) << "%\n";
  }
}

// -o DIR and --report FILE; returns the exit code when one cannot be written.
std::optional<int> WriteExperimentFiles(const ExperimentFlags& flags, const std::string& pods_path, const ExperimentOptions& opt,
                              const ExperimentResult& r, std::ostream& out, std::ostream& err) {
  if (!flags.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(flags.output_dir, ec);
    if (ec) {
      err << "error: --output-dir: cannot create directory \"" << flags.output_dir << "\": " << ec.message() << "\n";
      return kExitUsage;
    }
    for (const auto& [name, text] : {std::pair{"experiment.csv", CurvesCsv(r)}, std::pair{"runs.csv", RunsCsv(r)}}) {
      if (Status st = WriteOutputFile("--output-dir", (std::filesystem::path(flags.output_dir) / name).string(), text);
          !st.ok()) {
        err << st.message() << "\n";
        return kExitUsage;
      }
    }
    out << "\nwrote " << (std::filesystem::path(flags.output_dir) / "experiment.csv").string()
        << " (curves) and runs.csv (every run)\n";
  }
  if (!flags.report.empty()) {
    ReportOptions ro;
    ro.title = "gpusched: FGD paper protocol";
    ro.subtitle = std::filesystem::path(pods_path).filename().string() + ", " + std::to_string(opt.seeds.size()) +
                  " seeds, tune " + Fixed(opt.tune_ratio, 2);
    ro.experiment_title = "Unallocated GPU % vs arrived GPU % (mean ± sd over seeds)";
    for (const ExperimentCurve& c : r.curves) {
      ExperimentSeries s;
      s.policy = PolicyDisplayName(c.policy);
      for (size_t x = 0; x < c.unalloc_mean.size(); ++x)
        s.points.push_back({static_cast<double>(x), c.unalloc_mean[x], c.unalloc_sd[x]});
      ro.experiment.push_back(std::move(s));
    }
    if (Status st = WriteOutputFile("--report", flags.report, RenderHtmlReport({}, ro)); !st.ok()) {
      err << st.message() << "\n";
      return kExitUsage;
    }
    out << "wrote " << flags.report << "\n";
  }
  return std::nullopt;
}

}  // namespace

CLI::App* AddExperimentCommand(CLI::App& app, ExperimentFlags& f) {
  CLI::App* cmd = app.add_subcommand(
      "experiment", "Run the FGD paper's protocol on the Alibaba GPU trace: policies x seeds, in parallel");
  cmd->add_option("--data-dir", f.data_dir, "Folder of the trace CSVs (default: the repository's data/)");
  cmd->add_option("--trace", f.trace, "Pod list: a name (default, gpushare40, multigpu50, ...) or a CSV path")
      ->capture_default_str();
  cmd->add_option("--nodes", f.nodes, "Node list CSV (default: openb_node_list_gpu_node.csv)");
  cmd->add_option("--policies", f.policies, "Comma-separated policies")->capture_default_str();
  cmd->add_option("--seeds", f.seeds, "Seeds: a range a-b or a list")->capture_default_str();
  cmd->add_option("--tune", f.tune, "Inflate the workload to this multiple of GPU capacity (0: off)")
      ->check(Number(0, 10, "a multiple of GPU capacity", "(0: off)"))
      ->capture_default_str();
  cmd->add_option("-j,--jobs", f.threads, "Parallel runs (default: one per core)")->check(WholeNumber(1, 256));
  cmd->add_option("-o,--output-dir", f.output_dir, "Write experiment.csv and runs.csv");
  cmd->add_option("--report", f.report, "Write the chart as a self-contained HTML report");
  cmd->footer(WithProgram(kExperimentFooter, app.get_name()));
  return cmd;
}

namespace {

// The trace names of the data folder: NAME of each openb_pod_list_NAME.csv.
std::vector<std::string> TraceNames(const std::string& dir) {
  constexpr std::string_view kPrefix = "openb_pod_list_", kSuffix = ".csv";
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string file = e.path().filename().string();
    if (file.starts_with(kPrefix) && file.ends_with(kSuffix) && file.size() > kPrefix.size() + kSuffix.size())
      names.push_back(file.substr(kPrefix.size(), file.size() - kPrefix.size() - kSuffix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

int RunExperimentCommand(const ExperimentFlags& flags, std::ostream& out, std::ostream& err) {
  const std::string dir = flags.data_dir.empty() ? GPUSCHED_DATA_DIR : flags.data_dir;
  if (std::error_code ec; !flags.data_dir.empty() && !std::filesystem::is_directory(dir, ec)) {
    err << "error: --data-dir \"" << dir << "\" "
        << (std::filesystem::exists(dir, ec) ? "is a file, not a directory" : "does not exist")
        << "; give the folder of the trace CSVs (openb_node_list_gpu_node.csv, openb_pod_list_*.csv)\n";
    return kExitUsage;
  }
  for (const Status& st : {CheckInputPath("--nodes", flags.nodes, "the path of a trace node list CSV"),
                           CheckOutputDirectory("--output-dir", flags.output_dir),
                           CheckOutputFile("--report", flags.report, flags.output_dir)}) {
    if (!st.ok()) {
      err << st.message() << "\n";
      return kExitUsage;
    }
  }
  const std::string nodes_path = flags.nodes.empty() ? dir + "/openb_node_list_gpu_node.csv" : flags.nodes;
  // A path (a .csv, or anything with a '/') is read as it is; a name is the
  // data folder's openb_pod_list_NAME.csv, and an unknown name lists the known ones.
  const bool is_path = flags.trace.ends_with(".csv") || flags.trace.find('/') != std::string::npos;
  const std::string pods_path = is_path ? flags.trace : dir + "/openb_pod_list_" + flags.trace + ".csv";
  if (std::error_code ec; !is_path && !std::filesystem::exists(pods_path, ec)) {
    std::string known;
    for (const std::string& n : TraceNames(dir)) known += (known.empty() ? "" : ", ") + n;
    err << "error: unknown --trace \"" << flags.trace << "\": " << dir << " has no openb_pod_list_" << flags.trace
        << ".csv" << (known.empty() ? std::string() : " (known: " + known + ")")
        << "; or give the path of a pod list CSV\n";
    return kExitUsage;
  }
  if (Status st = CheckInputPath("--trace", is_path ? flags.trace : "", "a trace name or the path of a pod list CSV");
      !st.ok()) {
    err << st.message() << "\n";
    return kExitUsage;
  }
  ExperimentOptions opt;
  if (std::string wrong = ParseSeeds(flags.seeds, opt.seeds); !wrong.empty()) {
    err << "error: invalid --seeds \"" << flags.seeds << "\": " << wrong << "\n";
    return kExitUsage;
  }
  if (std::optional<std::string> wrong = ParsePolicies(flags.policies, opt.policies)) {
    err << *wrong;
    return kExitUsage;
  }
  opt.tune_ratio = flags.tune;
  opt.threads = flags.threads;

  std::vector<Node> nodes;
  std::vector<InputError> rejected;
  Status st = LoadTraceNodes(nodes_path, nodes, rejected);
  Workload w;
  if (st.ok()) st = LoadTracePods(pods_path, w);
  if (!st.ok()) {
    err << (st.message().starts_with("error: ") ? "" : "error: ") << st.message() << "\n";
    return kExitUsage;
  }
  for (const auto& e : rejected) err << "error: " << e.ToString() << "\n";
  for (const auto& e : w.rejected) err << "error: " << e.ToString() << "\n";
  std::vector<Pod> pods;
  pods.reserve(w.pods.size());
  for (auto& p : w.pods) pods.push_back(std::move(p.pod));

  ProgressBar bar(err, "experiment", ProgressBar::StderrIsTerminal());
  opt.progress = [&bar](size_t done, size_t total) { bar.Update(static_cast<double>(done) / static_cast<double>(total)); };
  const auto t0 = std::chrono::steady_clock::now();
  ExperimentResult r = RunExperiment(nodes, pods, opt);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bar.Done();

  int64_t gpus = r.gpu_milli_capacity / 1000;
  // Wall time varies run to run: it goes to stderr, so that the same input
  // and seeds give byte-identical stdout.
  err << "experiment: " << r.runs.size() << (r.runs.size() == 1 ? " run" : " runs") << " in " << Fixed(wall, 1)
      << " s\n";
  out << "FGD paper protocol: " << pods.size() << " trace pods (" << std::filesystem::path(pods_path).filename().string()
      << ") on " << nodes.size() << " nodes / " << gpus << " GPUs, tuned to " << Fixed(opt.tune_ratio * 100, 0)
      << "% of GPU capacity, " << opt.seeds.size() << (opt.seeds.size() == 1 ? " seed, " : " seeds, ")
      << r.runs.size() << (r.runs.size() == 1 ? " run" : " runs") << "\n\n";
  WriteCurves(out, r);
  if (std::optional<int> code = WriteExperimentFiles(flags, pods_path, opt, r, out, err)) return *code;
  return rejected.empty() && w.rejected.empty() ? kExitOk : kExitRejected;
}

}  // namespace gpusched
