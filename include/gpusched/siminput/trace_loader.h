// Loading the Alibaba GPU cluster trace of 2023 (cluster-trace-gpu-v2023, the
// "openb" CSVs the FGD paper's simulator replays; see
// data/alibaba-gpu-2023/README.md) into Nodes and a Workload.
//
// Node list, `sn,cpu_milli,memory_mib,gpu,model`: each row is a Node with
// allocatable (and capacity) cpu, memory, pods: 1001 (as the FGD simulator's
// node YAML), nvidia.com/gpu when gpu > 0, and the label
// alibabacloud.com/gpu-card-model when the model is given.
//
// Pod list, `name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,
// pod_phase,creation_time,deletion_time,scheduled_time` or the multigpu
// files' `name,cpu_milli,memory_mib,num_gpu,gpu_milli`: each row is a pod in
// namespace default with one container "main" whose requests are cpu and
// memory, plus
//   - whole GPUs (gpu_milli 1000): nvidia.com/gpu: num_gpu;
//   - GPU sharing (num_gpu 1, gpu_milli 1..999): the annotations
//     alibabacloud.com/gpu-milli and alibabacloud.com/gpu-count: "1";
//   - gpu_spec: the annotation alibabacloud.com/gpu-card-model, as written;
//   - qos: the label gpusched.io/qos.
// It arrives at creation_time and runs deletion_time - scheduled_time
// (deletion_time - creation_time when it was never scheduled; forever when
// it has no deletion_time). The multigpu form has no times: every pod arrives
// at 0 and runs forever, as in the FGD simulator. pod_phase is the pod's
// phase at the end of the trace, not an input to scheduling, and is not kept.
// The container has no limits: a trace pod is not an API object to validate
// (limits matter only there), scheduling reads requests alone, and a second
// map per pod would cost a sixth of a million-row trace's memory.
//
// A row that is not valid is reported as an InputError naming the file, the
// line (the header is line 1) and the column, e.g.
//   column num_gpu: invalid value "x": must be a non-negative integer
// and is not loaded; every other row is. Blank lines are skipped. Quoted
// fields are refused (the trace has none; a quote means the file is not the
// trace's format). Only a file that cannot be read, is empty, or has the
// wrong header is a non-OK Status.
#ifndef GPUSCHED_SIMINPUT_TRACE_LOADER_H_
#define GPUSCHED_SIMINPUT_TRACE_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/node.h"
#include "gpusched/sim/workload.h"
#include "gpusched/util/input_error.h"
#include "gpusched/util/status.h"

namespace gpusched {

// The label the trace's qos column becomes (LS, BE, Burstable, Guaranteed).
inline constexpr std::string_view kLabelTraceQos = "gpusched.io/qos";
// Pods a trace node takes, as the FGD simulator's node YAML gives it.
inline constexpr int64_t kTraceNodeMaxPods = 1001;

// Appends the nodes of an openb_node_list_*.csv to `nodes` and its invalid
// rows to `rejected`. The file is streamed, never held whole in memory.
Status LoadTraceNodes(const std::string& path, std::vector<Node>& nodes, std::vector<InputError>& rejected);
// The same for text already in memory; `file` is the name used in messages.
Status LoadTraceNodesText(std::string_view text, const std::string& file, std::vector<Node>& nodes,
                          std::vector<InputError>& rejected);

// Appends the pods of an openb_pod_list_*.csv to out.pods (with file and
// line) and its invalid rows to out.rejected.
Status LoadTracePods(const std::string& path, Workload& out);
Status LoadTracePodsText(std::string_view text, const std::string& file, Workload& out);

}  // namespace gpusched

#endif  // GPUSCHED_SIMINPUT_TRACE_LOADER_H_
