// ApiClient: the few calls `gpusched serve` makes to a Kubernetes API server,
// over cpp-httplib with OpenSSL: GET (lists), a streamed GET (watches, read
// line by line), POST (pods/binding) and PATCH (pod annotations), with a
// bearer token or a client certificate, and the server's certificate checked
// against the configured CA (and its name or IP against the certificate).
//
// Where the configuration comes from, as client-go's rest.InClusterConfig and
// clientcmd read it:
//  - in the cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT,
//    the service account's token and ca.crt under
//    /var/run/secrets/kubernetes.io/serviceaccount (the token is read again
//    before each request: kubelet rotates it);
//  - a kubeconfig: its current-context's cluster (server,
//    certificate-authority[-data], insecure-skip-tls-verify) and user (token,
//    tokenFile, client-certificate[-data], client-key[-data]); relative file
//    names are relative to the kubeconfig's folder.
// Errors name the file and the field. One client per thread of use.
#ifndef GPUSCHED_SERVER_API_CLIENT_H_
#define GPUSCHED_SERVER_API_CLIENT_H_

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "gpusched/util/status.h"

namespace gpusched {

struct ApiConfig {
  std::string server;        // "https://10.96.0.1:443" (http:// for tests)
  std::string ca_pem;        // empty: the system's CAs
  bool insecure_skip_verify = false;
  std::string token;
  std::string token_file;    // read before each request when set
  std::string client_cert_pem, client_key_pem;
};

// `root` prefixes the service account folder (tests).
Result<ApiConfig> InClusterConfig(const std::string& root = "");
Result<ApiConfig> KubeconfigConfig(const std::string& path);

struct ApiResponse {
  int status = 0;          // 0 when the request did not complete
  std::string body;
  std::string error;       // transport error ("connection refused", ...)
  // The request went out whole and no answer came (read timeout, or the
  // connection closed): the API server may have carried it out.
  bool unanswered = false;
  bool ok() const { return status >= 200 && status < 300; }
  // "<status>: <message of the API server's Status>", or the transport error.
  std::string Describe() const;
};

class ApiClient {
 public:
  explicit ApiClient(ApiConfig config, double timeout_seconds = 30);
  ~ApiClient();

  ApiResponse Get(const std::string& path);
  ApiResponse Post(const std::string& path, const std::string& body, const std::string& content_type);
  // A GET whose body is handed over line by line as it arrives; ends when
  // the server closes it, on an error, or when `line` returns false. The
  // read timeout is `idle_seconds` of silence. `on_response`, when set, is
  // told the status as soon as the response's headers arrive (before any
  // line: a watch with nothing to say is open all the same).
  ApiResponse Stream(const std::string& path, double idle_seconds, const std::function<bool(std::string_view)>& line,
                     const std::function<void(int status)>& on_response = nullptr);
  // Aborts a Stream or request in progress (from another thread).
  void Stop();
  // The read and write timeouts of the next requests (not thread-safe:
  // between requests of the one thread using the client).
  void SetTimeout(std::chrono::milliseconds t);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpusched

#endif  // GPUSCHED_SERVER_API_CLIENT_H_
