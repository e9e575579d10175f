#include "services/table/play_session.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/request_fingerprint.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/idempotency.h"
#include "services/common/bearer_auth.h"

namespace banca::table {

absl::Status PlaySession::Join(const v1::WatchTableRequest& join) {
  if (slot_ != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("this session plays at table ", table_id_));
  }
  RETURN_IF_ERROR(seats_.Serving());
  ASSIGN_OR_RETURN(PokerTable * slot, seats_.FindOrNotFound(join.table_id()));
  std::shared_ptr<PlaySession> replaced;
  {
    absl::MutexLock lock(&slot->mu);
    auto it = slot->players.find(player());
    if (it == slot->players.end()) {
      // A player with a seat here is always admitted; a player without one
      // takes a spectator's place. (A newer session of the same player
      // takes the older one's place, whatever it was.)
      RETURN_IF_ERROR(seats_.AdmitLocked(*slot, player()));
      it = slot->players.try_emplace(player()).first;
    } else {
      replaced = std::move(it->second);
    }
    it->second = shared_from_this();
    slot_ = slot;
    table_id_ = join.table_id();
  }
  // The older session ends before this one shows anything, so its client
  // hears why (ABORTED) even if it hangs up as soon as the newer one plays.
  if (replaced != nullptr) {
    replaced->End(edge::ToGrpcStatus(
        absl::AbortedError("replaced by a newer Play stream of the player")));
  }
  absl::MutexLock lock(&slot->mu);
  v1::PlayUpdate update;
  *update.mutable_view() = seats_.ViewLocked(*slot, player());
  seats_.SendWhenDurable(*slot, slot->sequence, shared_from_this(),
                         std::move(update));
  return absl::OkStatus();
}

void PlaySession::Act(v1::ActRequest& request) {
  v1::PlayUpdate update;
  update.set_request_id(request.request_id());
  absl::Status status;
  if (!request.table_id().empty() && request.table_id() != table_id_) {
    status = absl::InvalidArgumentError(
        absl::StrCat("this stream plays at table ", table_id_));
  }
  // The table's id as the Act call would carry it, so that a retry through
  // either API is recognised (it is part of the request's fingerprint).
  request.set_table_id(table_id_);
  if (status.ok()) status = CheckAct(caller_, request).status();
  absl::MutexLock lock(&slot_->mu);
  int64_t sequence = slot_->sequence;
  if (status.ok()) {
    status = seats_.DecideActLocked(*slot_, caller_, request, &sequence);
    update.set_version(slot_->state->version());
  }
  if (!status.ok()) {
    update.clear_version();
    Refuse(status, update);
    *update.mutable_view() = seats_.ViewLocked(*slot_, player());
    sequence = slot_->sequence;
  }
  seats_.SendWhenDurable(*slot_, sequence, shared_from_this(),
                         std::move(update));
}

void PlaySession::Rebuy(v1::RebuyRequest& request) {
  v1::PlayUpdate update;
  update.set_request_id(request.request_id());
  const bool other_table =
      !request.table_id().empty() && request.table_id() != table_id_;
  request.set_table_id(table_id_);
  // Decides the rebuy, or leaves it waiting for its saga (nullopt).
  auto decide = [&]() -> std::optional<absl::Status> {
    if (other_table) {
      return absl::InvalidArgumentError(
          absl::StrCat("this stream plays at table ", table_id_));
    }
    if (!ledger::IsValidRequestId(request.request_id())) {
      return absl::InvalidArgumentError(
          "request_id must be 1-128 printable characters without spaces");
    }
    // The key and fingerprint of the Rebuy call, so that a retry through
    // either API is recognised.
    std::string key = absl::StrCat(caller_.subject, ":", request.request_id());
    std::string fingerprint =
        RequestFingerprint("Rebuy", request, caller_.subject);
    // A retry while the first is under way does not wait for it.
    ASSIGN_OR_RETURN(
        const ledger::IdempotencyIndex::Claim claim,
        seats_.idempotency().Begin(key, fingerprint, absl::ZeroDuration()));
    if (claim.outcome == ledger::IdempotencyIndex::Outcome::kRepeat) {
      if (!claim.result.empty()) {
        update.mutable_seat()->ParseFromString(claim.result);
        return absl::OkStatus();
      }
      return seats_.RepeatedBuyInLocked(*slot_, player(),
                                        update.mutable_seat());
    }
    absl::StatusOr<std::string> saga = seats_.StartBuyInLocked(
        *slot_, player(), key, fingerprint, 0, request.amount_minor(), true);
    if (!saga.ok()) {
      seats_.idempotency().Abandon(key);
      return saga.status();
    }
    if (!slot_->refusals.Wait(*saga)) {
      seats_.idempotency().Complete(key, "");
      return BuyInUnderWay(*saga);
    }
    slot_->saga_waits[*saga] = [this, self = shared_from_this(), key,
                                saga = *saga,
                                update = std::move(update)]() mutable {
      absl::Status s = seats_.BuyInAnswerLocked(*slot_, saga, true, player(),
                                                update.mutable_seat());
      if (s.ok()) {
        seats_.idempotency().Complete(key, update.seat().SerializeAsString());
      } else {
        seats_.idempotency().Abandon(key);
        Refuse(s, update);
      }
      seats_.SendWhenDurable(*slot_, slot_->sequence, self, std::move(update));
    };
    return std::nullopt;
  };
  absl::MutexLock lock(&slot_->mu);
  std::optional<absl::Status> decided = decide();
  if (!decided) return;
  if (!decided->ok()) Refuse(*decided, update);
  seats_.SendWhenDurable(*slot_, slot_->sequence, shared_from_this(),
                         std::move(update));
}

void PlaySession::Refuse(const absl::Status& status, v1::PlayUpdate& update) {
  update.clear_seat();
  update.set_code(static_cast<int32_t>(status.code()));
  update.set_error_message(std::string(status.message()));
}

void PlaySession::Leave() {
  if (slot_ == nullptr) return;
  absl::MutexLock lock(&slot_->mu);
  auto it = slot_->players.find(player());
  if (it != slot_->players.end() && it->second.get() == this) {
    slot_->players.erase(it);
  }
}

}  // namespace banca::table
