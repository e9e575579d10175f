#include "services/table/play_stream.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/table/bearer_auth.h"

namespace banca::table {

TableService::PlayStream* TableService::PlayStream::Open(
    TableService& service, grpc::CallbackServerContext* context) {
  auto* stream = new PlayStream(service, context);
  stream->self_ = std::shared_ptr<PlayStream>(stream);
  absl::StatusOr<auth::Claims> caller = service.Caller(context);
  if (!caller.ok()) {
    stream->End(ToGrpcStatus(caller.status()));
  } else if (caller->role != auth::Role::kPlayer) {
    stream->End(ToGrpcStatus(absl::PermissionDeniedError(
        "only a player plays; WatchTable shows a table to anyone")));
  } else {
    stream->caller_ = *std::move(caller);
    stream->StartRead(&stream->request_);
  }
  return stream;
}

void TableService::PlayStream::OnReadDone(bool ok) {
  if (!ok) return End(grpc::Status::OK);  // the client has said all
  {
    absl::MutexLock lock(&mu_);
    if (ending_) return;
  }
  absl::Status status;
  switch (request_.kind_case()) {
    case v1::PlayRequest::kJoin:
      if (slot_ != nullptr) {
        status = absl::FailedPreconditionError(
            absl::StrCat("this stream plays at table ", table_id_));
      } else {
        status = Join(request_.join());
      }
      break;
    case v1::PlayRequest::kAct:
      if (slot_ == nullptr) {
        status = absl::FailedPreconditionError(
            "the first message of a Play stream joins a table");
      } else {
        Act(*request_.mutable_act());
      }
      break;
    default:
      status =
          absl::InvalidArgumentError("a PlayRequest carries a join or an act");
  }
  if (!status.ok()) return End(ToGrpcStatus(status));
  StartRead(&request_);
}

absl::Status TableService::PlayStream::Join(const v1::WatchTableRequest& join) {
  if (service_.closing_plays_) {
    return absl::UnavailableError("the table service is stopping");
  }
  Slot* slot = service_.Find(join.table_id());
  if (slot == nullptr) return absl::NotFoundError("no such table");
  std::shared_ptr<PlayStream> replaced;
  {
    absl::MutexLock lock(&slot->mu);
    auto [it, fresh] = slot->players.try_emplace(player());
    if (fresh) {
      if (slot->watchers >= service_.options_.max_watchers_per_table) {
        slot->players.erase(it);
        return absl::ResourceExhaustedError("too many watchers");
      }
      ++slot->watchers;  // the replaced stream's count passes on
    } else {
      replaced = std::move(it->second);
    }
    it->second = self_;
    slot_ = slot;
    table_id_ = join.table_id();
  }
  // The older stream ends before this one shows anything, so its client
  // hears why (ABORTED) even if it hangs up as soon as the newer one plays.
  if (replaced != nullptr) {
    replaced->End(ToGrpcStatus(
        absl::AbortedError("replaced by a newer Play stream of the player")));
  }
  absl::MutexLock lock(&slot->mu);
  v1::PlayUpdate update;
  *update.mutable_view() = service_.ViewLocked(*slot, player());
  service_.SendWhenDurable(*slot, slot->sequence, self_, std::move(update));
  return absl::OkStatus();
}

void TableService::PlayStream::Act(v1::ActRequest& request) {
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
    status =
        service_.DecideActLocked(*slot_, caller_, request, nullptr, &sequence);
    update.set_version(slot_->state->version());
  }
  if (!status.ok()) {
    update.clear_version();
    update.set_code(static_cast<int32_t>(status.code()));
    update.set_error_message(std::string(status.message()));
    *update.mutable_view() = service_.ViewLocked(*slot_, player());
    sequence = slot_->sequence;
  }
  service_.SendWhenDurable(*slot_, sequence, self_, std::move(update));
}

void TableService::PlayStream::Send(v1::PlayUpdate update) {
  const v1::PlayUpdate* next = nullptr;
  {
    absl::MutexLock lock(&mu_);
    if (ending_ || finished_) return;
    if (outbox_.size() >= kMaxOutbox) {
      // Keep only the write in flight; the stream ends after it.
      outbox_.resize(1);
      ending_ = ToGrpcStatus(absl::ResourceExhaustedError(absl::StrCat(
          "more than ", kMaxOutbox, " updates were waiting to be read")));
      return;
    }
    outbox_.push_back(std::move(update));
    if (writing_) return;
    writing_ = true;
    next = &outbox_.front();
  }
  // Only this stream's writes touch outbox_'s front while writing_ is set,
  // and a deque keeps its elements in place as it grows.
  StartWrite(next);
}

void TableService::PlayStream::OnWriteDone(bool ok) {
  const v1::PlayUpdate* next = nullptr;
  std::optional<grpc::Status> finish;
  {
    absl::MutexLock lock(&mu_);
    outbox_.pop_front();
    if (!ok) {
      outbox_.clear();
      if (!ending_) ending_ = grpc::Status(grpc::StatusCode::CANCELLED, "");
    }
    if (!outbox_.empty()) {
      next = &outbox_.front();
    } else {
      writing_ = false;
      if (ending_ && !finished_) {
        finished_ = true;
        finish = *ending_;
      }
    }
  }
  if (next != nullptr) {
    StartWrite(next);
  } else if (finish) {
    Finish(*finish);
  }
}

void TableService::PlayStream::End(grpc::Status status) {
  {
    absl::MutexLock lock(&mu_);
    if (ending_ || finished_) return;
    ending_ = status;
    if (writing_) return;  // OnWriteDone finishes
    finished_ = true;
  }
  Finish(status);
}

void TableService::PlayStream::OnCancel() {
  End(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
}

void TableService::PlayStream::OnDone() {
  if (slot_ != nullptr) {
    absl::MutexLock lock(&slot_->mu);
    auto it = slot_->players.find(player());
    if (it != slot_->players.end() && it->second.get() == this) {
      slot_->players.erase(it);
      --slot_->watchers;
    }
  }
  // Updates still waiting for the log hold the stream until they are
  // dropped by Send.
  self_.reset();
}

}  // namespace banca::table
