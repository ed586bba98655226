// Loading a KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1),
// as `kube-scheduler --config` reads it: decode, default
// (pkg/scheduler/apis/config/v1/defaults.go), validate
// (pkg/scheduler/apis/config/validation) and check that every profile would
// build (frameworkruntime.NewFramework). An invalid file is an error whose
// message names the file and the line of the first problem, e.g.
//   config.yaml:12: invalid KubeSchedulerConfiguration:
//   profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight:
//   Invalid value: 101: resource weight of cpu not in valid range (0, 100]
// (one line; several errors are listed as upstream's aggregate prints them,
// "[e1, e2]"). What the file asks for that gpusched does not act on
// (extenders, other plugins' args, permit/preBind/... plugin sets, unknown
// fields) is accepted and reported in `warnings` as "file:line: text".
#ifndef GPUSCHED_IO_SCHEDULER_CONFIG_LOADER_H_
#define GPUSCHED_IO_SCHEDULER_CONFIG_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.h"
#include "gpusched/util/status.h"

namespace gpusched {

// Reads `path` ("-" for standard input). `warnings` may be null.
// `registry` is the plugin registry's catalog (sched/plugins/registry.h
// PluginRegistry::Catalog, InTreePlugins() for kube-scheduler's own): which
// plugins a profile may name, and how each reads its args.
Result<KubeSchedulerConfiguration> LoadSchedulerConfigFile(const std::string& path,
                                                           std::vector<std::string>* warnings,
                                                           const std::vector<InTreePlugin>& registry);

// Parses `text`; `file` is the name used in messages.
Result<KubeSchedulerConfiguration> LoadSchedulerConfigText(std::string_view text, const std::string& file,
                                                           std::vector<std::string>* warnings,
                                                           const std::vector<InTreePlugin>& registry);

}  // namespace gpusched

#endif  // GPUSCHED_IO_SCHEDULER_CONFIG_LOADER_H_
