#include "gpusched/server/api_client.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "gpusched/io/json_documents.h"
#include "gpusched/io/yaml_documents.h"
#include "gpusched/util/base64.h"

namespace gpusched {
namespace {

constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

Status ReadFile(const std::string& path, std::string& out) {
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return Status::IOError("\"" + path + "\" is a directory, not a file");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read \"" + path + "\"" + (errno ? ": " + std::string(std::strerror(errno)) : ""));
  std::ostringstream s;
  s << in.rdbuf();
  out = s.str();
  return Status::Ok();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// The named entry of a kubeconfig list (clusters, users, contexts).
DocNode Named(const DocNode& list, std::string_view name) {
  for (DocNode item : list)
    if (item["name"].IsScalar() && item["name"].Scalar() == name) return item;
  return DocNode();
}


// A *-data field (base64 PEM) or its file counterpart.
Status DataOrFile(const DocNode& obj, const char* data_key, const char* file_key, const std::string& dir,
                  const std::string& where, std::string& out) {
  const std::string data = std::string(obj[data_key].Scalar());
  if (!data.empty()) {
    size_t bad = 0;
    std::optional<std::string> pem = Base64Decode(data, &bad);
    if (!pem)
      return Status::InvalidArgument(where + "." + data_key + ": illegal base64 data at input byte " +
                                     std::to_string(bad));
    out = std::move(*pem);
    return Status::Ok();
  }
  std::string file = std::string(obj[file_key].Scalar());
  if (file.empty()) return Status::Ok();
  if (std::filesystem::path(file).is_relative()) file = (std::filesystem::path(dir) / file).string();
  if (Status s = ReadFile(file, out); !s.ok()) return Status::IOError(where + "." + file_key + ": " + s.message());
  return Status::Ok();
}

struct Url {
  std::string scheme, host;
  int port = 0;
};

std::optional<Url> ParseServer(const std::string& server) {
  Url u;
  size_t p = server.find("://");
  if (p == std::string::npos) return std::nullopt;
  u.scheme = server.substr(0, p);
  std::string rest = server.substr(p + 3);
  if (size_t slash = rest.find('/'); slash != std::string::npos) rest.resize(slash);
  if (!rest.empty() && rest[0] == '[') {  // [::1]:6443
    size_t close = rest.find(']');
    if (close == std::string::npos) return std::nullopt;
    u.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest[0] == ':') u.port = std::atoi(rest.c_str() + 1);
  } else if (size_t colon = rest.rfind(':'); colon != std::string::npos) {
    u.host = rest.substr(0, colon);
    u.port = std::atoi(rest.c_str() + colon + 1);
  } else {
    u.host = rest;
  }
  if (u.port == 0) u.port = u.scheme == "https" ? 443 : 80;
  if (u.host.empty() || (u.scheme != "https" && u.scheme != "http")) return std::nullopt;
  return u;
}

}  // namespace

Result<ApiConfig> InClusterConfig(const std::string& root) {
  const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
  const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
  if (!host || !port || !*host || !*port)
    return Status::InvalidArgument(
        "--in-cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (not running in a pod?); outside a cluster, use --kubeconfig FILE");
  ApiConfig c;
  const std::string h = host;
  c.server = "https://" + (h.find(':') != std::string::npos ? "[" + h + "]" : h) + ":" + port;
  const std::string dir = root + kServiceAccountDir;
  c.token_file = dir + "/token";
  if (Status s = ReadFile(c.token_file, c.token); !s.ok()) return Status::IOError("--in-cluster: " + s.message());
  c.token = Trim(c.token);
  if (Status s = ReadFile(dir + "/ca.crt", c.ca_pem); !s.ok()) return Status::IOError("--in-cluster: " + s.message());
  return c;
}

Result<ApiConfig> KubeconfigConfig(const std::string& path) {
  std::string text;
  if (Status s = ReadFile(path, text); !s.ok())
    return Status::IOError(s.message() + "; --kubeconfig takes a kubeconfig file, e.g. ~/.kube/config");
  std::vector<YamlDocument> docs = SplitYamlDocuments(text);
  if (docs.empty()) return Status::InvalidArgument(path + ": empty kubeconfig; --kubeconfig takes a kubeconfig file, e.g. ~/.kube/config");
  Document tree;
  int line = 0;
  std::string error;
  if (!ParseYamlDocument(docs[0], tree, line, error))
    return Status::ParseError(path + ":" + std::to_string(line) + ": " + error);
  const DocNode root = tree.root();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const std::string context_name = std::string(root["current-context"].Scalar());
  if (context_name.empty()) return Status::InvalidArgument(path + ": no current-context");
  const DocNode context = Named(root["contexts"], context_name)["context"];
  if (!context.IsMap())
    return Status::InvalidArgument(path + ": contexts: no context named \"" + context_name + "\" (current-context)");
  const std::string cluster_name = std::string(context["cluster"].Scalar()), user_name = std::string(context["user"].Scalar());
  const DocNode cluster = Named(root["clusters"], cluster_name)["cluster"];
  if (!cluster.IsMap())
    return Status::InvalidArgument(path + ": clusters: no cluster named \"" + cluster_name + "\" (context \"" +
                                   context_name + "\")");
  ApiConfig c;
  c.server = std::string(cluster["server"].Scalar());
  if (!ParseServer(c.server))
    return Status::InvalidArgument(path + ": clusters[" + cluster_name + "].cluster.server: \"" + c.server +
                                   "\" is not an http(s)://host[:port] URL");
  c.insecure_skip_verify = std::string(cluster["insecure-skip-tls-verify"].Scalar()) == "true";
  const std::string cw = path + ": clusters[" + cluster_name + "].cluster";
  if (Status s = DataOrFile(cluster, "certificate-authority-data", "certificate-authority", dir, cw, c.ca_pem); !s.ok())
    return s;
  const DocNode user = Named(root["users"], user_name)["user"];
  if (user.IsMap()) {
    const std::string uw = path + ": users[" + user_name + "].user";
    c.token = std::string(user["token"].Scalar());
    if (c.token.empty() && !std::string(user["tokenFile"].Scalar()).empty()) {
      c.token_file = std::string(user["tokenFile"].Scalar());
      if (std::filesystem::path(c.token_file).is_relative()) c.token_file = (std::filesystem::path(dir) / c.token_file).string();
      if (Status s = ReadFile(c.token_file, c.token); !s.ok()) return Status::IOError(uw + ".tokenFile: " + s.message());
      c.token = Trim(c.token);
    }
    if (Status s = DataOrFile(user, "client-certificate-data", "client-certificate", dir, uw, c.client_cert_pem);
        !s.ok())
      return s;
    if (Status s = DataOrFile(user, "client-key-data", "client-key", dir, uw, c.client_key_pem); !s.ok()) return s;
    if (c.client_cert_pem.empty() != c.client_key_pem.empty())
      return Status::InvalidArgument(uw + ": a client certificate needs both client-certificate and client-key");
    if (!user["exec"].IsDefined() && !user["auth-provider"].IsDefined()) {
    } else if (c.token.empty() && c.client_cert_pem.empty()) {
      return Status::InvalidArgument(uw + ": exec and auth-provider credentials are not supported; use a token or a "
                                          "client certificate (or --in-cluster)");
    }
  }
  return c;
}

std::string ApiResponse::Describe() const {
  if (status == 0) return error.empty() ? "no response" : error;
  std::string message;
  // The API server's Status object: {"kind":"Status",...,"message":"..."}.
  JsonStreamEvents events;
  events.end = [&](const DocNode& v, size_t) {
    if (v["message"].IsScalar()) message = std::string(v["message"].Scalar());
  };
  if (LooksLikeJson(body)) ParseJsonStream(body, 1, events);
  if (message.empty()) message = Trim(body.substr(0, 500));
  return std::to_string(status) + ": " + message;
}

struct ApiClient::Impl {
  std::string Transport(httplib::Error e) const {
    return "cannot reach the API server at " + config.server + " (" + httplib::to_string(e) + ")";
  }
  ApiConfig config;
  std::unique_ptr<httplib::ClientImpl> client;
  std::string error;  // why the client could not be made

  httplib::Headers Headers() {
    httplib::Headers h{{"Accept", "application/json"}, {"User-Agent", "gpusched-serve"}};
    std::string token = config.token;
    if (!config.token_file.empty()) {
      std::string fresh;
      if (ReadFile(config.token_file, fresh).ok() && !Trim(fresh).empty()) token = Trim(fresh);
    }
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    return h;
  }

  ApiResponse From(const httplib::Result& r) {
    ApiResponse out;
    if (!r) {
      out.error = Transport(r.error());
      out.unanswered = r.error() == httplib::Error::Read;
      return out;
    }
    out.status = r->status;
    out.body = r->body;
    return out;
  }
};

ApiClient::ApiClient(ApiConfig config, double timeout_seconds) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  std::optional<Url> url = ParseServer(impl_->config.server);
  if (!url) {
    impl_->error = "invalid API server URL \"" + impl_->config.server + "\"";
    return;
  }
  const ApiConfig& c = impl_->config;
  if (url->scheme == "https") {
    X509* cert = nullptr;
    EVP_PKEY* key = nullptr;
    if (!c.client_cert_pem.empty()) {
      BIO* b = BIO_new_mem_buf(c.client_cert_pem.data(), static_cast<int>(c.client_cert_pem.size()));
      cert = PEM_read_bio_X509(b, nullptr, nullptr, nullptr);
      BIO_free(b);
      b = BIO_new_mem_buf(c.client_key_pem.data(), static_cast<int>(c.client_key_pem.size()));
      key = PEM_read_bio_PrivateKey(b, nullptr, nullptr, nullptr);
      BIO_free(b);
      if (!cert || !key) impl_->error = "the client certificate or key is not PEM";
    }
    auto ssl = cert && key ? std::make_unique<httplib::SSLClient>(url->host, url->port, cert, key)
                           : std::make_unique<httplib::SSLClient>(url->host, url->port);
    if (cert) X509_free(cert);
    if (key) EVP_PKEY_free(key);
    if (!c.ca_pem.empty()) {
      X509_STORE* store = X509_STORE_new();
      BIO* b = BIO_new_mem_buf(c.ca_pem.data(), static_cast<int>(c.ca_pem.size()));
      int added = 0;
      while (X509* ca = PEM_read_bio_X509(b, nullptr, nullptr, nullptr)) {
        added += X509_STORE_add_cert(store, ca);
        X509_free(ca);
      }
      BIO_free(b);
      if (added == 0) impl_->error = "the certificate authority holds no PEM certificate";
      ssl->set_ca_cert_store(store);
    }
    ssl->enable_server_certificate_verification(!c.insecure_skip_verify);
    impl_->client = std::move(ssl);
  } else {
    impl_->client = std::make_unique<httplib::ClientImpl>(url->host, url->port);
  }
  const auto secs = static_cast<time_t>(timeout_seconds);
  impl_->client->set_connection_timeout(10, 0);
  impl_->client->set_read_timeout(secs, 0);
  impl_->client->set_write_timeout(secs, 0);
  impl_->client->set_keep_alive(true);
  impl_->client->set_tcp_nodelay(true);
}

ApiClient::~ApiClient() = default;

ApiResponse ApiClient::Get(const std::string& path) {
  if (!impl_->error.empty()) return ApiResponse{0, "", impl_->error};
  return impl_->From(impl_->client->Get(path.c_str(), impl_->Headers()));
}

ApiResponse ApiClient::Post(const std::string& path, const std::string& body, const std::string& content_type) {
  if (!impl_->error.empty()) return ApiResponse{0, "", impl_->error};
  return impl_->From(impl_->client->Post(path.c_str(), impl_->Headers(), body, content_type.c_str()));
}

ApiResponse ApiClient::Stream(const std::string& path, double idle_seconds,
                              const std::function<bool(std::string_view)>& line,
                              const std::function<void(int status)>& on_response) {
  if (!impl_->error.empty()) return ApiResponse{0, "", impl_->error};
  impl_->client->set_read_timeout(static_cast<time_t>(idle_seconds), 0);
  std::string pending;
  int status = 0;
  std::string error_body;
  auto r = impl_->client->Get(
      path.c_str(), impl_->Headers(),
      [&](const httplib::Response& res) {
        status = res.status;
        if (on_response) on_response(status);
        return true;
      },
      [&](const char* data, size_t n) {
        if (status != 200) {
          error_body.append(data, n);
          return error_body.size() < (1u << 20);
        }
        pending.append(data, n);
        size_t start = 0;
        for (size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
          if (nl > start && !line(std::string_view(pending).substr(start, nl - start))) return false;
        }
        pending.erase(0, start);
        return true;
      });
  ApiResponse out;
  out.status = status;
  out.body = std::move(error_body);
  if (!r && (status == 0 || status == 200)) out.error = impl_->Transport(r.error());
  return out;
}

void ApiClient::SetTimeout(std::chrono::milliseconds t) {
  if (!impl_->client) return;
  const auto sec = static_cast<time_t>(t.count() / 1000);
  const auto usec = static_cast<time_t>((t.count() % 1000) * 1000);
  impl_->client->set_read_timeout(sec, usec);
  impl_->client->set_write_timeout(sec, usec);
}

void ApiClient::Stop() {
  if (impl_->client) impl_->client->stop();
}

}  // namespace gpusched
