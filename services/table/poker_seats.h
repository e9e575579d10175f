// What a player's session at a poker table (a Play stream, or a session on
// a gateway's Relay stream: play_session.h) may ask of the poker tables:
// the narrow face TableService shows the streams, instead of its insides.
// Every call named ...Locked needs the table's lock.
#ifndef BANCA_SERVICES_TABLE_POKER_SEATS_H_
#define BANCA_SERVICES_TABLE_POKER_SEATS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "banca/v1/table.pb.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"
#include "libs/games/poker/action.h"
#include "libs/ledger/idempotency.h"
#include "services/table/poker_table.h"

namespace banca::table {

class RelayStream;

class PokerSeats {
 public:
  virtual ~PokerSeats() = default;

  // The caller of a stream, by its bearer token.
  virtual absl::StatusOr<auth::Claims> Caller(
      const grpc::ServerContextBase* context) const = 0;
  // A player's token carried inside a Relay stream.
  virtual absl::StatusOr<auth::Claims> Verify(
      const std::string& token) const = 0;
  // UNAVAILABLE once the service is stopping.
  virtual absl::Status Serving() const = 0;
  // The open Relay streams, for the service to end them when it stops.
  virtual void RelayOpened(RelayStream* relay) = 0;
  virtual void RelayDone(RelayStream* relay) = 0;

  // INVALID_ARGUMENT for a malformed id, NOT_FOUND for an unknown table.
  virtual absl::StatusOr<PokerTable*> FindOrNotFound(
      const std::string& table_id) = 0;
  // RESOURCE_EXHAUSTED when `viewer` has no seat there and the table's
  // spectators' streams are at their limit.
  virtual absl::Status AdmitLocked(const PokerTable& table,
                                   const std::string& viewer) const = 0;
  // The player's view with the decision timer's deadline.
  virtual v1::TableView ViewLocked(const PokerTable& table,
                                   const std::string& player) const = 0;
  // Sends `update` to `session` once the table's log is durable up to
  // `sequence`, after every update queued before it.
  virtual void SendWhenDurable(PokerTable& table, int64_t sequence,
                               const std::shared_ptr<PlaySession>& session,
                               v1::PlayUpdate update) = 0;

  // An Act, as the Act call decides it (the answer may go once the
  // table's log is durable up to *sequence).
  virtual absl::Status DecideActLocked(PokerTable& table,
                                       const auth::Claims& caller,
                                       const v1::ActRequest& request,
                                       int64_t* sequence) = 0;
  // A rebuy's steps, as the Rebuy call takes them, under the Rebuy call's
  // idempotency (the index is the service's).
  virtual ledger::IdempotencyIndex& idempotency() = 0;
  virtual absl::Status RepeatedBuyInLocked(PokerTable& table,
                                           const std::string& player,
                                           v1::SeatResponse* response) = 0;
  virtual absl::StatusOr<std::string> StartBuyInLocked(
      PokerTable& table, const std::string& player, const std::string& key,
      const std::string& fingerprint, int seat, int64_t amount, bool rebuy) = 0;
  virtual absl::Status BuyInAnswerLocked(PokerTable& table,
                                         const std::string& saga_id,
                                         bool waited, const std::string& player,
                                         v1::SeatResponse* response) = 0;
};

// What an Act asks for, checked before the table is locked.
absl::StatusOr<games::poker::Action> CheckAct(const auth::Claims& caller,
                                              const v1::ActRequest& request);
// DEADLINE_EXCEEDED: the wallet has not answered buy-in `saga_id` yet.
absl::Status BuyInUnderWay(const std::string& saga_id);

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_POKER_SEATS_H_
