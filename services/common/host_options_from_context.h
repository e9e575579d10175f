// What every table host takes from the server that hosts it
// (services/common/host_context.h): the token verifier, the deck keys, the
// partitions and the metrics registry.
#ifndef BANCA_SERVICES_COMMON_HOST_OPTIONS_FROM_CONTEXT_H_
#define BANCA_SERVICES_COMMON_HOST_OPTIONS_FROM_CONTEXT_H_

#include "absl/status/status.h"
#include "services/common/host_context.h"
#include "services/common/table_host_options.h"

namespace banca::table {

// FAILED_PRECONDITION without the keys a host needs.
inline absl::Status SetHostOptions(const edge::HostContext& context,
                                   TableHostOptions& options) {
  if (!context.keys.verifier || !context.keys.deck_keys) {
    return absl::FailedPreconditionError(
        "the tables and tournaments need a token verifier and deck keys");
  }
  options.verifier = *context.keys.verifier;
  options.deck_keys = *context.keys.deck_keys;
  options.partitions = context.settings.partitions;
  options.wallet_partitions = context.settings.partitions;
  options.metrics = context.metrics;
  options.group = context.settings.table_group;
  options.group_session_timeout_ms = context.settings.table_session_timeout_ms;
  options.advertise_address = context.settings.advertise_address;
  options.idempotency_window =
      absl::Hours(context.settings.idempotency_window_hours);
  return absl::OkStatus();
}

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_HOST_OPTIONS_FROM_CONTEXT_H_
