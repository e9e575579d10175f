// One poker cash table as the table service keeps it: the engine's Table
// plus what the service adds around it (buy-in sagas in flight, rebuys
// waiting for the hand to end, the last session of players who left).
//
// Event-sourced like the ledger: the service decides a command by building
// its TableEvent and applying it here; replay applies the same events read
// back from the log, through the same code, so live and replayed tables
// cannot diverge. Applying an input may make the engine produce money
// events (a finished hand's settlement, a player leaving with the stack):
// those come back as `derived` events, which the service appends right
// after the input and which replay reads back instead (applying a derived
// event changes nothing). Pure: no I/O, no clock, no randomness.
#ifndef BANCA_LIBS_TABLES_TABLE_STATE_H_
#define BANCA_LIBS_TABLES_TABLE_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/table.pb.h"
#include "libs/games/poker/table.h"

namespace banca::tables {

struct PendingBuyIn {
  std::string saga_id;
  std::string player;
  int seat = 0;
  int64_t paid = 0;
  int64_t rake = 0;
  bool rebuy = false;
};

// The pay-back of a saga whose money the table cannot use (a capture after
// the saga failed, a rebuy that no longer fits, HE-12): a PlayerLeft that
// returns the seat's part and the HE-17b rake it paid.
v1::TableEvent Compensation(const std::string& table_id,
                            const PendingBuyIn& buy_in);

// The poker table: a TableAggregate (table_aggregate.h).
class TableState {
 public:
  using Event = v1::TableEvent;

  // INVALID_ARGUMENT for a bad id or settings (the config is normalized).
  static absl::StatusOr<std::unique_ptr<TableState>> Create(
      const v1::TableCreated& created);
  // TableCreated opens a table.
  static bool Opens(const v1::TableEvent& event) {
    return event.has_table_created();
  }
  static absl::StatusOr<std::unique_ptr<TableState>> Open(
      const v1::TableEvent& event) {
    return Create(event.table_created());
  }

  // Applies one event (not TableCreated). Errors leave the state unchanged
  // (live: the command is rejected with that status; replay: the log does
  // not match the engine, DATA_LOSS for the caller to report).
  absl::Status Apply(const v1::TableEvent& event,
                     std::vector<v1::TableEvent>* derived);
  // Replay: the events Apply derived were logged after the one that
  // derived them, and apply as they come.
  absl::Status ApplyLogged(const v1::TableEvent& event) {
    std::vector<v1::TableEvent> derived;  // already in the log
    return Apply(event, &derived);
  }

  // The next saga id, "table/<id>/buyin/<n>" (request ids derive from it).
  std::string NextSagaId() const;
  // Checks a buy-in or rebuy before its saga starts: the same rules Sit and
  // Rebuy apply, counting sagas in flight and waiting rebuys.
  absl::Status CheckBuyIn(const std::string& player, int seat, int64_t paid,
                          bool rebuy) const;

  const std::string& id() const { return id_; }
  const std::string& name() const { return name_; }
  const v1::PokerTableConfig& config() const { return config_; }
  const games::poker::Table& engine() const { return engine_; }
  int64_t hands_started() const { return hands_started_; }
  const std::map<std::string, PendingBuyIn>& pending() const {
    return pending_;
  }
  const PendingBuyIn* FindSaga(const std::string& saga_id) const;
  // How a saga that is no longer pending ended (nullopt: unknown).
  enum class SagaEnd : uint8_t { kCompleted, kFailed, kCompensated };
  struct EndedSaga {
    SagaEnd end = SagaEnd::kCompleted;
    PendingBuyIn buy_in;
  };
  const EndedSaga* Ended(const std::string& saga_id) const;
  // Funded rebuys waiting for the player's hand to end (net of rake).
  int64_t WaitingRebuy(const std::string& player) const;
  // HE-67 for a seated player, else the session that ended last.
  std::optional<v1::SessionSummary> Summary(const std::string& player) const;
  // True when a hand may start now: none in progress, two or more eligible.
  bool CanStartHand() const;
  // HE-68: when each resting player's rest runs past the table's limit
  // (microseconds since the epoch, from the SitOutChanged that began it);
  // empty when the table sets no limit.
  std::map<std::string, int64_t> RestEnds() const;
  // Increases with every applied event.
  int64_t version() const { return version_; }
  // TableAggregate: the engine's events up to those taken are forgotten.
  void ForgetTaken() { engine_.ForgetEventsBefore(engine_events_seen_); }

  // What `player` may see (DESIGN invariant 7).
  v1::TableView ViewFor(const std::string& player) const;
  v1::TableInfo Info() const;

 private:
  TableState(games::poker::Table engine, std::string id, std::string name,
             v1::PokerTableConfig config)
      : engine_(std::move(engine)),
        id_(std::move(id)),
        name_(std::move(name)),
        config_(std::move(config)) {}

  absl::Status ApplyInput(const v1::TableEvent& event,
                          std::vector<v1::TableEvent>* derived);
  // FAILED_PRECONDITION unless `hand_number` is the hand in progress.
  absl::Status CheckCurrentHand(int64_t hand_number) const;
  // An engine HE-70/71 event as a logged SessionNotice, if it still stands.
  void CollectNotice(const games::poker::TableEvent& engine_event,
                     std::vector<v1::TableEvent>* derived) const;
  // Tells the engine whether `player` has a rebuy under way (a saga the
  // wallet has not answered, or one funded during a hand and waiting for
  // it to end): HE-70a/71 do not count such a player as short.
  void SyncRebuyPending(const std::string& player);
  absl::Status CompleteBuyIn(const std::string& saga_id,
                             std::vector<v1::TableEvent>* derived);
  // After the engine moved: the finished hand's settlement, players who
  // left, rebuys that were waiting for the hand.
  absl::Status Collect(std::vector<v1::TableEvent>* derived);
  v1::TableEvent Derived() const;

  games::poker::Table engine_;
  std::string id_;
  std::string name_;
  v1::PokerTableConfig config_;
  std::map<std::string, PendingBuyIn> pending_;  // by saga id
  int64_t sagas_started_ = 0;
  // Kept so a late or repeated wallet outcome is recognised. Grows with
  // the table's buy-ins (a few per player session).
  std::map<std::string, EndedSaga> ended_;
  std::map<std::string, std::vector<PendingBuyIn>> waiting_rebuys_;
  std::map<std::string, v1::SessionSummary> last_sessions_;
  // HE-68: when each resting player began the rest.
  std::map<std::string, int64_t> rest_since_;
  // Why a session the player did not end was ended (HE-71, HE-68), shown
  // to that player until they sit again.
  std::map<std::string, v1::SessionNotice> ended_notices_;
  size_t engine_events_seen_ = 0;
  int64_t hands_started_ = 0;
  int64_t hands_settled_ = 0;
  int64_t version_ = 0;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_TABLE_STATE_H_
