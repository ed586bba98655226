#include "gpusched/server/reflector.h"

#include <algorithm>
#include <condition_variable>
#include <optional>
#include <random>
#include <sstream>

#include "gpusched/io/json_documents.h"
#include "gpusched/io/object_decoder.h"
#include "gpusched/server/go_json.h"

namespace gpusched {
namespace {

constexpr ReflectedKind kObjectKinds[] = {
    {"Namespace", "v1", "namespaces", "/api/v1/namespaces", false},
    {"Service", "v1", "services", "/api/v1/services", true},
    {"ReplicationController", "v1", "replicationcontrollers", "/api/v1/replicationcontrollers", true},
    {"ReplicaSet", "apps/v1", "replicasets", "/apis/apps/v1/replicasets", true},
    {"StatefulSet", "apps/v1", "statefulsets", "/apis/apps/v1/statefulsets", true},
    {"PersistentVolume", "v1", "persistentvolumes", "/api/v1/persistentvolumes", false},
    {"PersistentVolumeClaim", "v1", "persistentvolumeclaims", "/api/v1/persistentvolumeclaims", true},
    {"StorageClass", "storage.k8s.io/v1", "storageclasses", "/apis/storage.k8s.io/v1/storageclasses", false},
    {"CSINode", "storage.k8s.io/v1", "csinodes", "/apis/storage.k8s.io/v1/csinodes", false},
};


double UnixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

const std::vector<ReflectedKind>& ReflectedObjectKinds() {
  static const std::vector<ReflectedKind> kinds(std::begin(kObjectKinds), std::end(kObjectKinds));
  return kinds;
}

std::vector<ApiAccess> RequiredApiAccess() {
  std::vector<ApiAccess> out;
  auto watched = [&out](std::string group, const std::string& resource) {
    out.push_back({group, resource, "list"});
    out.push_back({std::move(group), resource, "watch"});
  };
  watched("", "nodes");  // Reflector::Resource::kNodes
  watched("", "pods");   // Reflector::Resource::kPods
  for (const ReflectedKind& k : ReflectedObjectKinds()) {
    const size_t slash = k.api_version.find('/');
    watched(slash == std::string_view::npos ? "" : std::string(k.api_version.substr(0, slash)), std::string(k.resource));
  }
  out.push_back({"", "pods/binding", "create"});  // ApiBinder::Bind
  std::sort(out.begin(), out.end());
  return out;
}

Reflector::Reflector(ApiConfig config, Resource resource, ExtenderService& extender, Metrics* metrics,
                     ReflectorOptions options)
    : config_(std::move(config)), resource_(resource), name_(resource == Resource::kNodes ? "nodes" : "pods"),
      extender_(extender), metrics_(metrics), options_(std::move(options)) {
  client_ = std::make_unique<ApiClient>(config_, 60);
}

Reflector::Reflector(ApiConfig config, const ReflectedKind& kind, ExtenderService& extender, Metrics* metrics,
                     ReflectorOptions options)
    : config_(std::move(config)), resource_(Resource::kObjects), kind_(kind), name_(kind.resource),
      extender_(extender), metrics_(metrics), options_(std::move(options)) {
  client_ = std::make_unique<ApiClient>(config_, 60);
}

std::string Reflector::ListPath() const {
  switch (resource_) {
    case Resource::kNodes: return "/api/v1/nodes?";
    case Resource::kPods: return "/api/v1/pods?fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed&";
    case Resource::kObjects: break;
  }
  return std::string(kind_.path) + "?";
}

std::string Reflector::KeyOf(const DocNode& obj) const {
  const DocNode meta = obj["metadata"];
  std::string key(meta["name"].Scalar());
  if (kind_.namespaced) key = std::string(meta["namespace"].Scalar()) + "/" + key;
  return key;
}

Reflector::~Reflector() { Stop(); }

void Reflector::Start() { thread_ = std::thread([this] { Run(); }); }

void Reflector::Stop() {
  stop_ = true;
  {
    std::lock_guard<std::mutex> l(mu_);
    wake_.notify_all();
  }
  client_->Stop();
  if (thread_.joinable()) thread_.join();
}

Reflector::Clock::time_point Reflector::last_contact() const {
  std::lock_guard<std::mutex> l(mu_);
  return last_contact_;
}

std::string Reflector::last_error() const {
  std::lock_guard<std::mutex> l(mu_);
  return last_error_;
}

void Reflector::Contact() {
  std::lock_guard<std::mutex> l(mu_);
  last_contact_ = Clock::now();
  if (metrics_) metrics_->Synced(UnixNow());
}

void Reflector::Fail(const std::string& what) {
  {
    std::lock_guard<std::mutex> l(mu_);
    last_error_ = what;
  }
  if (options_.log) options_.log(std::string(name()) + ": " + what);
}

void Reflector::Sleep(double seconds) {
  std::unique_lock<std::mutex> l(mu_);
  wake_.wait_for(l, std::chrono::duration<double>(seconds), [this] { return stop_.load(); });
}

void Reflector::Run() {
  std::mt19937_64 jitter(std::random_device{}());
  double backoff = options_.initial_backoff_seconds;
  std::optional<Clock::time_point> last_failure;
  // client-go's ExponentialBackoffManager: a failure after a quiet period
  // (no failure for backoff_reset_seconds) starts from the initial delay.
  auto wait = [&] {
    const Clock::time_point now = Clock::now();
    if (last_failure && now - *last_failure > std::chrono::duration<double>(options_.backoff_reset_seconds))
      backoff = options_.initial_backoff_seconds;
    last_failure = now;
    std::uniform_real_distribution<double> d(0.8, 1.2);
    Sleep(backoff * d(jitter));
    backoff = std::min(backoff * 2, options_.max_backoff_seconds);
  };
  bool need_list = true;
  while (!stop_) {
    if (need_list) {
      if (!List()) {
        wait();
        continue;
      }
      need_list = false;
    }
    const WatchEnd end = Watch();
    connected_ = false;
    if (stop_) break;
    switch (end) {
      case WatchEnd::kTimeout:
        break;
      case WatchEnd::kResume:
        wait();
        break;
      case WatchEnd::kRelist:
        need_list = true;
        wait();
        break;
    }
  }
}

std::string_view Reflector::KindName() const {
  switch (resource_) {
    case Resource::kNodes: return "Node";
    case Resource::kPods: return "Pod";
    case Resource::kObjects: break;
  }
  return kind_.kind;
}

std::string Reflector::Gone() const { return "410 Gone: resourceVersion " + rv_ + " is too old; listing again"; }

void Reflector::Drop(const std::string& why) {
  Fail(why);
  if (metrics_) metrics_->DroppedEvent(name());
}

bool Reflector::List() {
  std::string cont;
  std::string rv;
  std::vector<Node> nodes;
  std::vector<std::pair<Pod, bool>> pods;
  std::vector<std::pair<std::string, ApiObjects>> objects;
  const std::string kind(kind_.kind), api_version(kind_.api_version);
  size_t refused = 0;
  do {
    std::string path = ListPath() + "limit=" + std::to_string(options_.page_size);
    if (!cont.empty()) path += "&continue=" + cont;
    ApiResponse r = client_->Get(path);
    if (!r.ok()) {
      Fail("list failed: " + r.Describe());
      return false;
    }
    std::string error;
    cont.clear();
    JsonStreamEvents events;
    ObjectDecodeOptions opts;
    opts.strict = false;
    opts.source = name();
    events.item = [&](const DocNode& item) {
      if (resource_ == Resource::kObjects) {
        Result<ApiObjects> o = DecodeApiObject(item, kind, api_version, opts);
        if (o.ok()) {
          objects.emplace_back(KeyOf(item), std::move(o).value());
        } else {
          ++refused;
          Fail("skipping a " + kind + ": " + o.status().message());
        }
      } else if (resource_ == Resource::kNodes) {
        Result<Node> n = DecodeNodeObject(item, opts);
        if (n.ok()) {
          nodes.push_back(std::move(n).value());
        } else {
          ++refused;
          Fail("skipping a node: " + n.status().message());
        }
      } else {
        Result<DecodedPod> p = DecodePodObject(item, opts);
        if (p.ok()) {
          pods.emplace_back(std::move(p->pod), p->terminated);
        } else {
          ++refused;
          Fail("skipping a pod: " + p.status().message());
        }
      }
    };
    events.end = [&](const DocNode& list, size_t) {
      rv = std::string(list["metadata"]["resourceVersion"].Scalar());
      cont = std::string(list["metadata"]["continue"].Scalar());
    };
    events.error = [&](int, const std::string& m) { error = m; };
    ParseJsonStream(r.body, 1, events);
    if (!error.empty()) {
      Fail("list: " + error);
      return false;
    }
  } while (!cont.empty() && !stop_);
  if (stop_) return false;
  if (resource_ == Resource::kObjects) {
    extender_.Update([&](ClusterView& v) { v.ReplaceObjects(kind_.resource, std::move(objects)); });
  } else if (resource_ == Resource::kNodes) {
    extender_.Update([&](ClusterView& v) { v.ReplaceNodes(std::move(nodes)); });
  } else {
    extender_.Update([&](ClusterView& v) { v.ReplacePods(pods); });
  }
  rv_ = rv;
  if (lists_++ > 0 && metrics_) metrics_->Relist(name());
  synced_ = true;
  Contact();
  return true;
}

Reflector::WatchEnd Reflector::Watch() {
  const std::string path = ListPath() + "watch=1&allowWatchBookmarks=true&resourceVersion=" + rv_ +
                           "&timeoutSeconds=" + std::to_string(options_.watch_timeout_seconds);
  WatchEnd end = WatchEnd::kTimeout;
  ObjectDecodeOptions opts;
  opts.strict = false;
  opts.source = name();
  const auto on_response = [&](int status) {
    // The watch is open once its request comes back 200, events or not: a
    // quiet cluster sends nothing for minutes (bookmarks aside), and that
    // is health, not staleness (client-go's reflector sees it the same way).
    if (status == 200) {
      connected_ = true;
      Contact();
    }
  };
  ApiResponse r = client_->Stream(path, options_.watch_timeout_seconds + 30.0, [&](std::string_view line) {
    bool keep = true;
    JsonStreamEvents events;
    events.end = [&](const DocNode& ev, size_t) {
      const std::string type = std::string(ev["type"].Scalar());
      const DocNode obj = ev["object"];
      if (type == "ERROR") {
        // A metav1.Status; 410 means the resourceVersion is gone, anything
        // else cannot be resumed from either.
        const std::string code = std::string(obj["code"].Scalar());
        end = WatchEnd::kRelist;
        Fail(code == "410" ? Gone() : "watch error: " + std::string(obj["message"].Scalar()) + "; listing again");
        keep = false;
        return;
      }
      const std::string rv = std::string(obj["metadata"]["resourceVersion"].Scalar());
      if (type == "BOOKMARK") {
        if (!rv.empty()) rv_ = rv;
        Contact();
        return;
      }
      if (type != "ADDED" && type != "MODIFIED" && type != "DELETED") return;
      // Objects of a watch carry their kind when the server sets it; one of
      // another kind is not this watch's to apply.
      if (const DocNode k = obj["kind"]; k.IsDefined() && !k.IsNull() && k.Scalar() != KindName()) {
        Drop("dropping a " + type + " event: its object is a " + std::string(k.Scalar()) + ", not a " +
             std::string(KindName()));
        return;
      }
      bool applied = true;
      if (resource_ == Resource::kObjects) {
        if (type == "DELETED") {
          extender_.Update([&](ClusterView& v) { v.DeleteObject(kind_.resource, KeyOf(obj)); });
        } else if (Result<ApiObjects> o =
                       DecodeApiObject(obj, std::string(kind_.kind), std::string(kind_.api_version), opts);
                   !o.ok()) {
          Drop("dropping a " + std::string(kind_.kind) + " event: " + o.status().message());
          applied = false;
        } else {
          extender_.Update([&](ClusterView& v) { v.UpsertObject(kind_.resource, KeyOf(obj), std::move(o).value()); });
        }
      } else if (resource_ == Resource::kNodes) {
        Result<Node> n = DecodeNodeObject(obj, opts);
        if (!n.ok()) {
          Drop("dropping a node event: " + n.status().message());
          applied = false;
        } else if (type == "DELETED") {
          extender_.Update([&](ClusterView& v) { v.DeleteNode(n->name()); });
        } else {
          extender_.Update([&](ClusterView& v) { v.UpsertNode(std::move(n).value()); });
        }
      } else {
        Result<DecodedPod> p = DecodePodObject(obj, opts);
        if (!p.ok()) {
          Drop("dropping a pod event: " + p.status().message());
          applied = false;
        } else if (type == "DELETED") {
          extender_.Update([&](ClusterView& v) { v.DeletePod(p->pod.ns(), p->pod.name()); });
        } else {
          extender_.Update([&](ClusterView& v) { v.UpsertPod(p->pod, p->terminated); });
        }
      }
      // A dropped event's resourceVersion is not taken: the watch resumes
      // from the last event applied.
      if (applied && !rv.empty()) rv_ = rv;
      Contact();
    };
    events.error = [&](int, const std::string& m) {
      Fail("watch: cannot parse an event: " + m + "; listing again");
      end = WatchEnd::kRelist;
      keep = false;
    };
    ParseJsonStream(line, 1, events);
    return keep && !stop_;
  }, on_response);
  if (stop_) return WatchEnd::kTimeout;
  if (r.status == 410) {
    Fail(Gone());
    return WatchEnd::kRelist;
  }
  if (r.status == 0 || r.status == 429) {
    // No answer (connection refused...) or too many requests: client-go
    // retries the watch itself.
    Fail("watch failed: " + r.Describe() + "; retrying from resourceVersion " + rv_);
    return WatchEnd::kResume;
  }
  if (r.status != 200) {
    Fail("watch failed: " + r.Describe() + "; listing again");
    return WatchEnd::kRelist;
  }
  if (!r.error.empty() && end == WatchEnd::kTimeout) {
    // The connection dropped: resume from the last resourceVersion.
    Fail("watch connection lost (" + r.error + "); resuming from resourceVersion " + rv_);
    return WatchEnd::kResume;
  }
  Contact();
  return end;
}

namespace {

// "4 s", "0.25 s".
std::string BindSeconds(std::chrono::milliseconds t) {
  std::ostringstream s;
  s << static_cast<double>(t.count()) / 1000 << " s";
  return s.str();
}

}  // namespace

ApiBinder::ApiBinder(ApiConfig config, BindOptions options) : config_(std::move(config)), options_(options) {}

ApiBinder::~ApiBinder() = default;

BindResult ApiBinder::Bind(const Pod& pod, const std::string& node,
                           const std::map<std::string, std::string>& annotations) {
  const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
  // Sent with only a sliver of its time left, a bind would most likely
  // time out unanswered, its outcome unknown: one that has not had a
  // connection by the time a quarter of the timeout is left is not sent.
  const auto send_by = deadline - options_.timeout / 4;
  const std::string what = "binding pod " + pod.ns() + "/" + pod.name() + " to " + node;
  std::unique_ptr<ApiClient> client;
  {
    std::unique_lock<std::mutex> l(mu_);
    if (!freed_.wait_until(l, send_by, [&] { return !idle_.empty() || open_ < options_.concurrency; }))
      return Status::IOError(what + " was not sent: it waited " + BindSeconds(options_.timeout - options_.timeout / 4) +
                             " for one of the " + std::to_string(options_.concurrency) +
                             " connections (--bind-concurrency), leaving less than a quarter of the bind timeout of " +
                             BindSeconds(options_.timeout) + " (--bind-timeout)");
    if (!idle_.empty()) {
      client = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++open_;
    }
  }
  if (!client) client = std::make_unique<ApiClient>(config_, 30);
  struct GiveBack {
    ApiBinder& b;
    std::unique_ptr<ApiClient>& c;
    ~GiveBack() {
      std::lock_guard<std::mutex> l(b.mu_);
      b.idle_.push_back(std::move(c));
      b.freed_.notify_one();
    }
  } give_back{*this, client};
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  client->SetTimeout(left);
  const std::string base = "/api/v1/namespaces/" + pod.ns() + "/pods/" + pod.name();
  std::string body = "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":";
  AppendGoJsonString(body, pod.name());
  body += ",\"namespace\":";
  AppendGoJsonString(body, pod.ns());
  if (!pod.meta.uid.empty()) {
    body += ",\"uid\":";
    AppendGoJsonString(body, pod.meta.uid);
  }
  if (!annotations.empty()) {
    // The API server copies a Binding's annotations onto the pod in the
    // same update that sets spec.nodeName (pkg/registry/core/pod/storage
    // BindingREST.setPodNodeAndMetadata): a refused binding leaves the pod
    // untouched, and no patch right on pods is needed.
    body += ",\"annotations\":";
    AppendStringMap(body, annotations);
  }
  body += "},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":";
  AppendGoJsonString(body, node);
  body += "}}";
  ApiResponse r = client->Post(base + "/binding", body, "application/json");
  if (r.ok()) return Status::Ok();
  if (r.status == 0 && r.unanswered)
    return BindResult(Status::IOError(what + ": no answer within the bind timeout of " + BindSeconds(options_.timeout) +
                                      " (--bind-timeout); the API server may still bind it, so gpusched keeps its "
                                      "node and devices taken until the watch tells"),
                      true);
  return Status::IOError(what + " failed: " + r.Describe());
}

}  // namespace gpusched
