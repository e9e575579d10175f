#include "services/table/play_stream.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/bearer_auth.h"

namespace banca::table {

PlayStream* PlayStream::Open(PokerSeats& seats,
                             grpc::CallbackServerContext* context) {
  absl::StatusOr<auth::Claims> caller = seats.Caller(context);
  if (caller.ok() && caller->role != auth::Role::kPlayer) {
    caller = absl::PermissionDeniedError(
        "only a player plays; WatchTable shows a table to anyone");
  }
  auto* stream =
      new PlayStream(seats, caller.ok() ? *std::move(caller) : auth::Claims{});
  stream->self_ = std::shared_ptr<PlayStream>(stream);
  if (!caller.ok()) {
    stream->End(edge::ToGrpcStatus(caller.status()));
  } else {
    stream->StartRead(&stream->request_);
  }
  return stream;
}

void PlayStream::OnReadDone(bool ok) {
  if (!ok) return End(grpc::Status::OK);  // the client has said all
  if (writes_.ending()) return;
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
  if (!status.ok()) return End(edge::ToGrpcStatus(status));
  StartRead(&request_);
}

void PlayStream::Send(v1::PlayUpdate update) {
  const v1::PlayUpdate* next =
      writes_.Queue([&](std::deque<v1::PlayUpdate>& queue,
                        bool) -> std::optional<grpc::Status> {
        if (queue.size() >= kMaxOutbox) {
          return edge::ToGrpcStatus(absl::ResourceExhaustedError(absl::StrCat(
              "more than ", kMaxOutbox, " updates were waiting to be read")));
        }
        queue.push_back(std::move(update));
        return std::nullopt;
      });
  if (next != nullptr) StartWrite(next);
}

void PlayStream::OnWriteDone(bool ok) {
  SerialWrites<v1::PlayUpdate>::Next next = writes_.Done(ok);
  if (next.write != nullptr) {
    StartWrite(next.write);
  } else if (next.finish) {
    Finish(*next.finish);
  }
}

void PlayStream::End(grpc::Status status) {
  if (std::optional<grpc::Status> now = writes_.End(std::move(status))) {
    Finish(*now);
  }
}

void PlayStream::OnCancel() {
  End(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
}

void PlayStream::OnDone() {
  Leave();
  // Updates still waiting for the log hold the stream until they are
  // dropped by Send.
  self_.reset();
}

}  // namespace banca::table
