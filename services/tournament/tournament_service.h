// banca.v1.TournamentService (protos/banca/v1/tournament.proto): the gRPC
// edge over the tournaments the table host keeps (tournament_game.h). The
// host replays banca.tournament.events at start, so a restart loses no
// registration, chip count or prize; each tournament's commands are
// decided under its lock and answered once durable.
//
// Who may call what: the operator creates, starts, moves the level and
// cancels; a player registers, pays, acts and reads their own table for
// themselves (no request names another player); anyone authenticated
// lists, describes and reads the standings.
//
// The timers deal the hands (decks from the tournament's CSPRNG), time out
// decisions, move the levels by the clock and start a full sit and go;
// the wallet-outcome reader ends the payment sagas.
#ifndef BANCA_SERVICES_TOURNAMENT_TOURNAMENT_SERVICE_H_
#define BANCA_SERVICES_TOURNAMENT_TOURNAMENT_SERVICE_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "banca/v1/tournament.grpc.pb.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "services/common/table_host.h"
#include "services/common/table_host_options.h"
#include "services/tournament/tournament_game.h"
#include "services/tournament/tournament_metrics.h"

namespace banca::tournament {

struct TournamentServiceOptions : table::TableHostOptions {
  // How long a payment call waits for the wallet before DEADLINE_EXCEEDED
  // (the saga goes on; DescribeTournament shows the outcome).
  absl::Duration payment_wait = absl::Seconds(5);
  // Events a tournament may decide in one pass of the timers.
  int max_events_per_tick = 64;
};

class TournamentService final : public v1::TournamentService::Service {
 public:
  static absl::StatusOr<std::unique_ptr<TournamentService>> Start(
      eventlog::EventLog& log, const Clock& clock,
      TournamentServiceOptions options);
  ~TournamentService() override;
  void BeginShutdown() {}
  void Stop();

  // One pass of the timers over every tournament.
  void Tick();
  // Reads new wallet events and ends the payment sagas they answer.
  absl::StatusOr<int> PollWalletOutcomes();
  int64_t replayed_events() const { return host_.replayed_events(); }

  grpc::Status CreateTournament(grpc::ServerContext*,
                                const v1::CreateTournamentRequest*,
                                v1::TournamentInfo*) override;
  grpc::Status StartTournament(grpc::ServerContext*,
                               const v1::OperatorTournamentRequest*,
                               v1::TournamentInfo*) override;
  grpc::Status NextLevel(grpc::ServerContext*,
                         const v1::OperatorTournamentRequest*,
                         v1::TournamentInfo*) override;
  grpc::Status CancelTournament(grpc::ServerContext*,
                                const v1::OperatorTournamentRequest*,
                                v1::TournamentInfo*) override;
  grpc::Status ListTournaments(grpc::ServerContext*,
                               const v1::ListTournamentsRequest*,
                               v1::ListTournamentsResponse*) override;
  grpc::Status DescribeTournament(grpc::ServerContext*,
                                  const v1::GetTournamentRequest*,
                                  v1::TournamentInfo*) override;
  grpc::Status GetStandings(grpc::ServerContext*,
                            const v1::GetTournamentRequest*,
                            v1::TournamentStandings*) override;
  grpc::Status Register(grpc::ServerContext*,
                        const v1::PlayerTournamentRequest*,
                        v1::TournamentInfo*) override;
  grpc::Status Unregister(grpc::ServerContext*,
                          const v1::PlayerTournamentRequest*,
                          v1::TournamentInfo*) override;
  grpc::Status Rebuy(grpc::ServerContext*, const v1::PlayerTournamentRequest*,
                     v1::TournamentInfo*) override;
  grpc::Status AddOn(grpc::ServerContext*, const v1::PlayerTournamentRequest*,
                     v1::TournamentInfo*) override;
  grpc::Status Reentry(grpc::ServerContext*, const v1::PlayerTournamentRequest*,
                       v1::TournamentInfo*) override;
  grpc::Status ConvertTicket(grpc::ServerContext*,
                             const v1::PlayerTournamentRequest*,
                             v1::TournamentInfo*) override;
  grpc::Status GetMyTable(grpc::ServerContext*, const v1::GetTournamentRequest*,
                          v1::TournamentTableView*) override;
  grpc::Status Act(grpc::ServerContext*, const v1::TournamentActRequest*,
                   v1::TournamentTableView*) override;
  grpc::Status SetAway(grpc::ServerContext*, const v1::SetAwayRequest*,
                       v1::TournamentTableView*) override;

 private:
  using Host = table::TableHost<TournamentGame>;
  using Slot = TournamentGame::Table;

  TournamentService(eventlog::EventLog& log, const Clock& clock,
                    TournamentServiceOptions options);
  // An input event stamped with the clock and a seed from the
  // tournament's CSPRNG.
  v1::TournamentEvent NewEvent(Slot& slot) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Commits `e` (named by the request); for a payment, waits for the
  // wallet: FAILED_PRECONDITION when refused or paid back,
  // DEADLINE_EXCEEDED when it has not come within payment_wait.
  absl::Status Decide(Slot& slot, const std::string& key,
                      const std::string& fingerprint, v1::TournamentEvent e)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // Waits (up to payment_wait) for `saga`'s outcome and answers as Decide
  // does; `waiting` when this caller registered for the refusal's reason.
  absl::Status AwaitPayment(Slot& slot, const std::string& saga, bool waiting)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // A retried payment request (same id): the answer of the saga it
  // started, never a bare OK for a payment that was refused.
  absl::Status RepeatedPayment(Slot& slot, const std::string& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(slot.mu);
  // An operator's command: `make(slot)` is its event; the answer the
  // tournament's Info once durable.
  template <typename Make>
  grpc::Status OperatorCommand(grpc::ServerContext* context,
                               std::string_view method,
                               const v1::OperatorTournamentRequest& request,
                               v1::TournamentInfo* response, Make make);
  // The tickets to `target` that `player` won (places' prizes) in the
  // satellites and freerolls hosted here (TN-30).
  struct TicketsWon {
    int64_t in_satellites = 0;
    int64_t in_freerolls = 0;
  };
  TicketsWon TicketsWonTo(const std::string& player, const std::string& target);
  // FAILED_PRECONDITION unless the cash-out `tx` takes no more than the
  // player's convertible tickets (TournamentState::ConvertibleTickets).
  static absl::Status CheckConvertible(const tables::TournamentState& state,
                                       const std::string& player,
                                       const TicketsWon& won,
                                       const v1::LedgerTransaction& tx);
  // A player's payment of `kind` (Register, Rebuy, AddOn, Reentry,
  // ConvertTicket).
  grpc::Status Payment(grpc::ServerContext* context, std::string_view method,
                       const v1::PlayerTournamentRequest& request,
                       v1::TournamentPaymentKind kind,
                       v1::TournamentInfo* response);
  // A player's decision at their table; the answer their view.
  template <typename Make>
  grpc::Status TableCommand(grpc::ServerContext* context,
                            std::string_view method,
                            const std::string& request_id,
                            const google::protobuf::Message& body,
                            const std::string& tournament_id,
                            v1::TournamentTableView* response, Make make);
  template <typename Read>
  grpc::Status Query(grpc::ServerContext* context,
                     const std::string& tournament_id, Read read);
  void TickSlot(Slot& slot);
  // The tournaments' metrics, at most once a second.
  void UpdateMetrics();
  absl::StatusOr<bool> HandleOutcome(const v1::WalletEvent& event,
                                     Host::Appended* appended);

  const Clock& clock_;
  TournamentServiceOptions options_;
  Host host_;
  std::unique_ptr<TournamentMetrics> metrics_;  // null: no registry
  absl::Mutex metrics_mu_;
  absl::Time metrics_at_ ABSL_GUARDED_BY(metrics_mu_) = absl::InfinitePast();
};

}  // namespace banca::tournament

#endif  // BANCA_SERVICES_TOURNAMENT_TOURNAMENT_SERVICE_H_
