// The metrics `gpusched serve` exposes on GET /metrics, in the Prometheus
// text format through prometheus-cpp's core library (Debian's
// prometheus-cpp-dev; its registry, counters, gauges and histograms are
// thread-safe). Names and labels:
//   gpusched_extender_requests_total{verb,code}         counter
//   gpusched_extender_request_duration_seconds{verb}    histogram
//   gpusched_extender_decisions_total{verb,result}      counter
//     filter: one per node (passed, failed, unresolvable, unknown);
//     prioritize: one per request (scored); bind: bound, failed;
//     preempt: victims_chosen (one per request answered)
//   gpusched_extender_errors_total{verb,kind}           counter
//     kind: bad_request, too_large, not_ready, api_server
//   gpusched_cluster_nodes, gpusched_cluster_pods, gpusched_cluster_assumed_pods  gauges
//   gpusched_cluster_last_sync_timestamp_seconds        gauge (unix time of the last list or watch event)
//   gpusched_cluster_relists_total{resource}            counter (410 Gone or a watch that cannot resume)
//   gpusched_cluster_dropped_events_total{resource}     counter (watch events whose object does not decode
//                                                        or is of another kind: never applied)
// verb is one of filter, prioritize, preempt, bind, healthz, readyz, metrics.
#ifndef GPUSCHED_SERVER_METRICS_H_
#define GPUSCHED_SERVER_METRICS_H_

#include <memory>
#include <string>
#include <string_view>

namespace gpusched {

class Metrics {
 public:
  Metrics();
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  void Request(std::string_view verb, int code, double seconds);
  void Decision(std::string_view verb, std::string_view result, double n = 1);
  void Error(std::string_view verb, std::string_view kind);
  void ClusterSize(double nodes, double pods, double assumed);
  void Synced(double unix_seconds);
  void Relist(std::string_view resource);
  void DroppedEvent(std::string_view resource);

  // Everything in the text exposition format (version 0.0.4).
  std::string Text() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_METRICS_H_
