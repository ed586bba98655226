// Test certificates made with OpenSSL at run time (no key material in the
// tree): a CA, a server certificate it signs for 127.0.0.1 and localhost,
// a client certificate it signs, and a second CA that signs nothing the
// server trusts. Files are PEM, in a fresh temporary directory.
#ifndef GPUSCHED_TESTS_SERVER_TEST_CERTS_H_
#define GPUSCHED_TESTS_SERVER_TEST_CERTS_H_

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace gpusched::testing {

struct TestCerts {
  std::string dir;
  std::string ca_cert, server_cert, server_key, client_cert, client_key, other_ca_cert, other_client_cert,
      other_client_key;
};

namespace certs_detail {

inline EVP_PKEY* NewKey() { return EVP_EC_gen("P-256"); }

inline void Ext(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (!ext) throw std::runtime_error("X509V3_EXT_conf_nid");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

// Signed by (issuer, issuer_key), or self-signed when issuer is null.
inline X509* NewCert(EVP_PKEY* key, const char* cn, X509* issuer, EVP_PKEY* issuer_key, bool ca, const char* san,
                     long serial) {
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600L * 24);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn), -1, -1, 0);
  X509_set_issuer_name(cert, issuer ? X509_get_subject_name(issuer) : name);
  X509* signer = issuer ? issuer : cert;
  Ext(cert, signer, NID_basic_constraints, ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
  Ext(cert, signer, NID_key_usage, ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature");
  if (!ca) Ext(cert, signer, NID_ext_key_usage, san ? "serverAuth" : "clientAuth");
  if (san) Ext(cert, signer, NID_subject_alt_name, san);
  X509_sign(cert, issuer_key ? issuer_key : key, EVP_sha256());
  return cert;
}

inline void WriteCert(const std::string& path, X509* cert) {
  FILE* f = std::fopen(path.c_str(), "w");
  PEM_write_X509(f, cert);
  std::fclose(f);
}

inline void WriteKey(const std::string& path, EVP_PKEY* key) {
  FILE* f = std::fopen(path.c_str(), "w");
  PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
}

}  // namespace certs_detail

inline TestCerts MakeTestCerts(const std::string& name) {
  using namespace certs_detail;
  TestCerts c;
  c.dir = (std::filesystem::temp_directory_path() / ("gpusched-certs-" + name + "-" + std::to_string(::getpid())))
              .string();
  std::filesystem::create_directories(c.dir);
  auto path = [&](const char* f) { return c.dir + "/" + f; };
  EVP_PKEY* ca_key = NewKey();
  X509* ca = NewCert(ca_key, "gpusched test CA", nullptr, nullptr, true, nullptr, 1);
  EVP_PKEY* server_key = NewKey();
  X509* server = NewCert(server_key, "gpusched-extender", ca, ca_key, false, "IP:127.0.0.1,DNS:localhost", 2);
  EVP_PKEY* client_key = NewKey();
  X509* client = NewCert(client_key, "kube-scheduler", ca, ca_key, false, nullptr, 3);
  EVP_PKEY* other_key = NewKey();
  X509* other = NewCert(other_key, "another CA", nullptr, nullptr, true, nullptr, 4);
  EVP_PKEY* other_client_key = NewKey();
  X509* other_client = NewCert(other_client_key, "stranger", other, other_key, false, nullptr, 5);
  WriteCert(c.ca_cert = path("ca.crt"), ca);
  WriteCert(c.server_cert = path("server.crt"), server);
  WriteKey(c.server_key = path("server.key"), server_key);
  WriteCert(c.client_cert = path("client.crt"), client);
  WriteKey(c.client_key = path("client.key"), client_key);
  WriteCert(c.other_ca_cert = path("other-ca.crt"), other);
  WriteCert(c.other_client_cert = path("other-client.crt"), other_client);
  WriteKey(c.other_client_key = path("other-client.key"), other_client_key);
  for (X509* x : {ca, server, client, other, other_client}) X509_free(x);
  for (EVP_PKEY* k : {ca_key, server_key, client_key, other_key, other_client_key}) EVP_PKEY_free(k);
  return c;
}

}  // namespace gpusched::testing

#endif  // GPUSCHED_TESTS_SERVER_TEST_CERTS_H_
