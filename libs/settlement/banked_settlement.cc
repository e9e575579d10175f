#include "libs/settlement/banked_settlement.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"
#include "libs/settlement/transaction_parts.h"

namespace banca::settlement {
namespace {

v1::LedgerTransaction NewTx(const BankedBet& bet, v1::PostingReason reason,
                            std::string memo) {
  v1::LedgerTransaction tx = settlement::NewTx(
      reason, RoundReference(bet.table_id, bet.round), std::move(memo));
  tx.set_bet_id(bet.bet_id);
  tx.set_game(bet.game);
  return tx;
}

}  // namespace

std::string WagersAccount(std::string_view table_id) {
  return absl::StrCat("game/", ToAbsl(table_id), "/wagers");
}

std::string RoundId(std::string_view table_id, int64_t round_number) {
  return absl::StrCat(ToAbsl(table_id), ".r", round_number);
}

v1::Reference RoundReference(std::string_view table_id, int64_t round_number) {
  return MakeReference(v1::REFERENCE_KIND_ROUND,
                       RoundId(table_id, round_number));
}

absl::Status ValidateBankedBet(const BankedBet& bet) {
  if (bet.game.empty() || bet.game.size() > ledger::kMaxIdBytes) {
    return absl::InvalidArgumentError("banked bet: game must be 1-64 bytes");
  }
  if (!ledger::IsValidId(bet.table_id)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "banked bet: table id \"", ToAbsl(bet.table_id), "\" is not valid"));
  }
  if (bet.round < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("banked bet: round ", bet.round, " is not >= 1"));
  }
  if (!ledger::IsValidId(bet.player)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "banked bet: player id \"", ToAbsl(bet.player), "\" is not valid"));
  }
  if (bet.bet_id.empty() || bet.bet_id.size() > ledger::kMaxIdBytes) {
    return absl::InvalidArgumentError("banked bet: bet id must be 1-64 bytes");
  }
  if (bet.stake <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("banked bet: stake ", bet.stake, " is not positive"));
  }
  // The round id must fit a ledger reference.
  if (!ledger::IsValidId(RoundId(bet.table_id, bet.round))) {
    return absl::InvalidArgumentError(
        "banked bet: table id too long for a round reference");
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::LedgerTransaction> StakeTransaction(const BankedBet& bet) {
  RETURN_IF_ERROR(ValidateBankedBet(bet));
  v1::LedgerTransaction tx =
      NewTx(bet, v1::POSTING_REASON_BET,
            absl::StrCat("stake ", bet.stake, " on ", bet.bet_id));
  AddPosting(tx, ledger::PlayerCashAccount(bet.player), -bet.stake);
  AddPosting(tx, WagersAccount(bet.table_id), bet.stake);
  return tx;
}

absl::StatusOr<v1::LedgerTransaction> SettleTransaction(const BankedBet& bet,
                                                        int64_t returned) {
  RETURN_IF_ERROR(ValidateBankedBet(bet));
  if (returned < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "banked bet ", bet.bet_id, ": returned ", returned, " is negative"));
  }
  // The house's side: positive = the bank gains (a lost stake), negative =
  // it pays winnings. Checked: `returned` comes from a payout table.
  ASSIGN_OR_RETURN(const int64_t bank, money::Sub(bet.stake, returned));
  v1::PostingReason reason = v1::POSTING_REASON_BET_RETURNED;
  std::string memo;
  if (bank > 0) {
    reason = v1::POSTING_REASON_BET_LOST;
    memo = returned == 0 ? absl::StrCat(bet.bet_id, " lost ", bet.stake)
                         : absl::StrCat(bet.bet_id, " lost ", bank, ", ",
                                        returned, " returned");
  } else if (bank < 0) {
    reason = v1::POSTING_REASON_PAYOUT;
    memo = absl::StrCat(bet.bet_id, " won ", -bank, " on ", bet.stake);
  } else {
    memo = absl::StrCat(bet.bet_id, " push, ", bet.stake, " returned");
  }
  v1::LedgerTransaction tx = NewTx(bet, reason, std::move(memo));
  AddPosting(tx, WagersAccount(bet.table_id), -bet.stake);
  AddPosting(tx, std::string(kBankAccount), bank);
  AddPosting(tx, ledger::PlayerCashAccount(bet.player), returned);
  return tx;
}

absl::StatusOr<v1::LedgerTransaction> VoidRefundTransaction(
    const BankedBet& bet, bool withdrawn) {
  RETURN_IF_ERROR(ValidateBankedBet(bet));
  v1::LedgerTransaction tx =
      NewTx(bet,
            withdrawn ? v1::POSTING_REASON_BET_RETURNED
                      : v1::POSTING_REASON_VOID_REFUND,
            absl::StrCat(bet.bet_id, withdrawn ? " withdrawn, " : " void, ",
                         bet.stake, " refunded"));
  AddPosting(tx, WagersAccount(bet.table_id), -bet.stake);
  AddPosting(tx, ledger::PlayerCashAccount(bet.player), bet.stake);
  return tx;
}

}  // namespace banca::settlement
