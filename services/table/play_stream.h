// One player's Play stream (TableService::Play; internal to the table
// service): the player's messages in, the updates the service sends out.
//
// gRPC allows one write in flight per stream, so updates wait in an outbox
// and go out one after another in the order they were sent.
#ifndef BANCA_SERVICES_TABLE_PLAY_STREAM_H_
#define BANCA_SERVICES_TABLE_PLAY_STREAM_H_

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "absl/synchronization/mutex.h"
#include "services/table/play_session.h"

namespace banca::table {

class TableService::PlayStream final
    : public PlaySession,
      public grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate> {
 public:
  // A client that stops reading is dropped once this many updates wait.
  static constexpr size_t kMaxOutbox = 256;

  // Creates the stream and starts it: authenticates the caller and reads
  // the first message. The stream owns itself until gRPC is done with it.
  static PlayStream* Open(TableService& service,
                          grpc::CallbackServerContext* context);

  // Queues `update` for the client; dropped once the stream is ending.
  void Send(v1::PlayUpdate update) override ABSL_LOCKS_EXCLUDED(mu_);
  // Ends the stream with `status` once the queued updates are out.
  void End(grpc::Status status) override ABSL_LOCKS_EXCLUDED(mu_);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  PlayStream(TableService& service, auth::Claims caller)
      : PlaySession(service, std::move(caller)) {}
  // The next write, if any; requires mu_.
  const v1::PlayUpdate* NextWriteLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Keeps the stream alive until OnDone, whoever else holds it.
  std::shared_ptr<PlayStream> self_;
  v1::PlayRequest request_;  // the read in flight

  absl::Mutex mu_;
  std::deque<v1::PlayUpdate> outbox_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> ending_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_PLAY_STREAM_H_
