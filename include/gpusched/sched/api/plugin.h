// Plugin: what every scheduler plugin is, whichever extension points it
// implements. As upstream's plugins (one Go struct asserting fwk.FilterPlugin,
// fwk.ScorePlugin, ...), one C++ class derives from each extension point's
// interface it implements (filter_plugin.h, score_plugin.h); they share this
// base virtually, so the class has one name. The registry
// (sched/plugins/registry.h) makes an object of it for each extension point's
// list a profile puts it in (the filter chain, the score plugins): plugins
// hold only their args, so the two are the same.
#ifndef GPUSCHED_SCHED_API_PLUGIN_H_
#define GPUSCHED_SCHED_API_PLUGIN_H_

#include <string_view>

namespace gpusched {

class Plugin {
 public:
  virtual ~Plugin() = default;
  // The name configurations use (config/plugin_names.h).
  virtual std::string_view Name() const = 0;
  // Plugins that keep an index of their own (PodTopologySpread's and
  // InterPodAffinity's pod counts, sched/plugins/pod_match_index.h) answer
  // from their plain loops when it is off: the reference their indexed
  // answers are tested against (Scheduler::set_use_index passes it on).
  virtual void SetUseIndex(bool on) const { (void)on; }
};

}  // namespace gpusched

#endif  // GPUSCHED_SCHED_API_PLUGIN_H_
