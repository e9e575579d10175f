// One player's Play stream (TableService::Play; internal to the table
// service): the player's messages in, the updates the service sends out.
// Updates go out one after another in the order they were sent
// (services/table/serial_writes.h).
#ifndef BANCA_SERVICES_TABLE_PLAY_STREAM_H_
#define BANCA_SERVICES_TABLE_PLAY_STREAM_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "absl/synchronization/mutex.h"
#include "services/table/play_session.h"
#include "services/table/serial_writes.h"

namespace banca::table {

class PlayStream final
    : public PlaySession,
      public grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate> {
 public:
  // A client that stops reading is dropped once this many updates wait.
  static constexpr size_t kMaxOutbox = 256;

  // Creates the stream and starts it: authenticates the caller and reads
  // the first message. The stream owns itself until gRPC is done with it.
  static PlayStream* Open(PokerSeats& seats,
                          grpc::CallbackServerContext* context);

  // Queues `update` for the client; dropped once the stream is ending.
  void Send(v1::PlayUpdate update) override;
  // Ends the stream with `status` once the queued updates are out.
  void End(grpc::Status status) override;

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  PlayStream(PokerSeats& seats, auth::Claims caller)
      : PlaySession(seats, std::move(caller)) {}

  // Keeps the stream alive until OnDone, whoever else holds it.
  std::shared_ptr<PlayStream> self_;
  v1::PlayRequest request_;  // the read in flight

  SerialWrites<v1::PlayUpdate> writes_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_PLAY_STREAM_H_
