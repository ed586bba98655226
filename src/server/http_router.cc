#include "gpusched/server/http_router.h"

#include <chrono>

namespace gpusched {
namespace {

constexpr const char* kText = "text/plain; charset=utf-8";
// With the charset: the JSON answers were never gzipped (cpp-httplib, which
// served them before, gzipped a bare "application/json" whenever the request
// accepted it, as kube-scheduler's Go client always says it does); clients
// and tests read the same Content-Type since.
constexpr const char* kJson = "application/json; charset=utf-8";

std::string_view PathOf(std::string_view target) { return target.substr(0, target.find('?')); }

}  // namespace

std::string_view ExtenderRouter::VerbOf(std::string_view target) {
  const std::string_view path = PathOf(target);
  for (std::string_view v : {"filter", "prioritize", "preempt", "bind", "healthz", "readyz", "metrics"})
    if (path.size() == v.size() + 1 && path[0] == '/' && path.substr(1) == v) return v;
  return "other";
}

HttpAnswer ExtenderRouter::Answer(std::string_view method, std::string_view target, std::string_view body) const {
  const std::string_view verb = VerbOf(target);
  const bool post_verb = verb == "filter" || verb == "prioritize" || verb == "preempt" || verb == "bind";
  HttpAnswer a;
  if (verb == "other") {
    a.status = 404;
    a.content_type = kText;
    a.body = "no such endpoint: " + std::string(method) + " " + std::string(PathOf(target)) +
             " (POST /filter, /prioritize, /preempt, /bind; GET /healthz, /readyz, /metrics)\n";
  } else if (method != (post_verb ? "POST" : "GET")) {
    a.status = 405;
    a.content_type = kText;
    const std::string allowed = post_verb ? "POST" : "GET";
    a.body = "method " + std::string(method) + " not allowed on /" + std::string(verb) + " (" + allowed + ")\n";
    a.headers.emplace_back("Allow", allowed);
  } else if (post_verb) {
    const auto t0 = std::chrono::steady_clock::now();
    Reply r = verb == "filter"       ? extender_.Filter(body)
              : verb == "prioritize" ? extender_.Prioritize(body)
              : verb == "preempt"    ? extender_.Preempt(body)
                                     : extender_.Bind(body);
    a.status = r.status;
    a.body = std::move(r.body);
    a.content_type = r.content_type == "application/json" ? kJson : r.content_type;
    metrics_.Request(verb, r.status, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return a;
  } else if (verb == "healthz") {
    a.content_type = kText;
    a.body = "ok\n";
  } else if (verb == "readyz") {
    std::string why;
    a.content_type = kText;
    if (ready_(&why)) {
      a.body = "ok\n";
    } else {
      a.status = 503;
      a.body = why + "\n";
    }
  } else {
    a.content_type = "text/plain; version=0.0.4; charset=utf-8";
    a.body = metrics_.Text();
  }
  metrics_.Request(verb, a.status, 0);
  return a;
}

HttpAnswer ExtenderRouter::TooLarge(std::string_view target) const {
  HttpAnswer a;
  a.status = 413;
  a.content_type = kText;
  a.body = "request body over the limit of " + std::to_string(max_body_bytes_) + " bytes (--max-body-bytes)\n";
  metrics_.Error(VerbOf(target), "too_large");
  metrics_.Request(VerbOf(target), 413, 0);
  return a;
}

HttpAnswer ExtenderRouter::Internal(std::string_view target, std::string_view what) const {
  HttpAnswer a;
  a.status = 500;
  a.content_type = kText;
  a.body = "internal error: " + std::string(what) + "\n";
  metrics_.Error(VerbOf(target), "internal");
  return a;
}

}  // namespace gpusched
