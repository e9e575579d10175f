#include "services/table/play_stream.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/table/bearer_auth.h"

namespace banca::table {

TableService::PlayStream* TableService::PlayStream::Open(
    TableService& service, grpc::CallbackServerContext* context) {
  absl::StatusOr<auth::Claims> caller = service.Caller(context);
  if (caller.ok() && caller->role != auth::Role::kPlayer) {
    caller = absl::PermissionDeniedError(
        "only a player plays; WatchTable shows a table to anyone");
  }
  auto* stream = new PlayStream(
      service, caller.ok() ? *std::move(caller) : auth::Claims{});
  stream->self_ = std::shared_ptr<PlayStream>(stream);
  if (!caller.ok()) {
    stream->End(ToGrpcStatus(caller.status()));
  } else {
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
      status = Join(request_.join());
      break;
    case v1::PlayRequest::kAct:
    case v1::PlayRequest::kRebuy:
      if (!joined()) {
        status = absl::FailedPreconditionError(
            "the first message of a Play stream joins a table");
      } else if (request_.has_act()) {
        Act(*request_.mutable_act());
      } else {
        Rebuy(*request_.mutable_rebuy());
      }
      break;
    default:
      status = absl::InvalidArgumentError(
          "a PlayRequest carries a join, an act or a rebuy");
  }
  if (!status.ok()) return End(ToGrpcStatus(status));
  StartRead(&request_);
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
  Leave();
  // Updates still waiting for the log hold the stream until they are
  // dropped by Send.
  self_.reset();
}

}  // namespace banca::table
