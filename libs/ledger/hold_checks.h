// What a recorded hold event must agree with. The ledger decides every
// HoldPlaced, HoldCaptured and HoldReleased itself (PlaceHold, CaptureHold,
// ReleaseHold), so a logged one that the live path could not have made is
// a forged or damaged log: replay refuses it (DATA_LOSS, naming the hold and
// what is wrong) before anything of it is applied. The checks are exactly
// what the live path guarantees, so every log the ledger wrote passes them;
// they run on live decisions too (ledger.cc, PlanEvent).
//
// A hold's events are all on its player's stream ("wallet/player/<id>"),
// as live commands put them, so the state each check reads (the player's
// account and holds) is the state the live decision saw, whatever order
// the streams of different players are replayed in.
#ifndef BANCA_LIBS_LEDGER_HOLD_CHECKS_H_
#define BANCA_LIBS_LEDGER_HOLD_CHECKS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/ledger.pb.h"

namespace banca::ledger {

// A hold as the ledger keeps it.
struct HoldState {
  std::string player_id;
  int64_t amount = 0;
  int64_t captured = 0;
  int64_t remaining = 0;
  bool open = false;
  int64_t expires_at_micros = 0;
  std::string placed_by;
};

// The player a HoldPlaced names, as the ledger has it before the event.
struct HolderState {
  // AccountOpened applied, and no AccountClosed.
  bool open_account = false;
  // Holds placed so far; the next hold id is "<player>:<holds_created+1>".
  uint64_t holds_created = 0;
  // The event's hold id names a hold the player already has (open or
  // closed).
  bool id_taken = false;
};

// OK when `e`, on `stream_owner`'s stream, is the HoldPlaced PlaceHold
// would have made: on its player's stream, an open account, the player's
// next hold id (never one already used), an amount in 1..kMaxAmountMinor,
// and a transaction that moves exactly that amount from the player's cash
// to their held account.
absl::Status CheckHoldPlaced(std::string_view stream_owner,
                             const v1::HoldPlaced& e,
                             const HolderState& holder);

// OK when `e` is a capture CaptureHold would have made of `hold` (null: no
// such hold): the hold's player's stream, an open hold, an amount in
// 1..remaining, a transaction moving exactly that amount from the held
// account to one that is no player's held account, the hold's numbers after
// it (remaining_minor, and the event's copies of the hold's amount, captured
// total and expiry), and, when it closes the hold, a release transaction
// moving exactly the rest back to cash.
absl::Status CheckHoldCaptured(std::string_view stream_owner,
                               const v1::HoldCaptured& e,
                               const HoldState* hold);

// OK when `e` is a release ReleaseHold would have made of `hold` (null: no
// such hold): the hold's player's stream, an open hold, and a transaction
// moving exactly what it has left from the held account back to cash.
absl::Status CheckHoldReleased(std::string_view stream_owner,
                               const v1::HoldReleased& e,
                               const HoldState* hold);

// OK when `tx`, a transaction of an event that is not a hold event (a
// TransactionPosted), moves no player's held account. The live Post refuses
// such a posting (money moves in and out of player/<id>/held only through
// the player's holds), so one on the log is forged or damaged, and would
// leave the held balance apart from what the open holds have left.
absl::Status CheckNoHeldPosting(const v1::LedgerTransaction& tx);

}  // namespace banca::ledger

#endif  // BANCA_LIBS_LEDGER_HOLD_CHECKS_H_
