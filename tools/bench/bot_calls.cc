#include "tools/bench/bot_calls.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::bench {

absl::Status FromGrpc(const grpc::Status& s, const std::string& what) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      absl::StrCat(what, ": ", s.error_message()));
}

absl::Status FundPlayer(ServiceRoute& wallet, const BackOffice& office,
                        const std::string& player, int64_t amount_minor,
                        const std::string& payment_ref) {
  v1::OpenAccountRequest open;
  open.set_request_id("open-" + player);
  open.set_player_id(player);
  v1::AccountResponse account;
  RETURN_IF_ERROR(
      FromGrpc(wallet.On<v1::WalletService>(
                   office.operator_token, player,
                   [&](v1::WalletService::Stub& w, grpc::ClientContext* c) {
                     return w.OpenAccount(c, open, &account);
                   }),
               "OpenAccount " + player));
  v1::DepositRequest deposit;
  deposit.set_request_id("deposit-" + player);
  deposit.set_player_id(player);
  deposit.set_amount_minor(amount_minor);
  deposit.set_payment_ref(payment_ref);
  v1::TransactionResponse tx;
  return FromGrpc(wallet.On<v1::WalletService>(
                      office.payments_token, player,
                      [&](v1::WalletService::Stub& w, grpc::ClientContext* c) {
                        return w.Deposit(c, deposit, &tx);
                      }),
                  "Deposit " + player);
}

absl::StatusOr<int64_t> TotalBalance(ServiceRoute& wallet,
                                     const BackOffice& office,
                                     const std::string& player) {
  v1::GetBalanceRequest req;
  req.set_player_id(player);
  v1::BalanceResponse balance;
  RETURN_IF_ERROR(
      FromGrpc(wallet.On<v1::WalletService>(
                   office.operator_token, player,
                   [&](v1::WalletService::Stub& w, grpc::ClientContext* c) {
                     return w.GetBalance(c, req, &balance);
                   }),
               "GetBalance " + player));
  return balance.total_minor();
}

absl::StatusOr<v1::LedgerSummaryResponse> LedgerSummary(
    ServiceRoute& wallet, const BackOffice& office) {
  v1::GetLedgerSummaryRequest req;
  v1::LedgerSummaryResponse summary;
  RETURN_IF_ERROR(
      FromGrpc(wallet.On<v1::WalletService>(
                   office.operator_token, "",
                   [&](v1::WalletService::Stub& w, grpc::ClientContext* c) {
                     return w.GetLedgerSummary(c, req, &summary);
                   }),
               "GetLedgerSummary"));
  return summary;
}

}  // namespace banca::bench
