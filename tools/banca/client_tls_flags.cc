#include "tools/banca/client_tls_flags.h"

namespace banca::cli {

void AddClientTlsFlags(CLI::App& command, edge::ClientTls& tls) {
  command.add_option("--tls-ca-file", tls.ca_file,
                     "PEM CA certificates the server's certificate must chain "
                     "to: connect with TLS (default: plaintext)");
  command.add_option("--tls-cert-file", tls.cert_file,
                     "this client's PEM certificate chain (mutual TLS)");
  command.add_option("--tls-key-file", tls.key_file,
                     "this client's PEM private key (mutual TLS)");
}

}  // namespace banca::cli
