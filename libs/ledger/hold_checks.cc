#include "libs/ledger/hold_checks.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/ledger/replay_error.h"
#include "libs/money/money.h"

namespace banca::ledger {
namespace {

// Hold ids in messages are cut: a forged one may be long.
constexpr size_t kMaxQuotedBytes = 80;

absl::Status Bad(std::string_view hold_id, absl::string_view what) {
  return Corrupt(absl::StrCat(
      "hold \"", ToAbsl(hold_id.substr(0, kMaxQuotedBytes)), "\": ", what));
}

// Whether `tx` is the ledger's own two-posting move of `amount` (in
// 1..kMaxAmountMinor, so its negation is safe) from `from` to `to`, as
// the live hold commands write it.
bool MovesExactly(const v1::LedgerTransaction& tx, std::string_view from,
                  std::string_view to, int64_t amount) {
  return tx.postings_size() == 2 && tx.postings(0).account() == from &&
         tx.postings(0).amount_minor() == -amount &&
         tx.postings(1).account() == to &&
         tx.postings(1).amount_minor() == amount;
}

// The live CaptureHold's refusal: a player's held account moves only
// through the player's own holds.
bool IsHeldAccount(std::string_view account) {
  auto info = ParseAccount(account);
  return info.ok() && info->account_class == AccountClass::kPlayer &&
         absl::EndsWith(ToAbsl(account), "/held");
}

// Every hold event is on its player's stream.
absl::Status CheckStream(std::string_view stream_owner,
                         std::string_view hold_id,
                         const std::string& player_id) {
  if (!IsValidId(player_id)) {
    return Bad(hold_id, "the event names no valid player");
  }
  if (stream_owner != PlayerOwner(player_id)) {
    return Bad(hold_id,
               absl::StrCat("an event of player ", player_id,
                            "'s hold is on the stream of ",
                            ToAbsl(stream_owner.substr(0, kMaxQuotedBytes))));
  }
  return absl::OkStatus();
}

// A capture or release acts on an existing open hold of the event's
// player.
absl::Status CheckOpenHold(std::string_view hold_id,
                           const std::string& player_id, const HoldState* hold,
                           std::string_view what) {
  if (hold == nullptr) {
    return Bad(hold_id, absl::StrCat(ToAbsl(what), " of a hold never placed"));
  }
  if (hold->player_id != player_id) {
    return Bad(hold_id,
               absl::StrCat(ToAbsl(what), " names player ", player_id,
                            ", but the hold is ", hold->player_id, "'s"));
  }
  if (!hold->open) {
    return Bad(hold_id, absl::StrCat(ToAbsl(what), " of a closed hold"));
  }
  return absl::OkStatus();
}

// The event's copies of the hold's numbers (returned to clients as the
// command's answer) are the hold's.
absl::Status CheckCopies(std::string_view hold_id, int64_t hold_amount,
                         int64_t captured_total, int64_t expires_at,
                         const HoldState& hold, int64_t captured_after) {
  if (hold_amount != hold.amount || captured_total != captured_after ||
      expires_at != hold.expires_at_micros) {
    return Bad(hold_id, absl::StrCat("the event says amount ", hold_amount,
                                     ", captured ", captured_total, ", expiry ",
                                     expires_at, "; the hold has amount ",
                                     hold.amount, ", captured ", captured_after,
                                     ", expiry ", hold.expires_at_micros));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckHoldPlaced(std::string_view stream_owner,
                             const v1::HoldPlaced& e,
                             const HolderState& holder) {
  const std::string& id = e.hold_id();
  RETURN_IF_ERROR(CheckStream(stream_owner, id, e.player_id()));
  if (!holder.open_account) {
    return Bad(id, absl::StrCat("placed for player ", e.player_id(),
                                ", who has no open account"));
  }
  if (holder.id_taken) {
    return Bad(id, "placed again: the id is already used");
  }
  const std::string next =
      absl::StrCat(e.player_id(), ":", holder.holds_created + 1);
  if (id != next) {
    return Bad(id, absl::StrCat("is not player ", e.player_id(),
                                "'s next hold id, ", next));
  }
  const int64_t amount = e.amount_minor();
  if (amount <= 0 || amount > money::kMaxAmountMinor) {
    return Bad(id, absl::StrCat("placed for ", amount, ", not within 1..",
                                money::kMaxAmountMinor));
  }
  if (!MovesExactly(e.tx(), PlayerCashAccount(e.player_id()),
                    PlayerHeldAccount(e.player_id()), amount)) {
    return Bad(id, absl::StrCat("its transaction does not move exactly ",
                                amount, " from the player's cash to held"));
  }
  return absl::OkStatus();
}

absl::Status CheckHoldCaptured(std::string_view stream_owner,
                               const v1::HoldCaptured& e,
                               const HoldState* hold) {
  const std::string& id = e.hold_id();
  RETURN_IF_ERROR(CheckStream(stream_owner, id, e.player_id()));
  RETURN_IF_ERROR(CheckOpenHold(id, e.player_id(), hold, "capture"));
  const int64_t amount = e.amount_minor();
  if (amount <= 0 || amount > hold->remaining) {
    return Bad(id, absl::StrCat("capture of ", amount, ", not within 1..",
                                hold->remaining, " (what the hold has left)"));
  }
  const std::string held = PlayerHeldAccount(e.player_id());
  const v1::LedgerTransaction& tx = e.tx();
  if (tx.postings_size() != 2 ||
      !MovesExactly(tx, held, tx.postings(1).account(), amount) ||
      IsHeldAccount(tx.postings(1).account())) {
    return Bad(id, absl::StrCat("the capture's transaction does not move "
                                "exactly ",
                                amount, " from ", held,
                                " to an account outside holds"));
  }
  const int64_t left = hold->remaining - amount;
  if (e.has_release_tx()) {
    // A final capture releases the rest, and leaves the hold at 0.
    if (left == 0 || e.remaining_minor() != 0 ||
        !MovesExactly(e.release_tx(), held, PlayerCashAccount(e.player_id()),
                      left)) {
      return Bad(id, absl::StrCat("the capture leaves ", left,
                                  "; its release must move exactly that back "
                                  "to cash and leave 0, not ",
                                  e.remaining_minor()));
    }
  } else if (e.remaining_minor() != left) {
    return Bad(
        id, absl::StrCat("remaining_minor is ", e.remaining_minor(), ", but ",
                         hold->remaining, " - ", amount, " = ", left));
  }
  return CheckCopies(id, e.hold_amount_minor(), e.captured_total_minor(),
                     e.expires_at_micros(), *hold, hold->captured + amount);
}

absl::Status CheckHoldReleased(std::string_view stream_owner,
                               const v1::HoldReleased& e,
                               const HoldState* hold) {
  const std::string& id = e.hold_id();
  RETURN_IF_ERROR(CheckStream(stream_owner, id, e.player_id()));
  RETURN_IF_ERROR(CheckOpenHold(id, e.player_id(), hold, "release"));
  const int64_t left = hold->remaining;
  if (e.amount_minor() != left ||
      !MovesExactly(e.tx(), PlayerHeldAccount(e.player_id()),
                    PlayerCashAccount(e.player_id()), left)) {
    return Bad(id, absl::StrCat("the release must move exactly what the hold "
                                "has left, ",
                                left, ", back to cash (the event says ",
                                e.amount_minor(), ")"));
  }
  return CheckCopies(id, e.hold_amount_minor(), e.captured_total_minor(),
                     e.expires_at_micros(), *hold, hold->captured);
}

absl::Status CheckNoHeldPosting(const v1::LedgerTransaction& tx) {
  for (const v1::Posting& p : tx.postings()) {
    if (!IsHeldAccount(p.account())) continue;
    return Corrupt(
        absl::StrCat("transaction ", tx.tx_id().substr(0, kMaxQuotedBytes),
                     " moves ", p.account().substr(0, kMaxQuotedBytes),
                     ", which only the player's hold events may move"));
  }
  return absl::OkStatus();
}

}  // namespace banca::ledger
