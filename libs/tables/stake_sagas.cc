#include "libs/tables/stake_sagas.h"

#include "absl/strings/str_cat.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/request_ids.h"

namespace banca::tables {

std::string StakeSagas::NextSagaId(const std::string& table_id) const {
  return wire::StakeSagaId(table_id, count_ + 1);
}

absl::Status StakeSagas::Begin(const std::string& table_id, const Stake& r) {
  if (r.saga_id() != NextSagaId(table_id)) {
    return absl::DataLossError(
        absl::StrCat("stake saga ", r.saga_id(), " out of order"));
  }
  ++count_;
  pending_[r.saga_id()] = r;
  return absl::OkStatus();
}

const StakeSagas::Stake* StakeSagas::Pending(const std::string& saga) const {
  auto it = pending_.find(saga);
  return it == pending_.end() ? nullptr : &it->second;
}

const StakeSagas::Stake* StakeSagas::TimedOut(const std::string& saga) const {
  auto it = timed_out_.find(saga);
  return it == timed_out_.end() ? nullptr : &it->second;
}

bool StakeSagas::AnyFor(const std::string& player) const {
  for (const auto& [saga, stake] : pending_) {
    if (stake.player_id() == player) return true;
  }
  return false;
}

std::vector<std::string> StakeSagas::PendingIds() const {
  std::vector<std::string> out;
  for (const auto& [saga, stake] : pending_) out.push_back(saga);
  return out;
}

void StakeSagas::End(const std::string& saga, bool timed_out) {
  auto it = pending_.find(saga);
  if (it == pending_.end()) return;
  if (timed_out) timed_out_[saga] = it->second;
  pending_.erase(it);
}

std::optional<StakeSagas::Stake> StakeSagas::TakeTimedOut(
    const std::string& saga) {
  auto it = timed_out_.find(saga);
  if (it == timed_out_.end()) return std::nullopt;
  Stake out = std::move(it->second);
  timed_out_.erase(it);
  return out;
}

void StakeSagas::NoteRequest(const std::string& request_id,
                             const std::string& saga_id) {
  if (request_id.empty()) return;
  if (!saga_of_request_.emplace(request_id, saga_id).second) return;
  request_of_saga_[saga_id] = request_id;
}

void StakeSagas::NoteCaptured(const std::string& saga_id) {
  auto it = request_of_saga_.find(saga_id);
  if (it == request_of_saga_.end()) return;
  saga_of_request_.erase(it->second);
  request_of_saga_.erase(it);
}

void StakeSagas::NoteRefused(const std::string& saga_id,
                             const std::string& reason) {
  if (!request_of_saga_.contains(saga_id)) return;
  refused_[saga_id] = reason;
  refusals_.push_back(saga_id);
  if (refusals_.size() <= kRecentStakeRefusals) return;
  const std::string oldest = std::move(refusals_.front());
  refusals_.pop_front();
  refused_.erase(oldest);
  NoteCaptured(oldest);  // forgets its request
}

StakeOutcome StakeSagas::OutcomeOf(const std::string& request_id) const {
  StakeOutcome out;
  auto it = saga_of_request_.find(request_id);
  if (it == saga_of_request_.end()) return out;
  out.saga_id = it->second;
  if (pending_.contains(out.saga_id)) {
    out.state = StakeOutcome::State::kPending;
  } else if (auto r = refused_.find(out.saga_id); r != refused_.end()) {
    out.state = StakeOutcome::State::kRefused;
    out.reason = r->second;
  } else {
    out.state = StakeOutcome::State::kCaptured;
  }
  return out;
}

}  // namespace banca::tables
