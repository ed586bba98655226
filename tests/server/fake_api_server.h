// A fake Kubernetes API server for the server tests, on 127.0.0.1 only:
// list and watch of nodes and pods (the watch streams the events that come
// after the asked resourceVersion, as chunked JSON lines, bookmarks
// included when asked), pods/binding (sets spec.nodeName, 409 when already
// bound) and merge patches of pod annotations, each change becoming a watch
// event. Scripts: the next watch answers 410 Gone (as an HTTP 410 or as an
// ERROR event), a watch drops its connection after N events, a list answers
// after a delay, bindings are carried out after a delay, the server is down
// (503 to everything, open watches dropped). With a cap on the events kept
// (SetMaxEvents), older ones are compacted away as etcd does: a watch from
// before them is 410 Gone. A bind check sees every binding before it is
// carried out (the soak benchmark counts double-booked GPUs with it).
#ifndef GPUSCHED_TESTS_SERVER_FAKE_API_SERVER_H_
#define GPUSCHED_TESTS_SERVER_FAKE_API_SERVER_H_

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "gpusched/server/reflector.h"

namespace gpusched::testing {

class FakeApiServer {
 public:
  using json = nlohmann::json;

  FakeApiServer() {
    server_.Get("/api/v1/nodes", [this](const httplib::Request& req, httplib::Response& res) { Serve("nodes", req, res); });
    server_.Get("/api/v1/pods", [this](const httplib::Request& req, httplib::Response& res) { Serve("pods", req, res); });
    // The kinds serve reads for its plugins (empty unless a test puts some).
    for (const ReflectedKind& k : ReflectedObjectKinds()) {
      const std::string resource(k.resource);
      server_.Get(std::string(k.path), [this, resource](const httplib::Request& req, httplib::Response& res) {
        Serve(resource, req, res);
      });
    }
    server_.Post(R"(/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding)",
                 [this](const httplib::Request& req, httplib::Response& res) { Bind(req, res); });
    server_.Patch(R"(/api/v1/namespaces/([^/]+)/pods/([^/]+))",
                  [this](const httplib::Request& req, httplib::Response& res) { Patch(req, res); });
    // Every reflector holds a watch open: serve has 11 (nodes, pods and
    // ReflectedObjectKinds), more than httplib's default pool of 8 threads.
    server_.new_task_queue = [] { return new httplib::ThreadPool(32); };
    server_.set_tcp_nodelay(true);
    server_.set_keep_alive_max_count(1 << 30);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~FakeApiServer() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    server_.stop();
    thread_.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // --- State changes (each is a watch event) ---
  void AddNode(const json& node) { Put("nodes", node["metadata"]["name"], node, "ADDED"); }
  void AddPod(const json& pod) { Put("pods", Key(pod), pod, "ADDED"); }
  void ModifyPod(const json& pod) { Put("pods", Key(pod), pod, "MODIFIED"); }
  void DeletePod(const std::string& ns, const std::string& name) {
    std::lock_guard<std::mutex> l(mu_);
    auto it = objects_["pods"].find(ns + "/" + name);
    if (it == objects_["pods"].end()) return;
    json obj = it->second;
    objects_["pods"].erase(it);
    Emit("pods", "DELETED", obj);
  }
  // Any other kind, by its resource ("persistentvolumeclaims"): ADDED the
  // first time, MODIFIED after.
  void PutObject(const std::string& resource, const json& obj) {
    std::lock_guard<std::mutex> l(mu_);
    const std::string key = ObjectKey(obj);
    json o = obj;
    Emit(resource, objects_[resource].count(key) ? "MODIFIED" : "ADDED", o);
  }
  void DeleteObject(const std::string& resource, const std::string& key) {
    std::lock_guard<std::mutex> l(mu_);
    auto it = objects_[resource].find(key);
    if (it == objects_[resource].end()) return;
    json obj = it->second;
    objects_[resource].erase(it);
    Emit(resource, "DELETED", obj);
  }
  // An event as given, its object's resourceVersion set to `rv` (anything,
  // "abc" too): what a broken or hostile server sends. The store is not
  // changed.
  void EmitRaw(const std::string& resource, const std::string& type, json obj, const std::string& rv) {
    std::lock_guard<std::mutex> l(mu_);
    obj["metadata"]["resourceVersion"] = rv;
    events_.push_back({++rv_, resource, type, obj});
    cv_.notify_all();
  }
  void Bookmark(const std::string& resource) {
    std::lock_guard<std::mutex> l(mu_);
    json obj = {{"metadata", {{"resourceVersion", std::to_string(++rv_)}}}};
    events_.push_back({rv_, resource, "BOOKMARK", obj});
    cv_.notify_all();
  }

  // --- Scripts ---
  // The next watch of `resource` fails with 410 Gone: an HTTP 410, or an
  // ERROR event carrying a Status with code 410.
  void GoneOnNextWatch(const std::string& resource, bool as_event) {
    std::lock_guard<std::mutex> l(mu_);
    gone_[resource] = as_event ? 2 : 1;
  }
  // The watch of `resource` (the one open, or else the next) closes its
  // connection after sending `events` more events.
  void DropNextWatchAfter(const std::string& resource, int events) {
    std::lock_guard<std::mutex> l(mu_);
    drop_after_[resource] = events;
  }
  void DelayLists(std::chrono::milliseconds d) {
    std::lock_guard<std::mutex> l(mu_);
    list_delay_ = d;
  }
  // Each binding is carried out `d` after it arrives (and answered then),
  // whether the client still waits or not: a slow API server.
  void DelayBinds(std::chrono::milliseconds d) {
    std::lock_guard<std::mutex> l(mu_);
    bind_delay_ = d;
  }
  // Keep at most `n` events (0: all); watches from before them are 410.
  void SetMaxEvents(size_t n) {
    std::lock_guard<std::mutex> l(mu_);
    max_events_ = n;
  }
  // Down: every request is 503 and open watches drop.
  void SetDown(bool down) {
    std::lock_guard<std::mutex> l(mu_);
    down_ = down;
    cv_.notify_all();
  }
  // Called under the server's lock with each binding before it is carried
  // out: the pod as it is, the node, and every pod the server holds.
  using BindCheck = std::function<void(const json& pod, const std::string& node, const json& annotations,
                                       const std::map<std::string, json>& pods)>;
  void SetBindCheck(BindCheck check) {
    std::lock_guard<std::mutex> l(mu_);
    bind_check_ = std::move(check);
  }
  // The most bindings that were being handled at once.
  int max_binds_in_flight() {
    std::lock_guard<std::mutex> l(mu_);
    return max_binds_in_flight_;
  }

  // --- What happened ---
  int lists(const std::string& resource) {
    std::lock_guard<std::mutex> l(mu_);
    return lists_[resource];
  }
  int watches(const std::string& resource) {
    std::lock_guard<std::mutex> l(mu_);
    return watches_[resource];
  }
  std::map<std::string, int> binds() {
    std::lock_guard<std::mutex> l(mu_);
    return binds_;
  }
  json pod(const std::string& key) {
    std::lock_guard<std::mutex> l(mu_);
    return objects_["pods"].at(key);
  }
  std::vector<json> pods() {
    std::lock_guard<std::mutex> l(mu_);
    std::vector<json> out;
    for (const auto& [k, v] : objects_["pods"]) out.push_back(v);
    return out;
  }

 private:
  struct Event {
    uint64_t rv;
    std::string resource, type;
    json object;
  };

  static std::string Key(const json& pod) {
    return pod["metadata"].value("namespace", "default") + "/" + pod["metadata"]["name"].get<std::string>();
  }
  // namespace/name for a namespaced object, else the name.
  static std::string ObjectKey(const json& obj) {
    const std::string name = obj["metadata"]["name"].get<std::string>();
    return obj["metadata"].contains("namespace") ? obj["metadata"]["namespace"].get<std::string>() + "/" + name : name;
  }

  void Put(const std::string& resource, const std::string& key, json obj, const std::string& type) {
    std::lock_guard<std::mutex> l(mu_);
    objects_[resource][key] = obj;
    Emit(resource, type, obj);
  }

  // Caller holds mu_.
  void Emit(const std::string& resource, const std::string& type, json& obj) {
    obj["metadata"]["resourceVersion"] = std::to_string(++rv_);
    if (type != "DELETED") {
      const std::string key = resource == "pods" ? Key(obj) : ObjectKey(obj);
      objects_[resource][key] = obj;
    }
    events_.push_back({rv_, resource, type, obj});
    Compact();
    cv_.notify_all();
  }

  // Caller holds mu_.
  void Compact() {
    while (max_events_ && events_.size() > max_events_) {
      compacted_rv_ = events_.front().rv;
      events_.pop_front();
    }
  }

  // The API server's Status for a resourceVersion it no longer has.
  static constexpr const char* kGoneStatus =
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version","reason":"Expired","code":410})";
  static void AnswerGone(httplib::Response& res) {
    res.status = 410;
    res.set_content(kGoneStatus, "application/json");
  }
  // A watch ended as the API server ends it there: an ERROR event carrying
  // the 410 Status.
  static bool EndWithGone(httplib::DataSink& sink) {
    const std::string line = std::string(R"({"type":"ERROR","object":)") + kGoneStatus + "}\n";
    sink.write(line.data(), line.size());
    sink.done();
    return true;
  }

  // Caller holds mu_.
  bool AnswerDown(httplib::Response& res) {
    if (!down_) return false;
    res.status = 503;
    res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","code":503})",
                    "application/json");
    return true;
  }

  void Serve(const std::string& resource, const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (AnswerDown(res)) return;
    }
    if (req.get_param_value("watch") != "1") return List(resource, res);
    std::unique_lock<std::mutex> l(mu_);
    ++watches_[resource];
    const int gone = gone_[resource];
    gone_[resource] = 0;
    if (gone == 1) {
      return AnswerGone(res);
    }
    const std::string rv_param = req.get_param_value("resourceVersion");
    if (rv_param.empty() || rv_param.find_first_not_of("0123456789") != std::string::npos) {
      // As the API server answers a resourceVersion it cannot parse.
      res.status = 400;
      res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"resourceVersion: Invalid value: \")" +
                          rv_param + R"(\": strconv.ParseUint: parsing \")" + rv_param +
                          R"(\": invalid syntax","reason":"BadRequest","code":400})",
                      "application/json");
      return;
    }
    const uint64_t from = std::stoull(rv_param);
    if (from < compacted_rv_) {
      return AnswerGone(res);
    }
    const bool bookmarks = req.get_param_value("allowWatchBookmarks") == "true";
    auto sent = std::make_shared<int>(0);
    auto next = std::make_shared<uint64_t>(from);
    auto gone_event = std::make_shared<bool>(gone == 2);
    res.set_chunked_content_provider("application/json", [this, resource, bookmarks, sent, next,
                                                          gone_event](size_t, httplib::DataSink& sink) {
      std::unique_lock<std::mutex> l(mu_);
      if (*gone_event) {
        return EndWithGone(sink);
      }
      cv_.wait_for(l, std::chrono::milliseconds(100), [&] {
        return stopping_ || down_ || drop_after_.count(resource) || (!events_.empty() && events_.back().rv > *next);
      });
      if (down_) return false;  // the connection drops
      if (*next < compacted_rv_) {
        // Fell behind the compaction: as the API server ends such a watch.
        return EndWithGone(sink);
      }
      if (auto d = drop_after_.find(resource); d != drop_after_.end() && d->second == 0) {
        drop_after_.erase(d);
        return false;  // the connection drops
      }
      if (stopping_) {
        sink.done();
        return true;
      }
      auto first = std::upper_bound(events_.begin(), events_.end(), *next,
                                    [](uint64_t rv, const Event& e) { return rv < e.rv; });
      for (auto it = first; it != events_.end(); ++it) {
        const Event& e = *it;
        if (e.resource != resource) continue;
        *next = e.rv;
        if (e.type == "BOOKMARK" && !bookmarks) continue;
        if (auto d = drop_after_.find(resource); d != drop_after_.end() && d->second-- == 0) {
          drop_after_.erase(d);
          return false;  // the connection drops
        }
        const std::string line = json{{"type", e.type}, {"object", e.object}}.dump() + "\n";
        if (!sink.write(line.data(), line.size())) return false;
        ++*sent;
      }
      if (!events_.empty()) *next = std::max(*next, events_.back().rv);
      return true;
    });
  }

  void List(const std::string& resource, httplib::Response& res) {
    std::chrono::milliseconds delay;
    {
      std::lock_guard<std::mutex> l(mu_);
      delay = list_delay_;
    }
    std::this_thread::sleep_for(delay);
    std::lock_guard<std::mutex> l(mu_);
    if (AnswerDown(res)) return;
    ++lists_[resource];
    json items = json::array();
    for (const auto& [k, v] : objects_[resource]) items.push_back(v);
    json list = {{"kind", resource == "nodes" ? "NodeList" : "PodList"},
                 {"apiVersion", "v1"},
                 {"metadata", {{"resourceVersion", std::to_string(rv_)}}},
                 {"items", items}};
    res.set_content(list.dump(), "application/json");
  }

  void Bind(const httplib::Request& req, httplib::Response& res) {
    std::chrono::milliseconds delay;
    {
      std::lock_guard<std::mutex> l(mu_);
      delay = bind_delay_;
      max_binds_in_flight_ = std::max(max_binds_in_flight_, ++binds_in_flight_);
    }
    std::this_thread::sleep_for(delay);
    std::lock_guard<std::mutex> l(mu_);
    --binds_in_flight_;
    if (AnswerDown(res)) return;
    const std::string key = req.matches[1].str() + "/" + req.matches[2].str();
    auto it = objects_["pods"].find(key);
    if (it == objects_["pods"].end()) {
      res.status = 404;
      res.set_content(R"({"kind":"Status","message":"pods \")" + req.matches[2].str() + R"(\" not found","code":404})",
                      "application/json");
      return;
    }
    json body = json::parse(req.body);
    json pod = it->second;
    if (!pod["spec"].value("nodeName", "").empty()) {
      res.status = 409;
      res.set_content(json{{"kind", "Status"},
                           {"message", "Operation cannot be fulfilled on pods/binding \"" + req.matches[2].str() +
                                           "\": pod " + req.matches[2].str() + " is already assigned to node \"" +
                                           pod["spec"]["nodeName"].get<std::string>() + "\""},
                           {"code", 409}}
                          .dump(),
                      "application/json");
      return;
    }
    ++binds_[key];
    if (bind_check_)
      bind_check_(pod, body["target"]["name"].get<std::string>(),
                  body["metadata"].contains("annotations") ? body["metadata"]["annotations"] : json::object(),
                  objects_["pods"]);
    pod["spec"]["nodeName"] = body["target"]["name"];
    // setPodNodeAndMetadata: the Binding's annotations go onto the pod.
    if (body["metadata"].contains("annotations"))
      for (const auto& [k, v] : body["metadata"]["annotations"].items()) pod["metadata"]["annotations"][k] = v;
    Emit("pods", "MODIFIED", pod);
    res.status = 201;
    res.set_content("{}", "application/json");
  }

  void Patch(const httplib::Request& req, httplib::Response& res) {
    std::lock_guard<std::mutex> l(mu_);
    const std::string key = req.matches[1].str() + "/" + req.matches[2].str();
    auto it = objects_["pods"].find(key);
    if (it == objects_["pods"].end()) {
      res.status = 404;
      return;
    }
    json pod = it->second;
    pod.merge_patch(json::parse(req.body));
    Emit("pods", "MODIFIED", pod);
    res.set_content(pod.dump(), "application/json");
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  uint64_t rv_ = 100;
  std::map<std::string, std::map<std::string, json>> objects_;
  std::deque<Event> events_;
  size_t max_events_ = 0;
  uint64_t compacted_rv_ = 0;
  bool down_ = false;
  BindCheck bind_check_;
  std::map<std::string, int> gone_, drop_after_, lists_, watches_;
  std::map<std::string, int> binds_;
  std::chrono::milliseconds list_delay_{0};
  std::chrono::milliseconds bind_delay_{0};
  int binds_in_flight_ = 0, max_binds_in_flight_ = 0;
};

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SERVER_FAKE_API_SERVER_H_
