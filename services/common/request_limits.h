// What every banca gRPC server applies to what clients send, before any
// service sees it (docs/security.md "Input limits"). Shared by `banca
// serve` and the in-process servers of tests and benchmarks
// (server_options.h), so tests run with the limits production has.
#ifndef BANCA_SERVICES_COMMON_REQUEST_LIMITS_H_
#define BANCA_SERVICES_COMMON_REQUEST_LIMITS_H_

#include <memory>

#include "grpcpp/server_builder.h"
#include "grpcpp/support/server_interceptor.h"

namespace banca::edge {

// The largest request message a server receives; a larger one is refused
// by gRPC with RESOURCE_EXHAUSTED before it is parsed. Sized to the largest
// legal request: a TableService.Relay batch of 4,096 messages
// (services/table/relay_stream.h), each at most a session opening with a
// 512-byte token (libs/auth/token.cc) and a 32-byte table id, is about
// 2.2 MiB; every other request is a few KiB. gRPC's receive limit is one
// per server, not per method, so what bounds the log is below: unknown
// fields dropped here, and each event's size checked by the service that
// appends it (event_size.h).
inline constexpr int kMaxReceiveMessageBytes = 4 << 20;  // 4 MiB

// Sets the receive limit and installs the interceptor below. It replaces
// any interceptor factories set on `builder` before.
void ApplyRequestLimits(grpc::ServerBuilder& builder);

// Drops the unknown fields of every message a client sends to a banca.*
// service, at every depth, before the handler runs: unary and streaming,
// sync and callback methods alike. Services copy request parts into
// logged events (a wallet reference, a table's settings, a roulette bet);
// without this, bytes of fields the schema does not know would be logged
// along. gRPC's own services (health, reflection) are left alone: the
// health service reads raw bytes, not protobuf messages.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewUnknownFieldsDiscarder();

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_REQUEST_LIMITS_H_
