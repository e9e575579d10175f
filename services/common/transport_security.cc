#include "services/common/transport_security.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <fstream>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/security/tls_certificate_provider.h"
#include "grpcpp/security/tls_credentials_options.h"
#include "libs/common/status_macros.h"

namespace banca::edge {
namespace {

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
using Certificate = std::unique_ptr<X509, decltype(&X509_free)>;
using PrivateKey = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

absl::Status Invalid(const std::string& path, const std::string& what) {
  ERR_clear_error();
  return absl::InvalidArgumentError(absl::StrCat(path, ": ", what));
}

// The file's bytes, at most kMaxPemFileBytes.
absl::StatusOr<std::string> ReadPemFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Invalid(path, "cannot be read");
  std::string text;
  text.resize(kMaxPemFileBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return Invalid(path, "cannot be read");
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxPemFileBytes) {
    return Invalid(path, absl::StrCat("larger than ", kMaxPemFileBytes,
                                      " bytes: not a PEM file"));
  }
  return text;
}

Bio MemoryBio(const std::string& pem) {
  return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
             &BIO_free);
}

// Every certificate in `pem`, in order.
std::vector<Certificate> ParseCertificates(const std::string& pem) {
  std::vector<Certificate> certificates;
  Bio bio = MemoryBio(pem);
  while (X509* x = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    certificates.emplace_back(x, &X509_free);
  }
  ERR_clear_error();  // the end of the file reads as an error
  return certificates;
}

// Never prompts for a passphrase: an encrypted key is refused.
int NoPassphrase(char*, int, int, void*) { return -1; }

// The file's certificates, at least one.
absl::StatusOr<std::vector<Certificate>> ReadCertificates(
    const std::string& path) {
  ASSIGN_OR_RETURN(std::string pem, ReadPemFile(path));
  std::vector<Certificate> certificates = ParseCertificates(pem);
  if (certificates.empty()) return Invalid(path, "no PEM certificate");
  return certificates;
}

// The certificate chain in cert_file starts with a certificate valid now
// whose public key is key_file's.
absl::Status CheckIdentity(const std::string& cert_file,
                           const std::string& key_file) {
  ASSIGN_OR_RETURN(std::vector<Certificate> chain, ReadCertificates(cert_file));
  X509* leaf = chain.front().get();
  if (X509_cmp_current_time(X509_get0_notAfter(leaf)) <= 0) {
    return Invalid(cert_file, "the certificate has expired");
  }
  if (X509_cmp_current_time(X509_get0_notBefore(leaf)) >= 0) {
    return Invalid(cert_file, "the certificate is not valid yet");
  }
  ASSIGN_OR_RETURN(std::string key_pem, ReadPemFile(key_file));
  Bio bio = MemoryBio(key_pem);
  PrivateKey key(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, &NoPassphrase, nullptr),
      &EVP_PKEY_free);
  if (key == nullptr) {
    return Invalid(key_file, "no unencrypted PEM private key");
  }
  if (X509_check_private_key(leaf, key.get()) != 1) {
    return Invalid(
        key_file,
        absl::StrCat("is not the key of the certificate in ", cert_file));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(
    const std::optional<ServerTls>& tls) {
  if (!tls.has_value()) return grpc::InsecureServerCredentials();
  if (tls->cert_file.empty() || tls->key_file.empty()) {
    return absl::InvalidArgumentError(
        "TLS needs both a certificate file and a key file");
  }
  if (tls->reload_seconds < kMinTlsReloadSeconds ||
      tls->reload_seconds > kMaxTlsReloadSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat("the TLS reload interval must be ", kMinTlsReloadSeconds,
                     "..", kMaxTlsReloadSeconds, " seconds"));
  }
  RETURN_IF_ERROR(CheckIdentity(tls->cert_file, tls->key_file));
  const bool mutual = !tls->client_ca_file.empty();
  if (mutual) RETURN_IF_ERROR(ReadCertificates(tls->client_ca_file).status());
  // The provider reads the files again every reload_seconds; a handshake
  // uses what it read last.
  auto provider =
      std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
          tls->key_file, tls->cert_file, tls->client_ca_file,
          static_cast<unsigned>(tls->reload_seconds));
  grpc::experimental::TlsServerCredentialsOptions options(provider);
  options.watch_identity_key_cert_pairs();
  if (mutual) {
    options.watch_root_certs();
    options.set_cert_request_type(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  } else {
    options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  }
  return grpc::experimental::TlsServerCredentials(options);
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentialsFor(
    const ClientTls& tls) {
  const bool identity = !tls.cert_file.empty() || !tls.key_file.empty();
  if (tls.ca_file.empty()) {
    if (identity) {
      return absl::InvalidArgumentError(
          "a client certificate is for TLS: give the server's CA file too");
    }
    return grpc::InsecureChannelCredentials();
  }
  grpc::SslCredentialsOptions options;
  RETURN_IF_ERROR(ReadCertificates(tls.ca_file).status());
  ASSIGN_OR_RETURN(options.pem_root_certs, ReadPemFile(tls.ca_file));
  if (identity) {
    if (tls.cert_file.empty() || tls.key_file.empty()) {
      return absl::InvalidArgumentError(
          "a client certificate needs both its certificate file and its key "
          "file");
    }
    RETURN_IF_ERROR(CheckIdentity(tls.cert_file, tls.key_file));
    ASSIGN_OR_RETURN(options.pem_cert_chain, ReadPemFile(tls.cert_file));
    ASSIGN_OR_RETURN(options.pem_private_key, ReadPemFile(tls.key_file));
  }
  return grpc::SslCredentials(options);
}

std::shared_ptr<grpc::ChannelCredentials> OrPlaintext(
    std::shared_ptr<grpc::ChannelCredentials> credentials) {
  return credentials != nullptr ? std::move(credentials)
                                : grpc::InsecureChannelCredentials();
}

}  // namespace banca::edge
