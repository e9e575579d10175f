// The --tls-* flags of every banca command that calls a server
// (services/common/transport_security.h builds the credentials from them).
#ifndef BANCA_TOOLS_BANCA_CLIENT_TLS_FLAGS_H_
#define BANCA_TOOLS_BANCA_CLIENT_TLS_FLAGS_H_

#include "services/common/transport_security.h"
#include "tools/cli/flags.h"

namespace banca::cli {

// --tls-ca-file (TLS, the server checked against it), --tls-cert-file and
// --tls-key-file (the client's certificate, for mutual TLS), into `tls`.
void AddClientTlsFlags(CLI::App& command, edge::ClientTls& tls);

}  // namespace banca::cli

#endif  // BANCA_TOOLS_BANCA_CLIENT_TLS_FLAGS_H_
