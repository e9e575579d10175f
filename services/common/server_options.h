// gRPC server settings shared by `banca serve` and the in-process servers of
// benchmarks and tests.
#ifndef BANCA_SERVICES_COMMON_SERVER_OPTIONS_H_
#define BANCA_SERVICES_COMMON_SERVER_OPTIONS_H_

#include "grpcpp/server_builder.h"
#include "services/common/request_limits.h"

namespace banca::edge {

// Wallet handlers block while their event becomes durable (about a
// millisecond). gRPC's sync server ends a handler thread whenever more than
// MAX_POLLERS threads are idle, so with its default of 2 every blocking call
// created and destroyed a thread (stack zeroing, TLB shootdowns): keep a
// pool that covers the calls in flight instead.
//
// Every server also takes the request limits (request_limits.h): the
// receive limit and unknown fields dropped before any service sees them.
inline void ApplyServerOptions(grpc::ServerBuilder& builder) {
  ApplyRequestLimits(builder);
  builder.SetSyncServerOption(grpc::ServerBuilder::NUM_CQS, 2);
  builder.SetSyncServerOption(grpc::ServerBuilder::MIN_POLLERS, 2);
  builder.SetSyncServerOption(grpc::ServerBuilder::MAX_POLLERS, 256);
}

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_SERVER_OPTIONS_H_
