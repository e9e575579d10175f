#include "services/table/banked_table_service.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/sealed_decks.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/common/event_size.h"
#include "services/common/host_runtime.h"
#include "services/common/idempotent_command.h"
#include "services/table/table_caller.h"

namespace banca::table {
namespace {

// "banked/<table>/stake/<n>" -> "<table>".
std::string TableOfSaga(const std::string& saga_id) {
  std::vector<std::string> parts = absl::StrSplit(saga_id, '/');
  if (parts.size() != 4 || parts[0] != "banked" || parts[2] != "stake") {
    return "";
  }
  return parts[1];
}

absl::Status NeedPlayer(const auth::Claims& caller) {
  return RequirePlayer(caller, "joins, bets and leaves");
}

}  // namespace

BankedTableService::BankedTableService(eventlog::EventLog& log,
                                       const Clock& clock,
                                       BankedTableServiceOptions options)
    : clock_(clock),
      options_(std::move(options)),
      host_(log, clock, options_) {}

absl::StatusOr<std::unique_ptr<BankedTableService>> BankedTableService::Start(
    eventlog::EventLog& log, const Clock& clock,
    BankedTableServiceOptions options) {
  std::unique_ptr<BankedTableService> service(
      new BankedTableService(log, clock, std::move(options)));
  BankedTableService* self = service.get();
  RETURN_IF_ERROR(self->host_.Open([](Slot&, const v1::BankedTableEvent&) {
    return false;  // the host's index keeps every request id
  }));
  self->host_.Run([self] { self->Tick(); },
                  [self](const v1::WalletEvent& event,
                         TableHost<BankedGame>::Appended* appended) {
                    return self->HandleOutcome(event, appended);
                  });
  return service;
}

BankedTableService::~BankedTableService() { Stop(); }

void BankedTableService::BeginShutdown() { closing_watches_ = true; }

void BankedTableService::Stop() {
  closing_watches_ = true;
  host_.Stop();
}

absl::StatusOr<int> BankedTableService::PollWalletOutcomes() {
  return host_.PollWalletOutcomes();
}

v1::BankedTableEvent BankedTableService::NewEvent(
    const std::string& table_id) const {
  v1::BankedTableEvent e;
  e.set_table_id(table_id);
  e.set_at_micros(clock_.NowMicros());
  return e;
}

template <typename Make>
grpc::Status BankedTableService::PlayerCommand(
    grpc::ServerContext* context, std::string_view method,
    const std::string& request_id, const google::protobuf::Message& body,
    const std::string& table_id, v1::BankedTableView* response, Make make) {
  return host_.Command(
      context, method, request_id, body, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(NeedPlayer(caller));
        ASSIGN_OR_RETURN(Slot * found, host_.FindOrNotFound(table_id));
        Slot& slot = *found;
        absl::MutexLock lock(&slot.mu);
        absl::Status decided =
            repeat ? AnswerRepeat(slot, key) : absl::OkStatus();
        if (!repeat) {
          ASSIGN_OR_RETURN(v1::BankedTableEvent e,
                           make(caller.player_id(), slot));
          decided = Decide(slot, key, fingerprint, std::move(e));
        }
        if (decided.ok()) *response = slot.state->ViewFor(caller.player_id());
        // Whatever the answer, it leaves once what it decided is durable.
        WaitDurableLocked(slot);
        return decided;
      });
}

template <typename Read>
grpc::Status BankedTableService::Query(grpc::ServerContext* context,
                                       const std::string& table_id, Read read) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  absl::StatusOr<Slot*> slot = host_.FindOrNotFound(table_id);
  if (!slot.ok()) return edge::ToGrpcStatus(slot.status());
  absl::MutexLock lock(&(*slot)->mu);
  const absl::Status read_status = read(*caller, *(*slot)->state);
  WaitDurableLocked(**slot);
  return edge::ToGrpcStatus(read_status);
}

grpc::Status BankedTableService::CreateTable(
    grpc::ServerContext* context, const v1::CreateBankedTableRequest* request,
    v1::BankedTableInfo* response) {
  using Opened =
      std::pair<v1::BankedTableEvent, std::unique_ptr<tables::BankedGameState>>;
  return host_.CreateTable(
      context, "BankedCreateTable", *request, request->request_id(),
      request->table_id(), request->name(), response,
      [&](const std::string& key,
          const std::string& fingerprint) -> absl::StatusOr<Opened> {
        v1::BankedTableEvent e = NewEvent(request->table_id());
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        v1::BankedTableCreated* c = e.mutable_created();
        c->set_table_id(request->table_id());
        c->set_name(request->name());
        c->set_game(request->game());
        if (request->has_roulette()) {
          *c->mutable_roulette() = request->roulette();
        }
        if (request->has_blackjack()) {
          *c->mutable_blackjack() = request->blackjack();
        }
        if (request->has_stud()) *c->mutable_stud() = request->stud();
        ASSIGN_OR_RETURN(std::unique_ptr<tables::BankedGameState> state,
                         tables::BankedGameState::Create(*c, e.at_micros()));
        *c = state->created();  // defaults filled in
        return Opened(std::move(e), std::move(state));
      });
}

grpc::Status BankedTableService::ListTables(grpc::ServerContext* context,
                                            const v1::ListBankedTablesRequest*,
                                            v1::ListBankedTablesResponse* out) {
  return host_.ListTables(context, out);
}

grpc::Status BankedTableService::Join(grpc::ServerContext* context,
                                      const v1::JoinBankedTableRequest* request,
                                      v1::BankedTableView* response) {
  return PlayerCommand(context, "BankedJoin", request->request_id(), *request,
                       request->table_id(), response,
                       [&](const std::string& player,
                           Slot&) -> absl::StatusOr<v1::BankedTableEvent> {
                         v1::BankedTableEvent e = NewEvent(request->table_id());
                         e.mutable_joined()->set_player_id(player);
                         e.mutable_joined()->set_seat(request->seat());
                         return e;
                       });
}

grpc::Status BankedTableService::Leave(
    grpc::ServerContext* context, const v1::LeaveBankedTableRequest* request,
    v1::BankedSessionSummary* response) {
  return host_.Command(
      context, "BankedLeave", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(NeedPlayer(caller));
        ASSIGN_OR_RETURN(Slot * slot,
                         host_.FindOrNotFound(request->table_id()));
        absl::MutexLock lock(&slot->mu);
        if (repeat) {
          *response = slot->state->SummaryFor(caller.player_id());
          WaitDurableLocked(*slot);
          return absl::OkStatus();
        }
        v1::BankedTableEvent e = NewEvent(request->table_id());
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        e.mutable_leaving()->set_player_id(caller.player_id());
        RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
        *response = slot->state->last_left();
        WaitDurableLocked(*slot);
        return absl::OkStatus();
      });
}

grpc::Status BankedTableService::PlaceBet(
    grpc::ServerContext* context, const v1::PlaceBankedBetRequest* request,
    v1::BankedTableView* response) {
  return PlayerCommand(context, "BankedPlaceBet", request->request_id(),
                       *request, request->table_id(), response,
                       [&](const std::string& player, Slot& slot) {
                         return slot.state->BetEvent(player, *request,
                                                     clock_.NowMicros());
                       });
}

grpc::Status BankedTableService::Act(grpc::ServerContext* context,
                                     const v1::BankedActRequest* request,
                                     v1::BankedTableView* response) {
  return PlayerCommand(context, "BankedAct", request->request_id(), *request,
                       request->table_id(), response,
                       [&](const std::string& player, Slot& slot) {
                         return slot.state->ActEvent(player, *request,
                                                     clock_.NowMicros());
                       });
}

absl::Status BankedTableService::Decide(Slot& slot, const std::string& key,
                                        const std::string& fingerprint,
                                        v1::BankedTableEvent e) {
  e.set_request_id(key);
  e.set_request_fingerprint(fingerprint);
  const std::string saga_id =
      e.has_stake_requested() ? e.stake_requested().saga_id() : "";
  RETURN_IF_ERROR(CommitLocked(slot, std::move(e)));
  if (saga_id.empty()) return absl::OkStatus();
  // A stake: wait for the wallet (through the log) before answering.
  // Registered under the lock that the answer needs, so it cannot slip
  // past before the wait begins.
  if (!slot.refusals.Wait(saga_id)) {
    return absl::DeadlineExceededError(absl::StrCat(
        "too many stakes wait for the wallet at this table; stake ", saga_id,
        " goes on and the bet shows once it is captured (GetTableView)"));
  }
  const tables::BankedGameState& state = *slot.state;
  const absl::Time deadline = absl::Now() + options_.stake_wait;
  while (state.sagas().Pending(saga_id) != nullptr) {
    if (slot.changed.WaitWithDeadline(&slot.mu, deadline)) break;
  }
  std::optional<std::string> refused = slot.refusals.Done(saga_id);
  if (state.sagas().Pending(saga_id) != nullptr) {
    return absl::DeadlineExceededError(
        absl::StrCat("the wallet has not answered stake ", saga_id,
                     " yet; the bet shows once it is captured (GetTableView)"));
  }
  if (refused) {
    return absl::FailedPreconditionError(
        absl::StrCat("stake refused: ", *refused));
  }
  return absl::OkStatus();
}

absl::Status BankedTableService::AnswerRepeat(Slot& slot,
                                              const std::string& key) {
  using State = tables::StakeOutcome::State;
  const tables::BankedGameState& state = *slot.state;
  const absl::Time deadline = absl::Now() + options_.stake_wait;
  while (state.sagas().OutcomeOf(key).state == State::kPending) {
    if (slot.changed.WaitWithDeadline(&slot.mu, deadline)) break;
  }
  const tables::StakeOutcome outcome = state.sagas().OutcomeOf(key);
  if (outcome.state == State::kPending) {
    return absl::DeadlineExceededError(
        absl::StrCat("the wallet has not answered stake ", outcome.saga_id,
                     " yet; the bet shows once it is captured (GetTableView)"));
  }
  if (outcome.state == State::kRefused) {
    return absl::FailedPreconditionError(
        absl::StrCat("stake refused: ", outcome.reason));
  }
  return absl::OkStatus();
}

grpc::Status BankedTableService::WithdrawBet(
    grpc::ServerContext* context, const v1::WithdrawBankedBetRequest* request,
    v1::BankedTableView* response) {
  return PlayerCommand(
      context, "BankedWithdrawBet", request->request_id(), *request,
      request->table_id(), response,
      [&](const std::string& player,
          Slot&) -> absl::StatusOr<v1::BankedTableEvent> {
        if (request->bet_id().size() > ledger::kMaxIdBytes) {
          return absl::InvalidArgumentError(absl::StrCat(
              "bet_id must be at most ", ledger::kMaxIdBytes, " bytes"));
        }
        v1::BankedTableEvent e = NewEvent(request->table_id());
        e.mutable_withdraw_requested()->set_player_id(player);
        e.mutable_withdraw_requested()->set_bet_id(request->bet_id());
        return e;
      });
}

grpc::Status BankedTableService::Launch(grpc::ServerContext* context,
                                        const v1::LaunchRequest* request,
                                        v1::BankedTableView* response) {
  return PlayerCommand(context, "BankedLaunch", request->request_id(), *request,
                       request->table_id(), response,
                       [&](const std::string& player, Slot& slot) {
                         return slot.state->LaunchEvent(
                             player, request->round(), clock_.NowMicros(),
                             *slot.rng);
                       });
}

grpc::Status BankedTableService::VoidRound(
    grpc::ServerContext* context, const v1::VoidBankedRoundRequest* request,
    v1::BankedTableInfo* response) {
  return host_.VoidCommand(
      context, "BankedVoidRound", *request, request->request_id(),
      request->table_id(), request->reason(), "a round", response,
      [&](Slot& slot, const std::string& key, const std::string& fingerprint)
          -> absl::StatusOr<v1::BankedTableEvent> {
        v1::BankedTableEvent e = NewEvent(request->table_id());
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        e.mutable_void_requested()->set_round(slot.state->round());
        e.mutable_void_requested()->set_reason(request->reason());
        return e;
      },
      [this](Slot& slot, v1::BankedTableEvent e) {
        return CommitLocked(slot, std::move(e));
      });
}

grpc::Status BankedTableService::GetTableView(
    grpc::ServerContext* context, const v1::GetBankedTableRequest* request,
    v1::BankedTableView* response) {
  return Query(
      context, request->table_id(),
      [&](const auth::Claims& caller, const tables::BankedGameState& s) {
        *response = s.ViewFor(ViewerOf(caller));
        return absl::OkStatus();
      });
}

grpc::Status BankedTableService::WatchTable(
    grpc::ServerContext* context, const v1::GetBankedTableRequest* request,
    grpc::ServerWriter<v1::BankedTableView>* writer) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  absl::StatusOr<Slot*> found = host_.FindOrNotFound(request->table_id());
  if (!found.ok()) return edge::ToGrpcStatus(found.status());
  Slot& slot = **found;
  const std::string viewer = ViewerOf(*caller);
  // Only a player has a connection the rules speak of.
  const bool tracked = viewer != kSpectator;
  absl::StatusOr<CallerStreams::Ticket> ticket =
      host_.watch_streams().Open(caller->subject);
  if (!ticket.ok()) return edge::ToGrpcStatus(ticket.status());
  {
    absl::MutexLock lock(&slot.mu);
    if (absl::Status s = AdmitLocked(slot, viewer); !s.ok()) {
      return edge::ToGrpcStatus(s);
    }
    if (++slot.watchers[viewer] == 1 && tracked) {
      NoteConnectionLocked(slot, viewer, true);
    }
  }
  int64_t sent = -1;
  while (!context->IsCancelled() && !closing_watches_) {
    v1::BankedTableView view;
    {
      absl::MutexLock lock(&slot.mu);
      if (slot.state->version() == sent) {
        slot.changed.WaitWithTimeout(&slot.mu, options_.watch_poll);
        if (slot.state->version() == sent) continue;
      }
      view = slot.state->ViewFor(viewer);
      sent = slot.state->version();
      // Sent once everything it shows is durable.
      WaitDurableLocked(slot);
    }
    if (!writer->Write(view)) break;
  }
  absl::MutexLock lock(&slot.mu);
  if (--slot.watchers[viewer] <= 0) {
    slot.watchers.erase(viewer);
    if (tracked && !closing_watches_) {
      NoteConnectionLocked(slot, viewer, false);
    }
  }
  WaitDurableLocked(slot);
  return grpc::Status::OK;
}

absl::Status BankedTableService::AdmitLocked(const Slot& slot,
                                             const std::string& viewer) const {
  const tables::BankedGameState& state = *slot.state;
  if (viewer != kSpectator && state.Joined(viewer)) return absl::OkStatus();
  // Counted now rather than when each stream opened: a player who joined
  // since is a player, and one who left is a spectator.
  int spectators = 0;
  for (const auto& [who, n] : slot.watchers) {
    if (who == kSpectator || !state.Joined(who)) spectators += n;
  }
  if (spectators < options_.max_spectators_per_table) {
    return absl::OkStatus();
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "at most ", options_.max_spectators_per_table,
      " spectators' streams per table (a player who has joined it is always "
      "admitted)"));
}

void BankedTableService::NoteConnectionLocked(Slot& slot,
                                              const std::string& player,
                                              bool connected) {
  const tables::BankedGameState& state = *slot.state;
  if (!state.Joined(player) || state.Disconnected(player) != connected) {
    return;  // no session here, or nothing new
  }
  v1::BankedTableEvent e = NewEvent(state.id());
  e.mutable_connection()->set_player_id(player);
  e.mutable_connection()->set_connected(connected);
  if (absl::Status s = CommitLocked(slot, std::move(e)); !s.ok()) {
    Log(LogLevel::kError, "banked table", "connection change not committed",
        {{"table", state.id()}, {"player", player}, {"error", s.message()}});
  }
}

grpc::Status BankedTableService::GetLastNumbers(
    grpc::ServerContext* context, const v1::GetBankedTableRequest* request,
    v1::LastNumbersResponse* response) {
  return Query(context, request->table_id(),
               [&](const auth::Claims&, const tables::BankedGameState& s) {
                 for (v1::PastNumber& n : s.LastNumbers()) {
                   *response->add_numbers() = std::move(n);
                 }
                 return absl::OkStatus();
               });
}

grpc::Status BankedTableService::GetLastRound(
    grpc::ServerContext* context, const v1::GetBankedTableRequest* request,
    v1::BankedRoundRecord* response) {
  return Query(
      context, request->table_id(),
      [&](const auth::Claims& caller,
          const tables::BankedGameState& s) -> absl::Status {
        if (absl::Status denied = RequirePlayer(caller, "reads its last round");
            !denied.ok()) {
          return denied;
        }
        std::vector<v1::BankedRoundRecord> rounds =
            s.ReplayFor(caller.player_id());
        if (rounds.empty()) {
          return absl::NotFoundError(
              absl::StrCat(caller.player_id(), " has played no round here"));
        }
        *response = std::move(rounds.front());
        return absl::OkStatus();
      });
}

grpc::Status BankedTableService::GetReplay(
    grpc::ServerContext* context, const v1::GetBankedTableRequest* request,
    v1::BankedReplayResponse* response) {
  return Query(
      context, request->table_id(),
      [&](const auth::Claims& caller,
          const tables::BankedGameState& s) -> absl::Status {
        if (absl::Status denied = RequirePlayer(caller, "replays its rounds");
            !denied.ok()) {
          return denied;
        }
        for (v1::BankedRoundRecord& r : s.ReplayFor(caller.player_id())) {
          *response->add_rounds() = std::move(r);
        }
        return absl::OkStatus();
      });
}

grpc::Status BankedTableService::GetSessionSummary(
    grpc::ServerContext* context, const v1::GetBankedTableRequest* request,
    v1::BankedSessionSummary* response) {
  return Query(context, request->table_id(),
               [&](const auth::Claims& caller,
                   const tables::BankedGameState& s) -> absl::Status {
                 if (absl::Status denied =
                         RequirePlayer(caller, "reads its session summary");
                     !denied.ok()) {
                   return denied;
                 }
                 if (!s.Joined(caller.player_id())) {
                   return absl::NotFoundError(absl::StrCat(
                       caller.player_id(), " has no session here"));
                 }
                 *response = s.SummaryFor(caller.player_id());
                 return absl::OkStatus();
               });
}

void BankedTableService::Tick() {
  for (Slot* slot : host_.Tables()) TickSlot(*slot);
}

void BankedTableService::TickSlot(Slot& slot) {
  absl::MutexLock lock(&slot.mu);
  tables::BankedGameState& state = *slot.state;
  const int64_t now = clock_.NowMicros();
  auto commit = [&](v1::BankedTableEvent e, const char* what) {
    if (absl::Status s = CommitLocked(slot, std::move(e)); !s.ok()) {
      Log(LogLevel::kError, "banked table",
          absl::StrCat(what, " not committed"),
          {{"table", state.id()}, {"error", s.message()}});
    }
  };
  // Stakes the wallet has not answered in time.
  for (v1::BankedTableEvent& e : host_.ExpiredSagasLocked(slot, now)) {
    commit(std::move(e), "stake timeout");
  }
  // What the clock calls for: a spin once the window has run its course
  // (the number drawn only now), a deal, a decision timeout, an idle
  // notice. Bounded: each event changes what is due.
  for (int i = 0; i < 8; ++i) {
    std::optional<v1::BankedTableEvent> due =
        state.Due(clock_.NowMicros(), *slot.rng);
    if (!due) break;
    if (absl::Status s = CommitLocked(slot, *std::move(due)); !s.ok()) {
      Log(LogLevel::kError, "banked table", "timer event not committed",
          {{"table", state.id()}, {"error", s.message()}});
      break;
    }
  }
  // A tick ends with what it decided on the log (the next tick, and a
  // test driving the clock, see it there).
  WaitDurableLocked(slot);
}

absl::StatusOr<bool> BankedTableService::HandleOutcome(
    const v1::WalletEvent& event, TableHost<BankedGame>::Appended* appended) {
  const std::string saga_id = wire::SagaOfStakeRequest(event.request_id());
  // By provenance: the wallet's own step, not a client's event that
  // carries a saga's request id.
  if (saga_id.empty() || !wire::MadeByTheWallet(event) ||
      !(event.has_transaction_posted() || event.has_request_rejected())) {
    return false;
  }
  const bool captured = event.has_transaction_posted();
  std::string rejection;
  if (event.has_request_rejected()) {
    rejection = absl::StrCat(event.request_rejected().code(), ": ",
                             event.request_rejected().message());
  }
  Slot* slot = host_.Find(TableOfSaga(saga_id));
  if (slot == nullptr) return true;
  absl::MutexLock lock(&slot->mu);
  tables::BankedGameState& state = *slot->state;
  const bool pending = state.sagas().Pending(saga_id) != nullptr;
  // A repeat (already handled) changes nothing; a capture after the table
  // gave up is paid back once.
  if (!pending && !(captured && state.sagas().TimedOut(saga_id) != nullptr)) {
    return true;
  }
  v1::BankedTableEvent e = NewEvent(state.id());
  if (captured) {
    e.mutable_stake_captured()->set_saga_id(saga_id);
  } else {
    e.mutable_stake_refused()->set_saga_id(saga_id);
    e.mutable_stake_refused()->set_reason(rejection);
    slot->refusals.Refused(saga_id, rejection);
  }
  RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
  // Durable before the reader commits its position past the outcome.
  appended->emplace_back(slot, slot->sequence);
  return true;
}

}  // namespace banca::table
