// One player's seat at one table as the service plays it (internal to the
// table service), whatever carries it: a Play stream of that player, or a
// session on a gateway's Relay stream. Both join, act and are told their
// turns the same way; only how an update reaches the player differs.
//
// The service sends only under the table's lock, in the order its log
// makes things durable, so a player never sees a later state before an
// earlier one.
#ifndef BANCA_SERVICES_TABLE_PLAY_SESSION_H_
#define BANCA_SERVICES_TABLE_PLAY_SESSION_H_

#include <memory>
#include <string>

#include "banca/v1/table.pb.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"
#include "services/table/poker_seats.h"
#include "services/table/poker_table.h"

namespace banca::table {

class PlaySession : public std::enable_shared_from_this<PlaySession> {
 public:
  virtual ~PlaySession() = default;

  // Queues `update` for the player, in order; dropped once the session is
  // ending. Called under the table's lock: never takes it.
  virtual void Send(v1::PlayUpdate update) = 0;
  // Ends the session with `status` once the queued updates are out.
  virtual void End(grpc::Status status) = 0;

  const std::string& player() const { return player_; }
  bool joined() const { return slot_ != nullptr; }

  // What the player asks, whatever carries it (Play or Relay).
  // Takes the player's place at `join`'s table (a session of the same
  // player there ends, ABORTED) and sends the player's view.
  absl::Status Join(const v1::WatchTableRequest& join);
  // An Act at the joined table (completed in place with the table's id):
  // its answer, or the refusal with the view, goes out once durable.
  void Act(v1::ActRequest& request);
  // A rebuy at the joined table (completed in place with the table's id),
  // with the Rebuy call's idempotency: answered when its saga ends (once
  // durable), or at once when refused or already decided.
  void Rebuy(v1::RebuyRequest& request);
  // Gives up the player's place at the table, unless a newer session has
  // taken it.
  void Leave();

 protected:
  PlaySession(PokerSeats& seats, auth::Claims caller)
      : seats_(seats),
        caller_(std::move(caller)),
        player_(caller_.player_id()) {}

  PokerSeats& seats_;
  const auth::Claims caller_;
  const std::string player_;

 private:
  // Marks `update` as the answer to a refused request.
  static void Refuse(const absl::Status& status, v1::PlayUpdate& update);

  PokerTable* slot_ = nullptr;  // once joined
  std::string table_id_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_PLAY_SESSION_H_
