// What every bot playing over gRPC needs (tournament_bots.h, game_bots.h)
// beside its routes (service_route.h, whose calls carry the caller's own
// signed token and a deadline): gRPC's answers as absl::Status; a
// player's account opened and funded, and their balance read back,
// through the wallet's route.
#ifndef BANCA_TOOLS_BENCH_BOT_CALLS_H_
#define BANCA_TOOLS_BENCH_BOT_CALLS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tools/bench/service_route.h"

namespace banca::bench {

// `s` as an absl::Status with the same code, its message after `what`.
absl::Status FromGrpc(const grpc::Status& s, const std::string& what);

// The back office's tokens for setting players up.
struct BackOffice {
  std::string operator_token;  // accounts, balances, the ledger summary
  std::string payments_token;  // deposits
};

// Opens `player`'s account and deposits `amount_minor` (request ids
// "open-<player>" and "deposit-<player>": a repeated set-up appends
// nothing).
absl::Status FundPlayer(ServiceRoute& wallet, const BackOffice& office,
                        const std::string& player, int64_t amount_minor,
                        const std::string& payment_ref);

// The player's total balance (available and held).
absl::StatusOr<int64_t> TotalBalance(ServiceRoute& wallet,
                                     const BackOffice& office,
                                     const std::string& player);

// The wallet's ledger summary (classes, sum, open holds).
absl::StatusOr<v1::LedgerSummaryResponse> LedgerSummary(
    ServiceRoute& wallet, const BackOffice& office);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_BOT_CALLS_H_
