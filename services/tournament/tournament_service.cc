#include "services/tournament/tournament_service.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/tables/seeded_draws.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/wallet_codec.h"
#include "services/common/bearer_auth.h"

namespace banca::tournament {
namespace {

absl::Status NeedOperator(const auth::Claims& caller, std::string_view what) {
  if (caller.role == auth::Role::kOperator) return absl::OkStatus();
  return absl::PermissionDeniedError(
      absl::StrCat("only an operator ", ToAbsl(what), " (the caller's role is ",
                   ToAbsl(auth::RoleName(caller.role)), ")"));
}

absl::Status NeedPlayer(const auth::Claims& caller) {
  if (caller.role == auth::Role::kPlayer) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      "only a player registers, pays and plays, for itself (the caller's "
      "role is ",
      ToAbsl(auth::RoleName(caller.role)), ")"));
}

}  // namespace

TournamentService::TournamentService(eventlog::EventLog& log,
                                     const Clock& clock,
                                     TournamentServiceOptions options)
    : clock_(clock), options_(std::move(options)), host_(log, clock, options_) {
  if (options_.metrics != nullptr) {
    metrics_ = std::make_unique<TournamentMetrics>(*options_.metrics);
  }
}

absl::StatusOr<std::unique_ptr<TournamentService>> TournamentService::Start(
    eventlog::EventLog& log, const Clock& clock,
    TournamentServiceOptions options) {
  std::unique_ptr<TournamentService> service(
      new TournamentService(log, clock, std::move(options)));
  TournamentService* self = service.get();
  RETURN_IF_ERROR(self->host_.Open([](Slot&, const v1::TournamentEvent&) {
    return false;  // the host's index keeps every request id
  }));
  // The tournaments' randomness (decks, seeds) after a restart.
  for (Slot* slot : self->host_.Tables()) {
    absl::MutexLock lock(&slot->mu);
    ASSIGN_OR_RETURN(slot->rng, self->host_.NewRandomSource(slot->state->id()));
  }
  self->host_.Run([self] { self->Tick(); },
                  [self](const v1::WalletEvent& event, Host::Appended* out) {
                    return self->HandleOutcome(event, out);
                  });
  return service;
}

TournamentService::~TournamentService() { Stop(); }

void TournamentService::Stop() { host_.Stop(); }

absl::StatusOr<int> TournamentService::PollWalletOutcomes() {
  return host_.PollWalletOutcomes();
}

v1::TournamentEvent TournamentService::NewEvent(Slot& slot) const {
  v1::TournamentEvent e;
  e.set_tournament_id(slot.state->id());
  e.set_at_micros(clock_.NowMicros());
  e.set_draw_seed(tables::NewDrawSeed(*slot.rng));
  return e;
}

absl::Status TournamentService::Decide(Slot& slot, const std::string& key,
                                       const std::string& fingerprint,
                                       v1::TournamentEvent e) {
  e.set_request_id(key);
  e.set_request_fingerprint(fingerprint);
  const std::string saga =
      e.has_payment_requested() ? e.payment_requested().saga_id() : "";
  RETURN_IF_ERROR(host_.CommitLocked(slot, std::move(e)));
  if (saga.empty()) return absl::OkStatus();
  const tables::TournamentState& state = *slot.state;
  if (state.PendingPayment(saga) != nullptr && !slot.refusals.Wait(saga)) {
    return absl::DeadlineExceededError(absl::StrCat(
        "too many payments wait for the wallet here; payment ", saga,
        " goes on (DescribeTournament shows it once applied)"));
  }
  return AwaitPayment(slot, saga, /*waiting=*/true);
}

absl::Status TournamentService::AwaitPayment(Slot& slot,
                                             const std::string& saga,
                                             bool waiting) {
  const tables::TournamentState& state = *slot.state;
  const absl::Time deadline = absl::Now() + options_.payment_wait;
  while (!state.PaymentOutcome(saga).has_value()) {
    if (slot.changed.WaitWithDeadline(&slot.mu, deadline)) break;
  }
  std::optional<std::string> refused =
      waiting ? slot.refusals.Done(saga) : std::nullopt;
  const std::optional<bool> outcome = state.PaymentOutcome(saga);
  if (!outcome.has_value()) {
    return absl::DeadlineExceededError(
        absl::StrCat("payment ", saga,
                     " is not applied yet; it goes on "
                     "(DescribeTournament shows it once applied)"));
  }
  if (!*outcome) {
    return absl::FailedPreconditionError(absl::StrCat(
        "payment refused: ",
        refused ? *refused
                : "the tournament could not take it and paid it back"));
  }
  return absl::OkStatus();
}

absl::Status TournamentService::RepeatedPayment(Slot& slot,
                                                const std::string& key) {
  const std::optional<std::string> saga = slot.state->SagaOfRequest(key);
  if (!saga.has_value()) return absl::OkStatus();
  return AwaitPayment(slot, *saga, /*waiting=*/false);
}

template <typename Make>
grpc::Status TournamentService::OperatorCommand(
    grpc::ServerContext* context, std::string_view method,
    const v1::OperatorTournamentRequest& request, v1::TournamentInfo* response,
    Make make) {
  return host_.Command(
      context, method, request.request_id(), request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(NeedOperator(caller, "runs a tournament"));
        ASSIGN_OR_RETURN(Slot * slot,
                         host_.FindOrNotFound(request.tournament_id()));
        absl::MutexLock lock(&slot->mu);
        absl::Status decided = absl::OkStatus();
        if (!repeat) {
          v1::TournamentEvent e = NewEvent(*slot);
          make(*slot, e);
          decided = Decide(*slot, key, fingerprint, std::move(e));
        }
        *response = slot->state->Info();
        host_.WaitDurableLocked(*slot);
        return decided;
      });
}

grpc::Status TournamentService::Payment(
    grpc::ServerContext* context, std::string_view method,
    const v1::PlayerTournamentRequest& request, v1::TournamentPaymentKind kind,
    v1::TournamentInfo* response) {
  return host_.Command(
      context, method, request.request_id(), request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(NeedPlayer(caller));
        ASSIGN_OR_RETURN(Slot * slot,
                         host_.FindOrNotFound(request.tournament_id()));
        // TN-30: the tickets won here, read before this tournament's lock
        // (one slot's lock at a time).
        const bool cash_out =
            kind == v1::TOURNAMENT_PAYMENT_KIND_TICKET_CASH_OUT;
        const TicketsWon won =
            cash_out ? TicketsWonTo(caller.player_id(), request.tournament_id())
                     : TicketsWon{};
        absl::MutexLock lock(&slot->mu);
        absl::Status decided = absl::OkStatus();
        if (!repeat) {
          ASSIGN_OR_RETURN(v1::TournamentEvent e,
                           slot->state->PaymentEvent(caller.player_id(), kind,
                                                     request.use_ticket()));
          if (cash_out) {
            RETURN_IF_ERROR(CheckConvertible(*slot->state, caller.player_id(),
                                             won, e.payment_requested().tx()));
          }
          v1::TournamentEvent stamped = NewEvent(*slot);
          *stamped.mutable_payment_requested() =
              std::move(*e.mutable_payment_requested());
          decided = Decide(*slot, key, fingerprint, std::move(stamped));
        } else {
          decided = RepeatedPayment(*slot, key);
        }
        *response = slot->state->Info();
        host_.WaitDurableLocked(*slot);
        return decided;
      });
}

template <typename Make>
grpc::Status TournamentService::TableCommand(
    grpc::ServerContext* context, std::string_view method,
    const std::string& request_id, const google::protobuf::Message& body,
    const std::string& tournament_id, v1::TournamentTableView* response,
    Make make) {
  return host_.Command(
      context, method, request_id, body, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(NeedPlayer(caller));
        ASSIGN_OR_RETURN(Slot * slot, host_.FindOrNotFound(tournament_id));
        absl::MutexLock lock(&slot->mu);
        if (!repeat) {
          v1::TournamentEvent e = NewEvent(*slot);
          RETURN_IF_ERROR(make(caller.player_id(), *slot, e));
          RETURN_IF_ERROR(Decide(*slot, key, fingerprint, std::move(e)));
        }
        ASSIGN_OR_RETURN(*response, slot->state->ViewFor(caller.player_id()));
        host_.WaitDurableLocked(*slot);
        return absl::OkStatus();
      });
}

template <typename Read>
grpc::Status TournamentService::Query(grpc::ServerContext* context,
                                      const std::string& tournament_id,
                                      Read read) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  absl::StatusOr<Slot*> slot = host_.FindOrNotFound(tournament_id);
  if (!slot.ok()) return edge::ToGrpcStatus(slot.status());
  absl::MutexLock lock(&(*slot)->mu);
  const absl::Status status = read(*caller, *(*slot)->state);
  host_.WaitDurableLocked(**slot);
  return edge::ToGrpcStatus(status);
}

// --- The operator's calls -----------------------------------------------

grpc::Status TournamentService::CreateTournament(
    grpc::ServerContext* context, const v1::CreateTournamentRequest* request,
    v1::TournamentInfo* response) {
  using Opened =
      std::pair<v1::TournamentEvent, std::unique_ptr<tables::TournamentState>>;
  return host_.CreateTable(
      context, "CreateTournament", *request, request->request_id(),
      request->tournament_id(), request->name(), response,
      [&](const std::string& key,
          const std::string& fingerprint) -> absl::StatusOr<Opened> {
        ASSIGN_OR_RETURN(std::unique_ptr<cards::RandomSource> rng,
                         host_.NewRandomSource(request->tournament_id()));
        v1::TournamentEvent e;
        e.set_tournament_id(request->tournament_id());
        e.set_at_micros(clock_.NowMicros());
        e.set_draw_seed(tables::NewDrawSeed(*rng));
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        v1::TournamentCreated* c = e.mutable_created();
        c->set_tournament_id(request->tournament_id());
        c->set_name(request->name());
        *c->mutable_config() = request->config();
        ASSIGN_OR_RETURN(std::unique_ptr<tables::TournamentState> state,
                         tables::TournamentState::Open(e));
        *c = state->created();  // defaults filled in
        return Opened(std::move(e), std::move(state));
      });
}

grpc::Status TournamentService::StartTournament(
    grpc::ServerContext* context, const v1::OperatorTournamentRequest* request,
    v1::TournamentInfo* response) {
  return OperatorCommand(
      context, "StartTournament", *request, response,
      [](Slot&, v1::TournamentEvent& e) { e.mutable_started(); });
}

grpc::Status TournamentService::NextLevel(
    grpc::ServerContext* context, const v1::OperatorTournamentRequest* request,
    v1::TournamentInfo* response) {
  return OperatorCommand(context, "NextLevel", *request, response,
                         [](Slot& slot, v1::TournamentEvent& e) {
                           e.mutable_level_started()->set_level(
                               slot.state->director().level() + 2);
                         });
}

grpc::Status TournamentService::CancelTournament(
    grpc::ServerContext* context, const v1::OperatorTournamentRequest* request,
    v1::TournamentInfo* response) {
  return OperatorCommand(context, "CancelTournament", *request, response,
                         [&](Slot&, v1::TournamentEvent& e) {
                           e.mutable_cancelled()->set_reason(request->reason());
                         });
}

// --- Anyone's reads -----------------------------------------------------

grpc::Status TournamentService::ListTournaments(
    grpc::ServerContext* context, const v1::ListTournamentsRequest*,
    v1::ListTournamentsResponse* response) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  for (Slot* slot : host_.Tables()) {
    absl::MutexLock lock(&slot->mu);
    *response->add_tournaments() = slot->state->Info();
    host_.WaitDurableLocked(*slot);
  }
  return grpc::Status::OK;
}

grpc::Status TournamentService::DescribeTournament(
    grpc::ServerContext* context, const v1::GetTournamentRequest* request,
    v1::TournamentInfo* response) {
  return Query(context, request->tournament_id(),
               [&](const auth::Claims&, const tables::TournamentState& s) {
                 *response = s.Info();
                 return absl::OkStatus();
               });
}

grpc::Status TournamentService::GetStandings(
    grpc::ServerContext* context, const v1::GetTournamentRequest* request,
    v1::TournamentStandings* response) {
  return Query(context, request->tournament_id(),
               [&](const auth::Claims&, const tables::TournamentState& s) {
                 *response = s.Standings();
                 return absl::OkStatus();
               });
}

// --- A player's calls ---------------------------------------------------

grpc::Status TournamentService::Register(
    grpc::ServerContext* context, const v1::PlayerTournamentRequest* request,
    v1::TournamentInfo* response) {
  return Payment(context, "TournamentRegister", *request,
                 v1::TOURNAMENT_PAYMENT_KIND_BUY_IN, response);
}

grpc::Status TournamentService::Rebuy(
    grpc::ServerContext* context, const v1::PlayerTournamentRequest* request,
    v1::TournamentInfo* response) {
  return Payment(context, "TournamentRebuy", *request,
                 v1::TOURNAMENT_PAYMENT_KIND_REBUY, response);
}

grpc::Status TournamentService::AddOn(
    grpc::ServerContext* context, const v1::PlayerTournamentRequest* request,
    v1::TournamentInfo* response) {
  return Payment(context, "TournamentAddOn", *request,
                 v1::TOURNAMENT_PAYMENT_KIND_ADD_ON, response);
}

grpc::Status TournamentService::Reentry(
    grpc::ServerContext* context, const v1::PlayerTournamentRequest* request,
    v1::TournamentInfo* response) {
  return Payment(context, "TournamentReentry", *request,
                 v1::TOURNAMENT_PAYMENT_KIND_REENTRY, response);
}

grpc::Status TournamentService::ConvertTicket(
    grpc::ServerContext* context, const v1::PlayerTournamentRequest* request,
    v1::TournamentInfo* response) {
  return Payment(context, "TournamentConvertTicket", *request,
                 v1::TOURNAMENT_PAYMENT_KIND_TICKET_CASH_OUT, response);
}

TournamentService::TicketsWon TournamentService::TicketsWonTo(
    const std::string& player, const std::string& target) {
  TicketsWon won;
  for (Slot* slot : host_.Tables()) {
    absl::MutexLock lock(&slot->mu);
    const games::tournament::Director& d = slot->state->director();
    const games::tournament::TournamentConfig& c = d.config();
    if (!c.PaysTickets() || c.ticket_target != target ||
        slot->state->id() == target) {
      continue;
    }
    const bool freeroll =
        c.kind == games::tournament::TournamentKind::kFreeroll;
    for (const games::tournament::Standing& s : d.Standings()) {
      if (s.player != player) continue;
      (freeroll ? won.in_freerolls : won.in_satellites) += s.prize;
    }
  }
  return won;
}

absl::Status TournamentService::CheckConvertible(
    const tables::TournamentState& state, const std::string& player,
    const TicketsWon& won, const v1::LedgerTransaction& tx) {
  int64_t price = 0;
  for (const v1::Posting& p : tx.postings()) {
    if (p.amount_minor() > 0) price += p.amount_minor();
  }
  const int64_t convertible =
      state.ConvertibleTickets(player, won.in_satellites, won.in_freerolls);
  if (convertible < price) {
    return absl::FailedPreconditionError(absl::StrCat(
        "TN-30: no entry won here is left to convert (", convertible,
        " of the ", price, " an entry costs: satellites ", won.in_satellites,
        ", freerolls ", won.in_freerolls,
        "; an entry spends freeroll tickets first, and those never convert)"));
  }
  return absl::OkStatus();
}

grpc::Status TournamentService::Unregister(
    grpc::ServerContext* context, const v1::PlayerTournamentRequest* request,
    v1::TournamentInfo* response) {
  return host_.Command(
      context, "TournamentUnregister", request->request_id(), *request,
      response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(NeedPlayer(caller));
        ASSIGN_OR_RETURN(Slot * slot,
                         host_.FindOrNotFound(request->tournament_id()));
        absl::MutexLock lock(&slot->mu);
        absl::Status decided = absl::OkStatus();
        if (!repeat) {
          v1::TournamentEvent e = NewEvent(*slot);
          e.mutable_unregistered()->set_player_id(caller.player_id());
          decided = Decide(*slot, key, fingerprint, std::move(e));
        }
        *response = slot->state->Info();
        host_.WaitDurableLocked(*slot);
        return decided;
      });
}

grpc::Status TournamentService::GetMyTable(
    grpc::ServerContext* context, const v1::GetTournamentRequest* request,
    v1::TournamentTableView* response) {
  return Query(context, request->tournament_id(),
               [&](const auth::Claims& caller,
                   const tables::TournamentState& s) -> absl::Status {
                 RETURN_IF_ERROR(NeedPlayer(caller));
                 ASSIGN_OR_RETURN(*response, s.ViewFor(caller.player_id()));
                 return absl::OkStatus();
               });
}

grpc::Status TournamentService::Act(grpc::ServerContext* context,
                                    const v1::TournamentActRequest* request,
                                    v1::TournamentTableView* response) {
  return TableCommand(
      context, "TournamentAct", request->request_id(), *request,
      request->tournament_id(), response,
      [&](const std::string& player, Slot& slot,
          v1::TournamentEvent& e) -> absl::Status {
        const std::string table = slot.state->director().TableOf(player);
        if (!request->table().empty() && request->table() != table) {
          return absl::PermissionDeniedError(
              absl::StrCat(player, " does not sit at ", request->table(),
                           " (a player acts only at their own table)"));
        }
        v1::TournamentActed* a = e.mutable_acted();
        a->set_player_id(player);
        a->set_action(request->action());
        a->set_amount(request->amount());
        a->set_hand_number(request->hand_number());
        return absl::OkStatus();
      });
}

grpc::Status TournamentService::SetAway(grpc::ServerContext* context,
                                        const v1::SetAwayRequest* request,
                                        v1::TournamentTableView* response) {
  return TableCommand(context, "TournamentSetAway", request->request_id(),
                      *request, request->tournament_id(), response,
                      [&](const std::string& player, Slot&,
                          v1::TournamentEvent& e) -> absl::Status {
                        e.mutable_away()->set_player_id(player);
                        e.mutable_away()->set_away(request->away());
                        return absl::OkStatus();
                      });
}

// --- Timers and the wallet's outcomes -----------------------------------

void TournamentService::Tick() {
  for (Slot* slot : host_.Tables()) TickSlot(*slot);
  UpdateMetrics();
}

void TournamentService::UpdateMetrics() {
  if (!metrics_) return;
  {
    absl::MutexLock lock(&metrics_mu_);
    const absl::Time now = absl::Now();
    if (now - metrics_at_ < absl::Seconds(1)) return;
    metrics_at_ = now;
  }
  TournamentTotals totals;
  for (Slot* slot : host_.Tables()) {
    absl::MutexLock lock(&slot->mu);
    totals.Add(slot->state->Info());
  }
  metrics_->Set(totals);
}

void TournamentService::TickSlot(Slot& slot) {
  absl::MutexLock lock(&slot.mu);
  tables::TournamentState& state = *slot.state;
  const int64_t now = clock_.NowMicros();
  for (v1::TournamentEvent& e : host_.ExpiredSagasLocked(slot, now)) {
    if (absl::Status s = host_.CommitLocked(slot, std::move(e)); !s.ok()) {
      Log(LogLevel::kError, "tournament", "payment timeout not committed",
          {{"tournament", state.id()}, {"error", s.message()}});
    }
  }
  // Bounded: each event changes what is due.
  for (int i = 0; i < options_.max_events_per_tick; ++i) {
    std::optional<v1::TournamentEvent> due =
        state.Due(clock_.NowMicros(), *slot.rng);
    if (!due) break;
    if (absl::Status s = host_.CommitLocked(slot, *std::move(due)); !s.ok()) {
      Log(LogLevel::kError, "tournament", "timer event not committed",
          {{"tournament", state.id()}, {"error", s.message()}});
      break;
    }
  }
  host_.WaitDurableLocked(slot);
}

absl::StatusOr<bool> TournamentService::HandleOutcome(
    const v1::WalletEvent& event, Host::Appended* appended) {
  const std::string& saga = event.request_id();
  const std::string tournament = wire::TournamentOfPaymentSaga(saga);
  // By provenance: the wallet's own step, not a client's event that
  // carries a saga's request id.
  if (tournament.empty() || !wire::MadeByTheWallet(event) ||
      !(event.has_transaction_posted() || event.has_request_rejected())) {
    return false;
  }
  Slot* slot = host_.Find(tournament);
  if (slot == nullptr) return true;
  absl::MutexLock lock(&slot->mu);
  tables::TournamentState& state = *slot->state;
  const bool captured = event.has_transaction_posted();
  if (state.PendingPayment(saga) == nullptr &&
      !(captured && state.PaymentTimedOut(saga))) {
    return true;  // a repeat, or a refusal after the timeout
  }
  v1::TournamentEvent e = NewEvent(*slot);
  if (captured) {
    e.mutable_payment_captured()->set_saga_id(saga);
  } else {
    const std::string why = absl::StrCat(event.request_rejected().code(), ": ",
                                         event.request_rejected().message());
    e.mutable_payment_refused()->set_saga_id(saga);
    e.mutable_payment_refused()->set_reason(why.substr(0, 200));
    slot->refusals.Refused(saga, why);
  }
  RETURN_IF_ERROR(host_.CommitLocked(*slot, std::move(e)));
  appended->emplace_back(slot, slot->sequence);
  return true;
}

}  // namespace banca::tournament
