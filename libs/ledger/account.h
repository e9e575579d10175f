// Account names and what the ledger enforces on each class of account.
//
//   player/<id>/cash        a player's money, never negative
//   player/<id>/held        set aside by the player's open holds
//   table/<id>/...          chips on a cash table (euros), never negative
//   game/<id>/...           banked-game stakes in flight, never negative
//   tournament/<id>/...     prize pools, never negative
//   house/<name>            the house (rake, bank, fees, overlay); may go
//                           negative (the bank loses rounds) and is "hot"
//   external/<name>         the outside world (payments); negative by the
//                           amount of money players have brought in; "hot"
//
// Hot accounts are touched by every table and every payment, so the ledger
// keeps them as striped sub-balances (see ledger.h) instead of one lock.
#ifndef BANCA_LIBS_LEDGER_ACCOUNT_H_
#define BANCA_LIBS_LEDGER_ACCOUNT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace banca::ledger {

inline constexpr size_t kMaxIdBytes = 64;
inline constexpr size_t kMaxAccountNameBytes = 200;

enum class AccountClass {
  kPlayer,
  kTable,
  kGame,
  kTournament,
  kHouse,
  kExternal,
};

std::string_view AccountClassName(AccountClass c);

// A player, table, hand or payment id: 1..64 of [A-Za-z0-9_.-], starting
// with a letter or digit. Ids never
// contain '/' or ':' so account names and hold ids parse without ambiguity.
bool IsValidId(std::string_view id);

// What an account name says. The views point into the parsed name (the
// ledger parses on every posting, so parsing allocates nothing): keep the
// name alive while the info is used.
struct AccountInfo {
  AccountClass account_class;
  // For player accounts, the player id; else empty.
  std::string_view player_id;
  // The lock/ownership key: "player/<id>" for player accounts, the account
  // name otherwise.
  std::string_view owner;
  // May go negative and is striped.
  bool hot = false;
};

// INVALID_ARGUMENT with the reason when `name` is not a valid account name.
absl::StatusOr<AccountInfo> ParseAccount(std::string_view name);

std::string PlayerCashAccount(std::string_view player_id);
std::string PlayerHeldAccount(std::string_view player_id);
std::string PlayerOwner(std::string_view player_id);

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_ACCOUNT_H_
