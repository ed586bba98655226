#include "gpusched/report/sim_writers.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "gpusched/report/diagnosis_text.h"
#include "gpusched/report/fixed_format.h"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

const char* StateName(PodOutcome::State s) {
  switch (s) {
    case PodOutcome::State::kFinished: return "finished";
    case PodOutcome::State::kRunning: return "running";
    case PodOutcome::State::kPending: return "pending";
    case PodOutcome::State::kRejected: return "rejected";
    case PodOutcome::State::kPreempted: return "preempted";
  }
  return "unknown";
}

// JSON numbers: rounded to 3 decimals (nlohmann then prints the shortest form
// that reads back the same), so a value does not show 15 digits of noise.
// Non-finite values become null, which is what JSON can say.
nlohmann::json Rounded(double v) {
  if (!std::isfinite(v)) return nullptr;
  double r = std::round(v * 1000) / 1000;
  return r == 0 ? 0.0 : r;  // no -0
}

nlohmann::json PercentilesJson(const Percentiles& p) {
  return {{"count", p.count}, {"p50", Rounded(p.p50)}, {"p90", Rounded(p.p90)},
          {"p99", Rounded(p.p99)}, {"max", Rounded(p.max)}, {"mean", Rounded(p.mean)}};
}

std::string PolicyOf(const SimResult& r) { return r.policy.empty() ? r.summary.policy : r.policy; }

Status WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::IOError(fmt::format("cannot write \"{}\": {}", path.string(), std::strerror(errno)));
  out << text;
  out.close();
  if (!out) return Status::IOError(fmt::format("cannot write \"{}\": {}", path.string(), std::strerror(errno)));
  return Status::Ok();
}

Status MakeDir(const fs::path& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::IOError(fmt::format("cannot create directory \"{}\": {}", path.string(), ec.message()));
  if (!fs::is_directory(path, ec))
    return Status::IOError(fmt::format("cannot create directory \"{}\": a file of that name exists", path.string()));
  return Status::Ok();
}

}  // namespace

std::string CsvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string SeriesCsv(const SimResult& run) {
  std::string o =
      "time,gpu_alloc_pct,gpu_unalloc_pct,frag_pct,frag_of_idle_pct,pending,running,arrived_gpu_milli,"
      "gpu_milli_used,gpu_milli_total\n";
  for (const auto& s : run.series) {
    o += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", FormatFixed(s.time, 3), FormatFixed(s.gpu_alloc_pct, 4),
                     FormatFixed(s.gpu_unalloc_pct, 4), FormatFixed(s.frag_pct, 4), FormatFixed(s.frag_of_idle_pct, 4),
                     s.pending, s.running, s.arrived_gpu_milli, s.gpu_milli_used, s.gpu_milli_total);
  }
  return o;
}

std::string PodsCsv(const SimResult& run) {
  std::string o = "name,state,arrival,start,finish,node,attempts,evictions,reason\n";
  auto time = [](double t) { return t < 0 ? std::string() : FormatFixed(t, 3); };
  for (const auto& p : run.pods) {
    o += fmt::format("{},{},{},{},{},{},{},{},{}\n", CsvField(p.name), StateName(p.state), FormatFixed(p.arrival, 3),
                     time(p.start), time(p.finish), CsvField(p.node), p.attempts, p.evictions,
                     CsvField(p.reason + AdviceText(p.advice)));
  }
  return o;
}

nlohmann::json SummaryJson(const std::vector<SimResult>& runs) {
  nlohmann::json policies = nlohmann::json::array();
  for (const auto& r : runs) {
    const SimSummary& s = r.summary;
    policies.push_back({{"policy", PolicyOf(r)},
                        {"pods", s.pods},
                        {"finished", s.finished},
                        {"running", s.running},
                        {"pending", s.pending},
                        {"rejected", s.rejected},
                        {"scheduling_attempts", s.scheduling_attempts},
                        {"end_time", Rounded(s.end_time)},
                        {"mean_gpu_alloc_pct", Rounded(s.mean_gpu_alloc_pct)},
                        {"mean_frag_pct", Rounded(s.mean_frag_pct)},
                        {"queueing_delay", PercentilesJson(s.queueing_delay)},
                        {"jct", PercentilesJson(s.jct)}});
    if (s.preemptions > 0) {
      nlohmann::json by_priority = nlohmann::json::object();
      for (const auto& [prio, n] : s.victims_by_priority) by_priority[std::to_string(prio)] = n;
      policies.back()["preemption"] = {{"preemptions", s.preemptions},
                                       {"victims", s.victims},
                                       {"victims_by_priority", std::move(by_priority)},
                                       {"preempted", s.preempted},
                                       {"gpu_hours_lost", Rounded(s.gpu_hours_lost)}};
      if (s.gangs.gangs > 0) {
        // --preempt-gangs (docs/preemption.md): gangs left below minCount.
        auto& j = policies.back()["preemption"];
        j["gangs_broken"] = s.gangs_broken;
        j["broken_gang_gpu_hours_lost"] = Rounded(s.broken_gang_gpu_hours_lost);
        j["broken_gang_idle_gpu_hours"] = Rounded(s.broken_gang_idle_gpu_hours);
      }
    }
    if (s.gangs.gangs > 0) {
      // Gangs through the run (docs/gangs.md).
      const GangSimMetrics& g = s.gangs;
      policies.back()["gangs"] = {{"gangs", g.gangs},
                                  {"enforced", g.enforced},
                                  {"started", g.started},
                                  {"wait", PercentilesJson(g.wait)},
                                  {"waiting_gpu_seconds", Rounded(g.waiting_gpu_seconds)},
                                  {"timeouts", g.timeouts},
                                  {"gangs_timed_out", g.gangs_timed_out},
                                  {"retries", g.retries},
                                  {"session_rejections", g.session_rejections},
                                  {"optimistic_rejections", g.optimistic_rejections},
                                  {"partial_groups", g.partial_groups},
                                  {"partial_gpu_hours", Rounded(g.partial_gpu_hours)}};
    }
  }
  return {{"policies", std::move(policies)}};
}

std::string PolicyDirName(std::string_view policy) {
  std::string out;
  for (char c : policy) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-';
    out += ok ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") return "_";
  return out;
}

Status WriteSimOutputs(const std::string& dir, const std::vector<SimResult>& runs) {
  std::set<std::string> seen;
  for (const auto& r : runs) {
    std::string d = PolicyDirName(PolicyOf(r));
    if (!seen.insert(d).second) {
      return Status::InvalidArgument(fmt::format(
          "two runs would write to \"{}\": policy names must be distinct (\"{}\")", (fs::path(dir) / d).string(),
          PolicyOf(r)));
    }
  }
  const fs::path root(dir);
  if (Status st = MakeDir(root); !st.ok()) return st;
  for (const auto& r : runs) {
    const fs::path sub = root / PolicyDirName(PolicyOf(r));
    if (Status st = MakeDir(sub); !st.ok()) return st;
    if (Status st = WriteFile(sub / "timeseries.csv", SeriesCsv(r)); !st.ok()) return st;
    if (Status st = WriteFile(sub / "pods.csv", PodsCsv(r)); !st.ok()) return st;
  }
  return WriteFile(root / "summary.json",
                   SummaryJson(runs).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace gpusched
