#include "services/table/relay_stream.h"

#include <atomic>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/bearer_auth.h"

namespace banca::table {

// One player's session on the stream: a PlaySession whose updates go out
// in the stream's batches, tagged with the gateway's number for it.
class RelayStream::Session final : public PlaySession {
 public:
  Session(PokerSeats& seats, auth::Claims caller,
          std::shared_ptr<RelayStream> relay, uint32_t number)
      : PlaySession(seats, std::move(caller)),
        relay_(std::move(relay)),
        number_(number) {}

  // The gateway closed it: no answer.
  void Close() {
    ended_ = true;
    Leave();
  }
  bool ended() const { return ended_; }

  void Send(v1::PlayUpdate update) override {
    if (ended_) return;
    v1::RelayDelivery delivery;
    delivery.set_session(number_);
    *delivery.mutable_update() = std::move(update);
    relay_->Deliver(std::move(delivery));
  }
  void End(grpc::Status status) override {
    if (ended_.exchange(true)) return;
    relay_->Deliver(Ended(number_, status));
  }

  static v1::RelayDelivery Ended(uint32_t number, const grpc::Status& status) {
    v1::RelayDelivery delivery;
    delivery.set_session(number);
    delivery.set_ended(true);
    delivery.set_end_code(static_cast<int32_t>(status.error_code()));
    delivery.set_end_message(status.error_message());
    return delivery;
  }

 private:
  const std::shared_ptr<RelayStream> relay_;
  const uint32_t number_;
  std::atomic<bool> ended_{false};
};

RelayStream* RelayStream::Open(PokerSeats& seats,
                               grpc::CallbackServerContext* context) {
  auto* stream = new RelayStream(seats);
  stream->self_ = std::shared_ptr<RelayStream>(stream);
  absl::StatusOr<auth::Claims> caller = seats.Caller(context);
  if (!caller.ok()) {
    stream->End(edge::ToGrpcStatus(caller.status()));
  } else if (caller->role != auth::Role::kGateway) {
    stream->End(edge::ToGrpcStatus(absl::PermissionDeniedError(
        "Relay is for connection gateways; a player plays over Play")));
  } else if (absl::Status serving = seats.Serving(); !serving.ok()) {
    stream->End(edge::ToGrpcStatus(serving));
  } else {
    seats.RelayOpened(stream);
    stream->StartRead(&stream->request_);
  }
  return stream;
}

void RelayStream::OnReadDone(bool ok) {
  if (!ok) return End(grpc::Status::OK);  // the gateway has said all
  if (writes_.ending()) return;
  absl::Status status;
  if (request_.messages_size() > kMaxMessagesPerRequest) {
    status = absl::InvalidArgumentError(
        absl::StrCat("a RelayRequest carries at most ", kMaxMessagesPerRequest,
                     " messages"));
  }
  for (int i = 0; status.ok() && i < request_.messages_size(); ++i) {
    status = Handle(*request_.mutable_messages(i));
  }
  if (!status.ok()) return End(edge::ToGrpcStatus(status));
  StartRead(&request_);
}

absl::Status RelayStream::Handle(v1::RelayMessage& message) {
  const uint32_t number = message.session();
  if (number == 0) {
    return absl::InvalidArgumentError("session 0 is not a session number");
  }
  auto it = sessions_.find(number);
  switch (message.kind_case()) {
    case v1::RelayMessage::kOpen: {
      if (it != sessions_.end()) {
        if (!it->second->ended()) {
          return absl::InvalidArgumentError(
              absl::StrCat("session ", number, " is open"));
        }
        it->second->Close();
        sessions_.erase(it);
      }
      if (sessions_.size() >= kMaxSessions) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "a Relay stream carries at most ", kMaxSessions, " sessions"));
      }
      const v1::RelayOpen& open = message.open();
      absl::StatusOr<auth::Claims> player = seats_.Verify(open.player_token());
      if (player.ok() && player->role != auth::Role::kPlayer) {
        player = absl::PermissionDeniedError(
            "a session plays with a player's token");
      }
      // A refused session is kept, ended, so that the acts the gateway
      // sent behind its open are dropped rather than taken for a protocol
      // error.
      auto session = std::make_shared<Session>(
          seats_, player.ok() ? *player : auth::Claims{}, self_, number);
      sessions_.emplace(number, session);
      v1::WatchTableRequest join;
      join.set_table_id(open.table_id());
      absl::Status status = player.ok() ? session->Join(join) : player.status();
      if (!status.ok()) session->End(edge::ToGrpcStatus(status));
      return absl::OkStatus();
    }
    case v1::RelayMessage::kAct:
    case v1::RelayMessage::kRebuy:
      if (it == sessions_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("session ", number, " is not open"));
      }
      // A session the service ended (replaced, say) while the request was
      // on its way: the gateway hears of the end, not of the request.
      if (it->second->ended()) return absl::OkStatus();
      if (message.has_act()) {
        it->second->Act(*message.mutable_act());
      } else {
        it->second->Rebuy(*message.mutable_rebuy());
      }
      return absl::OkStatus();
    case v1::RelayMessage::kClose:
      if (it == sessions_.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("session ", number, " is not open"));
      }
      it->second->Close();
      sessions_.erase(it);
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError(
          "a RelayMessage carries an open, an act, a rebuy or a close");
  }
}

void RelayStream::Deliver(v1::RelayDelivery delivery) {
  const v1::RelayUpdate* next =
      writes_.Queue([&](std::deque<v1::RelayUpdate>& batches,
                        bool writing) -> std::optional<grpc::Status> {
        // The batch being written is closed; the others fill up in turn.
        if (batches.empty() || (writing && batches.size() == 1) ||
            batches.back().deliveries_size() >= kMaxDeliveriesPerUpdate) {
          if (batches.size() >= kMaxWaitingUpdates) {
            return edge::ToGrpcStatus(absl::ResourceExhaustedError(absl::StrCat(
                "more than ", kMaxWaitingUpdates * kMaxDeliveriesPerUpdate,
                " updates were waiting to be read")));
          }
          batches.emplace_back();
        }
        *batches.back().add_deliveries() = std::move(delivery);
        return std::nullopt;
      });
  if (next != nullptr) StartWrite(next);
}

void RelayStream::OnWriteDone(bool ok) {
  SerialWrites<v1::RelayUpdate>::Next next = writes_.Done(ok);
  if (next.write != nullptr) {
    StartWrite(next.write);
  } else if (next.finish) {
    Finish(*next.finish);
  }
}

void RelayStream::End(grpc::Status status) {
  if (std::optional<grpc::Status> now = writes_.End(std::move(status))) {
    Finish(*now);
  }
}

void RelayStream::OnCancel() {
  End(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
}

void RelayStream::OnDone() {
  seats_.RelayDone(this);
  for (auto& [number, session] : sessions_) session->Close();
  // The sessions hold the stream; updates still waiting for the log hold
  // their session until they are dropped by Send.
  sessions_.clear();
  self_.reset();
}

}  // namespace banca::table
