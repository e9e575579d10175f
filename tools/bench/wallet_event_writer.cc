#include "tools/bench/wallet_event_writer.h"

#include <utility>

#include "libs/wire/wallet_codec.h"

namespace banca::bench {

void WalletEventWriter::operator()(const ledger::Committed& c) {
  if (c.event.has_hold_placed()) last_hold_ = c.event.hold_placed().hold_id();
  wire::WalletEventContext context;
  context.occurred_at_micros = ++clock_;
  context.correlation_id = c.event.request_id();
  pending_.push_back(wire::EncodeWalletRecord(c, context));
  ++events_;
}

absl::Status WalletEventWriter::Flush(bool all) {
  if (pending_.empty() || (!all && pending_.size() < kFlushRecords)) {
    return absl::OkStatus();
  }
  auto appended = log_.Append(std::move(pending_));
  pending_.clear();
  return appended.status();
}

std::string WalletEventWriter::TakeLastHold() {
  return std::exchange(last_hold_, "");
}

}  // namespace banca::bench
