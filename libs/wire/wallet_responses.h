// The wallet's answers rebuilt from its events: what a command returned,
// from the event it appended (so a retry after a restart gets the same
// answer).
#ifndef BANCA_LIBS_WIRE_WALLET_RESPONSES_H_
#define BANCA_LIBS_WIRE_WALLET_RESPONSES_H_

#include <string_view>

#include "banca/v1/ledger.pb.h"
#include "banca/v1/wallet.pb.h"

namespace banca::wire {

// The response a command returned, rebuilt from the event it appended (so a
// retry after a restart gets the same answer).
v1::TransactionResponse TransactionResponseFrom(const v1::LedgerTransaction& tx,
                                                std::string_view player_id);
v1::HoldResponse HoldResponseFrom(const v1::WalletEvent& event);
v1::AccountResponse AccountResponseFrom(const v1::WalletEvent& event);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_WALLET_RESPONSES_H_
