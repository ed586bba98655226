// Reflector: keeps the ExtenderService's cluster view in step with the API
// server, as client-go's reflector keeps an informer's store: list (in pages
// of 500, pods without those in phase Succeeded or Failed, as kube-scheduler
// lists them), then watch from the list's resourceVersion with bookmarks
// (allowWatchBookmarks), applying ADDED / MODIFIED / DELETED events and
// moving the resourceVersion on with every event applied and every BOOKMARK.
// As client-go's reflector: a watch that ends (the server's timeoutSeconds)
// is started again from the last resourceVersion, and so is one whose
// connection dropped or was refused, or that was answered 429; any other
// watch failure cannot be resumed from and relists: "410 Gone" (an HTTP 410,
// or an ERROR event whose Status has code 410), any other HTTP error (400
// "invalid resource version"...), an ERROR event, a stream that does not
// parse. A failure waits before the next try: 0.8 s doubling to 30 s, with
// ±20% jitter, back to 0.8 s once no failure came for 2 minutes (client-go's
// backoff manager). An event whose object the decoder refuses, or that is
// not of the watched kind, is dropped with a log line and counted
// (gpusched_cluster_dropped_events_total), and its resourceVersion is not
// taken: it can neither change the view nor poison the point a watch
// resumes from.
//
// Beside Nodes and Pods, one reflector per kind of ReflectedObjectKinds()
// keeps the objects plugins read (Namespaces, Services, ReplicaSets, PVCs...)
// in the view, as kube-scheduler's informers keep them for its plugins.
//
// Health: the reflector is "in contact" while its watch is open (its request
// came back 200, whether events follow or not) or its last success is
// recent; /readyz reports stale once a reflector has lost contact for longer
// than the configured time (server/readiness.h).
#ifndef GPUSCHED_SERVER_REFLECTOR_H_
#define GPUSCHED_SERVER_REFLECTOR_H_

#include <atomic>
#include <condition_variable>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "gpusched/server/api_client.h"
#include "gpusched/server/extender.h"
#include "gpusched/server/metrics.h"

namespace gpusched {

// A kind serve lists and watches for its plugins (model/api_objects.h).
struct ReflectedKind {
  std::string_view kind;         // "PersistentVolumeClaim"
  std::string_view api_version;  // "v1", "storage.k8s.io/v1"
  std::string_view resource;     // "persistentvolumeclaims": logs, metrics, RBAC (deploy/rbac.yaml)
  std::string_view path;         // the collection: "/api/v1/persistentvolumeclaims"
  bool namespaced;
};
// InterPodAffinity's Namespaces; PodTopologySpread's Services,
// ReplicationControllers, ReplicaSets and StatefulSets; the volume plugins'
// PersistentVolumes, PersistentVolumeClaims, StorageClasses and CSINodes.
const std::vector<ReflectedKind>& ReflectedObjectKinds();

// One thing serve asks of the API server, as RBAC names it.
struct ApiAccess {
  std::string group;     // "" for the core group
  std::string resource;  // "pods", "pods/binding"
  std::string verb;      // "list", "watch", "create"
  auto operator<=>(const ApiAccess&) const = default;
};
// Everything serve asks of the API server, sorted: list and watch of nodes,
// pods and every ReflectedObjectKinds(), create of pods/binding (ApiBinder).
// deploy/rbac.yaml grants exactly this (tests/server/deploy_test.cc).
std::vector<ApiAccess> RequiredApiAccess();

struct ReflectorOptions {
  double initial_backoff_seconds = 0.8;
  double max_backoff_seconds = 30;
  // The watch's timeoutSeconds (the server ends it then; client-go picks
  // 5..10 minutes at random).
  int watch_timeout_seconds = 300;
  int page_size = 500;
  // No failure for this long: the next one waits the initial backoff again.
  double backoff_reset_seconds = 120;
  std::function<void(const std::string&)> log;  // one line per event worth telling
};

class Reflector {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Resource { kNodes, kPods, kObjects };

  Reflector(ApiConfig config, Resource resource, ExtenderService& extender, Metrics* metrics,
            ReflectorOptions options);
  // A reflector of one kind of ReflectedObjectKinds() (Resource::kObjects).
  Reflector(ApiConfig config, const ReflectedKind& kind, ExtenderService& extender, Metrics* metrics,
            ReflectorOptions options);
  ~Reflector();

  void Start();
  // Ends the watch in progress and joins the thread.
  void Stop();

  bool synced() const { return synced_.load(); }
  // Whether the watch is open (its response came back 200), and when the
  // last list, watch start, event or watch end was.
  bool connected() const { return connected_.load(); }
  Clock::time_point last_contact() const;
  std::string last_error() const;
  const char* name() const { return name_.c_str(); }

 private:
  void Run();
  // One list; true when it succeeded (rv_ is set).
  bool List();
  // One watch until it ends; true when it ended without an error (rewatch at once).
  // kTimeout: ended as watches end, rewatch at once; kResume: rewatch from
  // the same resourceVersion after a backoff; kRelist (410 Gone among
  // others): list again after a backoff.
  enum class WatchEnd { kTimeout, kResume, kRelist };
  WatchEnd Watch();
  void Contact();
  void Fail(const std::string& what);
  void Sleep(double seconds);
  // The collection's path and query start ("...?").
  std::string ListPath() const;
  // An object's key in the view: "namespace/name", or the name.
  std::string KeyOf(const DocNode& obj) const;
  // The kind this reflector watches ("Node", "Pod", "Service"...).
  std::string_view KindName() const;
  // The log line of a 410 Gone.
  std::string Gone() const;
  // A watch event not applied: logged and counted.
  void Drop(const std::string& why);

  ApiConfig config_;
  Resource resource_;
  ReflectedKind kind_{};  // Resource::kObjects
  std::string name_;
  ExtenderService& extender_;
  Metrics* metrics_;
  ReflectorOptions options_;
  std::unique_ptr<ApiClient> client_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> synced_{false};
  std::atomic<bool> connected_{false};
  std::string rv_;
  mutable std::mutex mu_;  // guards last_contact_, last_error_, and client_ against Stop
  Clock::time_point last_contact_{};
  std::string last_error_;
  std::condition_variable wake_;
  int lists_ = 0;
};

// Binds through the API server: the pods/binding subresource as
// kube-scheduler's DefaultBinder creates it, with the device annotations in
// the Binding's metadata, which the API server writes onto the pod in the
// same update as spec.nodeName (so the device plugin finds them when the
// kubelet admits the pod, and a refused binding leaves no annotation).
//
// Up to `concurrency` binds run at once, each on a connection of its own
// (one at a time, a slow API server made binds wait past kube-scheduler's
// httpTimeout and be carried out long after it had given up). Each has
// `timeout` from its call: one still waiting for a connection when only a
// quarter of it is left is not sent at all (it would most likely time out);
// one sent and unanswered is BindResult::maybe_bound, since
// the API server may still carry it out. The default timeout, 4 s, answers
// before the 5 s httpTimeout of deploy/'s extenders stanza.
struct BindOptions {
  int concurrency = 8;
  std::chrono::milliseconds timeout{4000};
};

class ApiBinder : public Binder {
 public:
  explicit ApiBinder(ApiConfig config, BindOptions options = {});
  ~ApiBinder() override;
  BindResult Bind(const Pod& pod, const std::string& node, const std::map<std::string, std::string>& annotations) override;

 private:
  ApiConfig config_;
  BindOptions options_;
  std::mutex mu_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<ApiClient>> idle_;  // connections not in use
  int open_ = 0;                                  // connections made
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_REFLECTOR_H_
