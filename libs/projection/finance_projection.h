// The reporting service's finance part (docs/reporting.md, "Finance
// reports"): what every ledger transaction moved, summed per 15-minute UTC
// bucket, so that a day in any IANA time zone (every offset in use is a
// multiple of 15 minutes, +05:30 and +05:45 included) is an exact sum of
// buckets; and a SHA-256 chain over each bucket's records of every topic
// the reporting service follows, so a day's event hash is derivable for
// any zone and a later re-run proves nothing changed.
//
// A record's bucket is floor(occurred_at_micros / 15 min) of its
// EventEnvelope. Keys (printable; <B> = the bucket number with its sign
// bit flipped, %016x, so buckets sort in time order):
//   fin/ev/<B>/<topic>/<partition:08x>  "<count> <chain hex>"
//   fin/hold/<B>                        FinanceHoldings: net movements
//   fin/pay/<B>                         FinancePayments
//   fin/fig/<B>/<dimension>/<id>        FinanceFigures of a game, table or
//                                       tournament
// The chain of (bucket, topic, partition) starts at 32 zero bytes and, for
// each of its records in offset order, becomes
//   SHA-256(chain | u64le offset | u64le |key| | key | u64le |value| | value)
// Sums add with wrap-around (commutative), so the values do not depend on
// how partitions interleave: a rebuild from offset 0 gives the same bytes.
#ifndef BANCA_LIBS_PROJECTION_FINANCE_PROJECTION_H_
#define BANCA_LIBS_PROJECTION_FINANCE_PROJECTION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "banca/v1/reporting.pb.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_event_part.h"

namespace banca::projection {

inline constexpr int64_t kFinanceBucketMicros = int64_t{15} * 60 * 1'000'000;

// floor(micros / kFinanceBucketMicros).
int64_t FinanceBucketOf(int64_t micros);
// "%016x" of the bucket with its sign bit flipped (sorts in time order).
std::string FinanceBucketKey(int64_t bucket);

// "fin/ev/", "fin/hold/", "fin/pay/", "fin/fig/".
inline constexpr std::string_view kFinanceEventsPrefix = "fin/ev/";
inline constexpr std::string_view kFinanceHoldingsPrefix = "fin/hold/";
inline constexpr std::string_view kFinancePaymentsPrefix = "fin/pay/";
inline constexpr std::string_view kFinanceFiguresPrefix = "fin/fig/";

// Parses a fin/ev value: "<count> <64 hex digits>" into the count and the
// 32 bytes of the chain. DATA_LOSS otherwise.
absl::Status ParseEventChain(std::string_view value, int64_t* count,
                             std::string* chain);

// into += delta, field by field (wrap-around; dimension and id kept).
void AddFinanceFigures(v1::FinanceFigures& into,
                       const v1::FinanceFigures& delta);

class FinanceProjector final : public WalletEventPart {
 public:
  // `topics`: the topics whose records the event hash covers (every topic
  // the reporting service follows); the wallet's records are also summed.
  explicit FinanceProjector(std::vector<std::string> topics);
  std::vector<std::string> Topics() const override { return topics_; }
  absl::Status ApplyWallet(const eventlog::StoredRecord& record,
                           const wire::DecodedWalletEvent& decoded,
                           Txn& txn) override;
  absl::Status ApplyOther(const eventlog::StoredRecord& record,
                          Txn& txn) override;

 private:
  std::vector<std::string> topics_;
};

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_FINANCE_PROJECTION_H_
