#include "gpusched/server/metrics.h"

#include <map>
#include <mutex>

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

namespace gpusched {

struct Metrics::Impl {
  prometheus::Registry registry;
  prometheus::Family<prometheus::Counter>& requests =
      prometheus::BuildCounter()
          .Name("gpusched_extender_requests_total")
          .Help("HTTP requests served, by verb and status code.")
          .Register(registry);
  prometheus::Family<prometheus::Histogram>& latency =
      prometheus::BuildHistogram()
          .Name("gpusched_extender_request_duration_seconds")
          .Help("Time from a request's body read to its response, by verb.")
          .Register(registry);
  prometheus::Family<prometheus::Counter>& decisions =
      prometheus::BuildCounter()
          .Name("gpusched_extender_decisions_total")
          .Help("Decisions: filter verdicts per node, prioritized requests, binds, preempt requests answered.")
          .Register(registry);
  prometheus::Family<prometheus::Counter>& errors =
      prometheus::BuildCounter()
          .Name("gpusched_extender_errors_total")
          .Help("Requests refused or failed, by verb and kind.")
          .Register(registry);
  prometheus::Gauge& nodes = prometheus::BuildGauge()
                                 .Name("gpusched_cluster_nodes")
                                 .Help("Nodes in gpusched's cluster view.")
                                 .Register(registry)
                                 .Add({});
  prometheus::Gauge& pods = prometheus::BuildGauge()
                                .Name("gpusched_cluster_pods")
                                .Help("Pods counted on nodes in gpusched's cluster view (assumed ones included).")
                                .Register(registry)
                                .Add({});
  prometheus::Gauge& assumed = prometheus::BuildGauge()
                                   .Name("gpusched_cluster_assumed_pods")
                                   .Help("Pods gpusched bound that the watch has not confirmed yet.")
                                   .Register(registry)
                                   .Add({});
  prometheus::Gauge& last_sync = prometheus::BuildGauge()
                                     .Name("gpusched_cluster_last_sync_timestamp_seconds")
                                     .Help("Unix time of the last list or watch event from the API server.")
                                     .Register(registry)
                                     .Add({});
  prometheus::Family<prometheus::Counter>& relists =
      prometheus::BuildCounter()
          .Name("gpusched_cluster_relists_total")
          .Help("Lists of a resource after the first (410 Gone, or a watch that could not resume).")
          .Register(registry);
  prometheus::Family<prometheus::Counter>& dropped =
      prometheus::BuildCounter()
          .Name("gpusched_cluster_dropped_events_total")
          .Help("Watch events not applied: their object does not decode, or is not of the watched kind.")
          .Register(registry);

  // Family::Add takes the family's lock and hashes the labels: the metrics
  // of each label set are looked up once.
  std::mutex mu;
  std::map<std::pair<std::string, int>, prometheus::Counter*> request_counters;
  std::map<std::string, prometheus::Histogram*> histograms;
  std::map<std::pair<std::string, std::string>, prometheus::Counter*> decision_counters, error_counters;

  template <class Map, class Make>
  auto* Get(Map& m, const typename Map::key_type& key, Make make) {
    std::lock_guard<std::mutex> l(mu);
    auto it = m.find(key);
    if (it == m.end()) it = m.emplace(key, make()).first;
    return it->second;
  }
};

Metrics::Metrics() : impl_(std::make_unique<Impl>()) {}
Metrics::~Metrics() = default;

void Metrics::Request(std::string_view verb, int code, double seconds) {
  Impl& m = *impl_;
  const std::string v(verb);
  m.Get(m.request_counters, {v, code}, [&] {
     return &m.requests.Add({{"verb", v}, {"code", std::to_string(code)}});
   })->Increment();
  m.Get(m.histograms, v, [&] {
     return &m.latency.Add({{"verb", v}},
                           prometheus::Histogram::BucketBoundaries{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                                   0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5});
   })->Observe(seconds);
}

void Metrics::Decision(std::string_view verb, std::string_view result, double n) {
  Impl& m = *impl_;
  const std::string v(verb), r(result);
  m.Get(m.decision_counters, {v, r}, [&] { return &m.decisions.Add({{"verb", v}, {"result", r}}); })->Increment(n);
}

void Metrics::Error(std::string_view verb, std::string_view kind) {
  Impl& m = *impl_;
  const std::string v(verb), k(kind);
  m.Get(m.error_counters, {v, k}, [&] { return &m.errors.Add({{"verb", v}, {"kind", k}}); })->Increment();
}

void Metrics::ClusterSize(double nodes, double pods, double assumed) {
  impl_->nodes.Set(nodes);
  impl_->pods.Set(pods);
  impl_->assumed.Set(assumed);
}

void Metrics::Synced(double unix_seconds) { impl_->last_sync.Set(unix_seconds); }

void Metrics::Relist(std::string_view resource) {
  impl_->relists.Add({{"resource", std::string(resource)}}).Increment();
}

void Metrics::DroppedEvent(std::string_view resource) {
  impl_->dropped.Add({{"resource", std::string(resource)}}).Increment();
}

std::string Metrics::Text() const {
  prometheus::TextSerializer serializer;
  return serializer.Serialize(impl_->registry.Collect());
}

}  // namespace gpusched
