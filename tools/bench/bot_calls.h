// What every bot playing over gRPC needs (tournament_bots.h, game_bots.h):
// a call made with the caller's own signed token, a deadline and waiting
// for the server to come up; gRPC's answers as absl::Status; a player's
// account opened and funded, and their balance read back.
#ifndef BANCA_TOOLS_BENCH_BOT_CALLS_H_
#define BANCA_TOOLS_BENCH_BOT_CALLS_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace banca::bench {

inline constexpr absl::Duration kBotCallDeadline = absl::Seconds(10);

// `s` as an absl::Status with the same code, its message after `what`.
absl::Status FromGrpc(const grpc::Status& s, const std::string& what);

// Calls `call(context)` with "authorization: Bearer <token>", a deadline of
// kBotCallDeadline, and waiting for the channel to be ready.
template <typename Do>
grpc::Status CallAs(const std::string& token, Do&& call) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() +
                   absl::ToChronoMilliseconds(kBotCallDeadline));
  ctx.set_wait_for_ready(true);
  ctx.AddMetadata("authorization", "Bearer " + token);
  return call(&ctx);
}

// The back office's tokens for setting players up.
struct BackOffice {
  std::string operator_token;  // accounts, balances, the ledger summary
  std::string payments_token;  // deposits
};

// Opens `player`'s account and deposits `amount_minor` (request ids
// "open-<player>" and "deposit-<player>": a repeated set-up appends
// nothing).
absl::Status FundPlayer(v1::WalletService::Stub& wallet,
                        const BackOffice& office, const std::string& player,
                        int64_t amount_minor, const std::string& payment_ref);

// The player's total balance (available and held).
absl::StatusOr<int64_t> TotalBalance(v1::WalletService::Stub& wallet,
                                     const BackOffice& office,
                                     const std::string& player);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_BOT_CALLS_H_
