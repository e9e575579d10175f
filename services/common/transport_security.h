// Transport security of banca's gRPC edges (docs/security.md, "Transport"):
// the server's TLS or mutual TLS from PEM files that are reloaded without a
// restart, and the client credentials every banca command that calls a
// server builds from its --tls-* flags. One place, so a server and its
// clients agree on what a certificate file is.
#ifndef BANCA_SERVICES_COMMON_TRANSPORT_SECURITY_H_
#define BANCA_SERVICES_COMMON_TRANSPORT_SECURITY_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/security/server_credentials.h"

namespace banca::edge {

// A PEM file larger than this is refused (a chain of a few certificates is
// a few kilobytes).
inline constexpr size_t kMaxPemFileBytes = 1 << 20;
// How often a server looks at its certificate files for new contents.
inline constexpr int kMinTlsReloadSeconds = 1;
inline constexpr int kMaxTlsReloadSeconds = 86'400;

// A server's TLS: its certificate chain and private key, and with
// client_ca_file mutual TLS (every client must present a certificate that
// chains to one of those CAs). The files are read again every
// reload_seconds; a new connection gets what they then hold.
struct ServerTls {
  std::string cert_file;
  std::string key_file;
  std::string client_ca_file;  // empty: clients are not asked for one
  int reload_seconds = 60;
};

// TLS credentials for `tls`, after checking that the files can be read now:
// the certificate parses, is within its validity period and matches the
// key; the client CA file holds at least one certificate. Unset `tls`:
// plaintext (only where the caller's configuration says so explicitly).
// INVALID_ARGUMENT names the file and what is wrong with it.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentialsFor(
    const std::optional<ServerTls>& tls);

// A client's TLS: the CA that must have signed the server's certificate
// (whose name must match the address dialled), and for mutual TLS the
// client's own certificate and key.
struct ClientTls {
  std::string ca_file;    // empty: plaintext
  std::string cert_file;  // with key_file: presented to the server
  std::string key_file;
};

// Channel credentials for `tls`: TLS when ca_file is set, else plaintext
// (a plaintext client cannot reach a TLS server: the server decides).
// INVALID_ARGUMENT names a file that cannot be used, or a certificate
// without its key.
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentialsFor(
    const ClientTls& tls);

// `credentials`, or plaintext's when null (the clients' options leave them
// null unless a command chose TLS).
std::shared_ptr<grpc::ChannelCredentials> OrPlaintext(
    std::shared_ptr<grpc::ChannelCredentials> credentials);

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_TRANSPORT_SECURITY_H_
