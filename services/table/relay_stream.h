// A connection gateway's Relay stream (TableService::Relay; internal to
// the table service): many players' sessions over one stream.
//
// Each session is a PlaySession like a Play stream, opened with its
// player's own token. What the sessions send waits in batches and goes out
// as one RelayUpdate per write: while a write is in flight, every update of
// every session joins the next batch, so under load a group commit's
// updates to one gateway leave in one or two messages, not one each.
#ifndef BANCA_SERVICES_TABLE_RELAY_STREAM_H_
#define BANCA_SERVICES_TABLE_RELAY_STREAM_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "services/table/play_session.h"
#include "services/table/serial_writes.h"

namespace banca::table {

class RelayStream final
    : public grpc::ServerBidiReactor<v1::RelayRequest, v1::RelayUpdate> {
 public:
  // Limits (a gateway that exceeds one is refused or dropped).
  static constexpr int kMaxMessagesPerRequest = 4'096;
  static constexpr size_t kMaxSessions = 10'000;
  static constexpr int kMaxDeliveriesPerUpdate = 4'096;
  // A gateway that stops reading is dropped once this many updates wait.
  static constexpr size_t kMaxWaitingUpdates = 8;

  // Creates the stream and starts it: authenticates the gateway and reads
  // its first request. The stream owns itself until gRPC is done with it.
  static RelayStream* Open(PokerSeats& seats,
                           grpc::CallbackServerContext* context);

  // Queues `delivery` for the gateway; dropped once the stream is ending.
  void Deliver(v1::RelayDelivery delivery);
  // Ends the stream with `status` once the queued updates are out.
  void End(grpc::Status status);
  // The stream while it is open (the service asks between RelayOpened and
  // RelayDone, which OnDone calls before it lets go of itself).
  std::shared_ptr<RelayStream> self() const { return self_; }

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  class Session;

  explicit RelayStream(PokerSeats& seats) : seats_(seats) {}
  // One message of the gateway's request: a protocol error (an unknown or
  // duplicate session number, no kind) ends the whole stream; a player's
  // refusal (a bad token, no such table) ends only that session.
  absl::Status Handle(v1::RelayMessage& message);

  PokerSeats& seats_;
  // Keeps the stream alive until OnDone, whoever else holds it.
  std::shared_ptr<RelayStream> self_;
  v1::RelayRequest request_;  // the read in flight
  // The sessions by the gateway's number; touched by the read callbacks
  // (one at a time) and OnDone.
  absl::flat_hash_map<uint32_t, std::shared_ptr<Session>> sessions_;

  // Batches of deliveries, at most kMaxDeliveriesPerUpdate each.
  SerialWrites<v1::RelayUpdate> writes_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_RELAY_STREAM_H_
