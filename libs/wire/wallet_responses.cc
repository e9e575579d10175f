#include "libs/wire/wallet_responses.h"

#include "libs/ledger/account.h"

namespace banca::wire {

v1::TransactionResponse TransactionResponseFrom(const v1::LedgerTransaction& tx,
                                                std::string_view player_id) {
  v1::TransactionResponse response;
  *response.mutable_tx() = tx;
  const std::string cash = ledger::PlayerCashAccount(player_id);
  for (const v1::Posting& p : tx.postings()) {
    if (p.account() == cash)
      response.set_balance_minor(p.balance_after_minor());
  }
  return response;
}

v1::HoldResponse HoldResponseFrom(const v1::WalletEvent& event) {
  v1::HoldResponse r;
  switch (event.kind_case()) {
    case v1::WalletEvent::kHoldPlaced: {
      const auto& e = event.hold_placed();
      r.set_hold_id(e.hold_id());
      r.set_player_id(e.player_id());
      r.set_amount_minor(e.amount_minor());
      r.set_remaining_minor(e.amount_minor());
      r.set_state(v1::HOLD_STATE_OPEN);
      r.set_expires_at_micros(e.expires_at_micros());
      break;
    }
    case v1::WalletEvent::kHoldCaptured: {
      const auto& e = event.hold_captured();
      r.set_hold_id(e.hold_id());
      r.set_player_id(e.player_id());
      r.set_amount_minor(e.hold_amount_minor());
      r.set_captured_minor(e.captured_total_minor());
      r.set_remaining_minor(e.remaining_minor());
      r.set_state(e.remaining_minor() > 0 ? v1::HOLD_STATE_OPEN
                                          : v1::HOLD_STATE_CLOSED);
      r.set_expires_at_micros(e.expires_at_micros());
      break;
    }
    case v1::WalletEvent::kHoldReleased: {
      const auto& e = event.hold_released();
      r.set_hold_id(e.hold_id());
      r.set_player_id(e.player_id());
      r.set_amount_minor(e.hold_amount_minor());
      r.set_captured_minor(e.captured_total_minor());
      r.set_remaining_minor(0);
      r.set_state(v1::HOLD_STATE_CLOSED);
      r.set_expires_at_micros(e.expires_at_micros());
      break;
    }
    default:
      break;
  }
  return r;
}

v1::AccountResponse AccountResponseFrom(const v1::WalletEvent& event) {
  v1::AccountResponse r;
  if (event.has_account_opened()) {
    r.set_player_id(event.account_opened().player_id());
    r.set_currency(event.account_opened().currency());
    r.set_open(true);
  } else if (event.has_account_closed()) {
    r.set_player_id(event.account_closed().player_id());
    r.set_open(false);
  }
  return r;
}

}  // namespace banca::wire
