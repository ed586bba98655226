#include "gpusched/siminput/trace_loader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "gpusched/io/line_reader.h"
#include "gpusched/io/name_set.h"
#include "gpusched/model/gpu_request.h"
#include "gpusched/model/validation.h"

namespace gpusched {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model";
constexpr std::string_view kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time";
constexpr std::string_view kMultiGpuPodHeader = "name,cpu_milli,memory_mib,num_gpu,gpu_milli";

constexpr std::array<std::string_view, 5> kNodeColumns = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};
constexpr std::array<std::string_view, 11> kPodColumns = {
    "name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec",
    "qos", "pod_phase", "creation_time", "deletion_time", "scheduled_time"};
// The multigpu files have the first five of kPodColumns.
constexpr size_t kMultiGpuColumns = 5;
enum NodeColumn : size_t { kSn, kNodeCpu, kNodeMemory, kNodeGpu, kNodeModel };
enum PodColumn : size_t {
  kName, kCpu, kMemory, kNumGpu, kGpuMilliColumn, kGpuSpec, kQos, kPhase, kCreation, kDeletion, kScheduled
};

constexpr int64_t kMiB = 1024 * 1024;
// Quantity keeps values whose milli-value fits in int64; memory_mib above
// this would not (about 8 PiB).
constexpr int64_t kMaxMemoryMib = std::numeric_limits<int64_t>::max() / 1000 / kMiB;

using Fields = std::array<std::string_view, kPodColumns.size()>;

std::string ColumnError(std::string_view column, std::string_view value, std::string_view detail) {
  return "column " + std::string(column) + ": invalid value " + GoQuote(value) + ": " + std::string(detail);
}

// Splits `line` at commas into exactly columns.size() fields of `f`. On
// failure sets `error`; f[0] still holds the first field (the object's name).
bool SplitRow(std::string_view line, std::span<const std::string_view> columns, Fields& f, std::string& error) {
  size_t n = 0;
  for (size_t start = 0;; ++n) {
    size_t comma = line.find(',', start);
    if (n < f.size()) f[n] = line.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  ++n;
  // A quoted field may hide commas, so the quote is reported before the
  // column count it would make wrong.
  if (size_t q = line.find('"'); q != std::string_view::npos) {
    const size_t col = static_cast<size_t>(std::count(line.begin(), line.begin() + q, ','));
    const size_t b = line.rfind(',', q);
    const size_t begin = b == std::string_view::npos ? 0 : b + 1;
    const size_t e = line.find(',', q);
    std::string name = col < columns.size() ? std::string(columns[col]) : "#" + std::to_string(col + 1);
    error = ColumnError(name, line.substr(begin, e == std::string_view::npos ? e : e - begin),
                        "quoted fields are not supported (the trace's CSVs have none)");
    return false;
  }
  if (n != columns.size()) {
    error = "wrong number of columns: expected " + std::to_string(columns.size()) + ", got " + std::to_string(n);
    return false;
  }
  return true;
}

// Reads the columns of one row, keeping the first problem found.
class Row {
 public:
  Row(const Fields& f, std::span<const std::string_view> columns) : f_(f), columns_(columns) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void Fail(size_t col, std::string_view detail) {
    if (error_.empty()) error_ = ColumnError(columns_[col], f_[col], detail);
  }

  // A non-negative decimal integer: digits only, no sign, no spaces.
  int64_t Count(size_t col) { return OptionalCount(col, /*empty_ok=*/false).value_or(0); }
  // The same, but an empty field is nullopt.
  std::optional<int64_t> OptionalCount(size_t col, bool empty_ok = true) {
    std::string_view v = f_[col];
    if (v.empty() && empty_ok) return std::nullopt;
    // from_chars would take a leading '-'; the trace's numbers have no sign.
    if (v.empty() || v[0] < '0' || v[0] > '9') {
      Fail(col, "must be a non-negative integer");
      return std::nullopt;
    }
    int64_t x = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ptr != v.data() + v.size()) {
      Fail(col, "must be a non-negative integer");
      return std::nullopt;
    }
    if (ec == std::errc::result_out_of_range) {
      Fail(col, "must be at most 9223372036854775807");
      return std::nullopt;
    }
    return x;
  }

  void CheckName(size_t col) {
    if (f_[col].empty()) return Fail(col, "must not be empty");
    std::vector<std::string> errs = IsDNS1123Subdomain(f_[col]);
    if (!errs.empty()) Fail(col, errs.front());
  }
  void CheckLabelValue(size_t col) {
    std::vector<std::string> errs = IsValidLabelValue(f_[col]);
    if (!errs.empty()) Fail(col, errs.front());
  }
  int64_t MemoryMib(size_t col) {
    int64_t mib = Count(col);
    if (mib > kMaxMemoryMib) Fail(col, "quantity too large");
    return mib;
  }

 private:
  const Fields& f_;
  std::span<const std::string_view> columns_;
  std::string error_;
};

Quantity Memory(int64_t mib) { return Quantity::FromInt(mib * kMiB, Quantity::Format::kBinarySI); }

// Strips a UTF-8 byte-order mark, which spreadsheet programs write.
std::string_view StripBom(std::string_view s) { return s.starts_with("\xEF\xBB\xBF") ? s.substr(3) : s; }

Status OpenTraceFile(const std::string& path, std::ifstream& in) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return Status::NotFound("error: the path \"" + path + "\" does not exist");
  if (fs::is_directory(st)) return Status::IOError("error: \"" + path + "\" is a directory, not a trace CSV file");
  in.open(path, std::ios::binary);
  if (!in) return Status::IOError("error: cannot read \"" + path + "\"");
  return Status::Ok();
}

// Where Next stopped at an overlong line: the rows before it are loaded.
Status TooLong(const LineReader& lines, const std::string& file) {
  if (!lines.too_long()) return Status::Ok();
  const size_t max = lines.max_line();
  const std::string limit = max % (size_t{1} << 20) == 0 ? std::to_string(max >> 20) + " MiB" : std::to_string(max) + " bytes";
  return Status::ParseError(file + ":" + std::to_string(lines.number() + 1) + ": a line longer than the " + limit +
                            " gpusched accepts; the rows after it were not read");
}

// Reads the header line; non-OK when the file is empty. `header` is set to it.
Status ReadHeader(LineReader& lines, const std::string& file, std::string_view expected, std::string_view& header) {
  if (!lines.Next(header)) {
    if (Status s = TooLong(lines, file); !s.ok()) return s;
    return Status::ParseError(file + ": empty file: expected the header line \"" + std::string(expected) + "\"");
  }
  header = StripBom(header);
  return Status::Ok();
}

Status WrongHeader(const std::string& file, std::string_view header, std::string_view expected) {
  return Status::ParseError(file + ":1: unexpected header " + GoQuote(header) + ": expected " + std::string(expected));
}

// The row loop both tables share: blank lines skipped, a row that does not
// split into `columns` rejected with SplitRow's message, each other row's
// fields put in `f` and handed to `parse`.
template <typename Reject, typename Parse>
void ForEachRow(LineReader& lines, std::span<const std::string_view> columns, Fields& f, const Reject& reject,
                const Parse& parse) {
  std::string_view line;
  while (lines.Next(line)) {
    if (line.empty()) continue;
    std::string split_error;
    if (!SplitRow(line, columns, f, split_error)) {
      reject(std::move(split_error));
      continue;
    }
    parse();
  }
}

// The last check of a row in both tables: its first field error, else a
// name seen before (`kind` is "nodes" or "pods", as the API server says it).
// True when the row is kept, as entry `index` of `seen`.
template <typename Seen, typename Reject>
bool Admit(const Row& row, Seen& seen, std::string_view name, uint64_t hash, size_t index, std::string_view kind,
           const Reject& reject) {
  if (!row.ok()) {
    reject(row.error());
    return false;
  }
  if (!seen.Insert(name, hash, index)) {
    reject(std::string(kind) + " \"" + std::string(name) + "\" already exists");
    return false;
  }
  return true;
}

Status LoadNodeLines(LineReader& lines, const std::string& file, std::vector<Node>& nodes,
                     std::vector<InputError>& rejected) {
  std::string_view header;
  if (Status s = ReadHeader(lines, file, kNodeHeader, header); !s.ok()) return s;
  if (header != kNodeHeader) {
    Status st = WrongHeader(file, header, "\"" + std::string(kNodeHeader) + "\"");
    if (header == kPodHeader || header == kMultiGpuPodHeader)
      return Status::ParseError(st.message() + " (this is a trace pod list; the cluster is a node list, openb_node_list_*.csv)");
    return st;
  }
  const size_t rows = lines.RemainingBound();
  nodes.reserve(nodes.size() + rows);
  NameSet seen(rows, [&nodes](size_t i) -> std::string_view { return nodes[i].meta.name; });
  Fields f;
  auto reject = [&](std::string message) {
    rejected.push_back(InputError{"Node/" + std::string(f[kSn]), file, lines.number(), std::move(message)});
  };
  ForEachRow(lines, kNodeColumns, f, reject, [&] {
    const uint64_t hash = seen.Prefetch(f[kSn]);
    Row row(f, kNodeColumns);
    row.CheckName(kSn);
    const int64_t cpu = row.Count(kNodeCpu);
    const int64_t mib = row.MemoryMib(kNodeMemory);
    const int64_t gpu = row.Count(kNodeGpu);
    row.CheckLabelValue(kNodeModel);
    if (!Admit(row, seen, f[kSn], hash, nodes.size(), "nodes", reject)) return;
    Node& node = nodes.emplace_back();
    node.meta.name.assign(f[kSn]);
    ResourceList& alloc = node.allocatable;
    alloc.emplace(std::string(kResourceCPU), Quantity::FromMilli(cpu));
    alloc.emplace(std::string(kResourceMemory), Memory(mib));
    alloc.emplace(std::string(kResourcePods), Quantity::FromInt(kTraceNodeMaxPods));
    if (gpu > 0) alloc.emplace(std::string(kResourceGPU), Quantity::FromInt(gpu));
    node.has_allocatable = true;
    node.capacity = alloc;
    if (!f[kNodeModel].empty()) node.meta.labels.emplace(std::string(kLabelGpuCardModel), std::string(f[kNodeModel]));
  });
  return TooLong(lines, file);
}

Status LoadPodLines(LineReader& lines, const std::string& file, Workload& out) {
  std::string_view header;
  if (Status s = ReadHeader(lines, file, kPodHeader, header); !s.ok()) return s;
  size_t ncols = 0;
  if (header == kPodHeader) {
    ncols = kPodColumns.size();
  } else if (header == kMultiGpuPodHeader) {
    ncols = kMultiGpuColumns;
  } else {
    Status st = WrongHeader(file, header,
                            "\"" + std::string(kPodHeader) + "\" or \"" + std::string(kMultiGpuPodHeader) + "\"");
    if (header == kNodeHeader)
      return Status::ParseError(st.message() + " (this is a trace node list; the workload is a pod list, openb_pod_list_*.csv)");
    return st;
  }
  const std::span<const std::string_view> columns(kPodColumns.data(), ncols);
  const bool timed = ncols == kPodColumns.size();
  const size_t rows = lines.RemainingBound();
  out.pods.reserve(out.pods.size() + rows);
  std::vector<WorkloadPod>& pods = out.pods;
  NameSet seen(rows, [&pods](size_t i) -> std::string_view { return pods[i].pod.meta.name; });
  const SourceFile source(file);
  Fields f;
  auto reject = [&](std::string message) {
    out.rejected.push_back(
        InputError{"Pod/default/" + std::string(f[kName]), file, lines.number(), std::move(message)});
  };
  ForEachRow(lines, columns, f, reject, [&] {
    const uint64_t hash = seen.Prefetch(f[kName]);
    Row row(f, columns);
    row.CheckName(kName);
    const int64_t cpu = row.Count(kCpu);
    const int64_t mib = row.MemoryMib(kMemory);
    const int64_t num_gpu = row.Count(kNumGpu);
    const int64_t gpu_milli = row.Count(kGpuMilliColumn);
    if (row.ok()) {
      // The trace's three shapes: CPU-only (0, 0), whole GPUs (n, 1000) and
      // a share of one GPU (1, 1..999). Anything else has no meaning.
      if (gpu_milli > kGpuMilli) {
        row.Fail(kGpuMilliColumn, "must be between 0 and 1000");
      } else if (num_gpu == 0 && gpu_milli > 0) {
        row.Fail(kGpuMilliColumn, "must be 0 when num_gpu is 0");
      } else if (num_gpu == 1 && gpu_milli == 0) {
        row.Fail(kGpuMilliColumn, "must be between 1 and 1000 when num_gpu is 1");
      } else if (num_gpu > 1 && gpu_milli != kGpuMilli) {
        row.Fail(kGpuMilliColumn, "must be 1000 when num_gpu is greater than 1 (only a single-GPU pod shares a GPU)");
      }
    }
    double arrival = 0;
    double duration = -1;
    if (timed) {
      if (!f[kQos].empty()) row.CheckLabelValue(kQos);
      const int64_t created = row.Count(kCreation);
      const std::optional<int64_t> deleted = row.OptionalCount(kDeletion);
      const std::optional<int64_t> scheduled = row.OptionalCount(kScheduled);
      if (row.ok() && deleted) {
        if (*deleted < created) {
          row.Fail(kDeletion, "must not be before creation_time (" + std::to_string(created) + ")");
        } else if (scheduled && *deleted < *scheduled) {
          row.Fail(kDeletion, "must not be before scheduled_time (" + std::to_string(*scheduled) + ")");
        }
      }
      arrival = static_cast<double>(created);
      if (deleted) duration = static_cast<double>(*deleted - (scheduled ? *scheduled : created));
    }
    if (!Admit(row, seen, f[kName], hash, pods.size(), "pods", reject)) return;
    WorkloadPod& wp = out.pods.emplace_back();
    wp.arrival = arrival;
    wp.duration = duration;
    wp.file = source;
    wp.line = lines.number();
    Pod& pod = wp.pod;
    pod.meta.name.assign(f[kName]);
    pod.meta.namespace_ = kDefaultNamespace;
    Container& c = pod.containers.emplace_back();
    c.name = "main";
    c.requests.emplace(std::string(kResourceCPU), Quantity::FromMilli(cpu));
    c.requests.emplace(std::string(kResourceMemory), Memory(mib));
    if (gpu_milli == kGpuMilli) {
      c.requests.emplace(std::string(kResourceGPU), Quantity::FromInt(num_gpu));
    } else if (gpu_milli > 0) {
      pod.meta.annotations.emplace(std::string(kAnnotationGpuMilli), std::to_string(gpu_milli));
      pod.meta.annotations.emplace(std::string(kAnnotationGpuCount), "1");
    }
    if (timed) {
      if (!f[kGpuSpec].empty())
        pod.meta.annotations.emplace(std::string(kAnnotationGpuCardModel), std::string(f[kGpuSpec]));
      if (!f[kQos].empty()) pod.meta.labels.emplace(std::string(kLabelTraceQos), std::string(f[kQos]));
    }
  });
  return TooLong(lines, file);
}

// A read that fails midway leaves the rows before it loaded.
Status ReadFailed(const LineReader& lines, const std::string& path) {
  if (!lines.failed()) return Status::Ok();
  return Status::IOError("error: cannot read \"" + path + "\" after line " + std::to_string(lines.number()));
}

}  // namespace

Status LoadTraceNodesText(std::string_view text, const std::string& file, std::vector<Node>& nodes,
                          std::vector<InputError>& rejected) {
  LineReader lines(text);
  return LoadNodeLines(lines, file, nodes, rejected);
}

Status LoadTraceNodes(const std::string& path, std::vector<Node>& nodes, std::vector<InputError>& rejected) {
  std::ifstream in;
  if (Status s = OpenTraceFile(path, in); !s.ok()) return s;
  LineReader lines(std::move(in));
  if (Status s = LoadNodeLines(lines, path, nodes, rejected); !s.ok()) return s;
  return ReadFailed(lines, path);
}

Status LoadTracePodsText(std::string_view text, const std::string& file, Workload& out) {
  LineReader lines(text);
  return LoadPodLines(lines, file, out);
}

Status LoadTracePods(const std::string& path, Workload& out) {
  std::ifstream in;
  if (Status s = OpenTraceFile(path, in); !s.ok()) return s;
  LineReader lines(std::move(in));
  if (Status s = LoadPodLines(lines, path, out); !s.ok()) return s;
  return ReadFailed(lines, path);
}

}  // namespace gpusched
