#include "services/table/table_service.h"

#include <cstdlib>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/cards/showdown.h"
#include "libs/common/log_line.h"
#include "libs/common/request_fingerprint.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/tables/poker_config.h"
#include "libs/tables/sealed_decks.h"
#include "libs/tables/table_commands.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/common/bearer_auth.h"
#include "services/common/event_size.h"
#include "services/common/host_runtime.h"
#include "services/common/idempotent_command.h"
#include "services/table/play_stream.h"
#include "services/table/relay_stream.h"
#include "services/table/table_caller.h"

namespace banca::table {
namespace poker = games::poker;
namespace {

[[noreturn]] void DieOnLogFailure(const absl::Status& s) {
  eventlog::StopOnLogFailure("table", "append", s);
}

// An outcome is the saga's when it is for the saga's player and, for the
// seat's capture, moves what the saga asked for the seat (paid less the
// HE-17b rake). A refusal names the player too.
bool OutcomeFits(const tables::PendingBuyIn& saga, const std::string& player_id,
                 bool captured, int64_t captured_minor) {
  if (!player_id.empty() && player_id != saga.player) return false;
  return !captured || captured_minor == saga.paid - saga.rake;
}

// "table/<table>/buyin/<n>/<step>" -> saga id and step.
bool ParseSagaRequest(const std::string& request_id, std::string* table_id,
                      std::string* saga_id, std::string* step) {
  std::vector<std::string> parts = absl::StrSplit(request_id, '/');
  if (parts.size() != 5 || parts[0] != "table" || parts[2] != "buyin") {
    return false;
  }
  *table_id = parts[1];
  *saga_id =
      absl::StrCat(parts[0], "/", parts[1], "/", parts[2], "/", parts[3]);
  *step = parts[4];
  return true;
}

}  // namespace

TableService::TableService(eventlog::EventLog& log, const Clock& clock,
                           TableServiceOptions options)
    : clock_(clock),
      options_(std::move(options)),
      host_(log, clock, options_) {}

absl::StatusOr<std::unique_ptr<TableService>> TableService::Start(
    eventlog::EventLog& log, const Clock& clock, TableServiceOptions options) {
  std::unique_ptr<TableService> service(
      new TableService(log, clock, std::move(options)));
  TableService* self = service.get();
  RETURN_IF_ERROR(self->host_.Open([](Slot& slot, const v1::TableEvent& e) {
    // An Act's request id is the table's to keep (the current and the
    // previous hand's); every other one is the host's.
    if (!e.has_action_applied() || e.request_id().empty()) return false;
    if (slot.acts
            .insert({e.request_id(), ActAnswer{e.request_fingerprint(),
                                               e.action_applied().hand_number(),
                                               slot.sequence, std::nullopt}})
            .second) {
      slot.act_order.push_back(e.request_id());
    }
    PruneActs(slot);
    return true;
  }));
  self->host_.Run([self] { self->Tick(); },
                  [self](const v1::WalletEvent& event,
                         TableHost<PokerGame>::Appended* appended) {
                    return self->HandleOutcome(event, appended);
                  });
  return service;
}

TableService::~TableService() { Stop(); }

void TableService::BeginShutdown() {
  closing_plays_ = true;
  const grpc::Status stopping(grpc::StatusCode::UNAVAILABLE,
                              "the table service is stopping");
  std::vector<std::shared_ptr<PlaySession>> open;
  for (Slot* slot : host_.Tables()) {
    absl::MutexLock slot_lock(&slot->mu);
    for (auto& [player, session] : slot->players) open.push_back(session);
  }
  for (const std::shared_ptr<PlaySession>& session : open) {
    session->End(stopping);
  }
  std::vector<std::shared_ptr<RelayStream>> relays;
  {
    absl::MutexLock lock(&relays_mu_);
    for (RelayStream* relay : relays_) relays.push_back(relay->self());
  }
  for (const std::shared_ptr<RelayStream>& relay : relays) relay->End(stopping);
}

void TableService::Stop() {
  BeginShutdown();
  host_.Stop();
}

absl::StatusOr<v1::TableEvent> TableService::NewHand(Slot& slot) {
  const tables::TableState& state = *slot.state;
  ASSIGN_OR_RETURN(const std::vector<cards::Card> deck,
                   cards::ShuffledDeck(*slot.rng));
  int draw = 0;
  if (state.engine().NeedsButtonDraw()) {
    const size_t eligible = state.engine().EligibleSeats().size();
    draw = static_cast<int>(
        cards::UniformInt(*slot.rng, static_cast<uint32_t>(eligible)));
  }
  v1::TableEvent e = tables::HandStart(state, deck, draw);
  RETURN_IF_ERROR(tables::SealDeal(options_.deck_keys, e));
  return e;
}

absl::Status TableService::CommitLocked(Slot& slot, v1::TableEvent event) {
  tables::TableState& state = *slot.state;
  const bool started_hand = event.has_hand_started();
  std::vector<v1::TableEvent> batch;
  RETURN_IF_ERROR(host_.DecideLocked(slot, std::move(event), &batch));
  // With no pause between hands the next one is dealt in the same batch
  // (if the deck cannot be drawn now, the timer deals it later).
  if (!started_hand && state.config().hand_interval_ms() == 0 &&
      state.CanStartHand()) {
    absl::StatusOr<v1::TableEvent> hand = NewHand(slot);
    if (!hand.ok()) {
      Log(LogLevel::kError, "table", "next hand not dealt",
          {{"table", state.id()}, {"error", hand.status().message()}});
    } else if (absl::Status s =
                   host_.DecideLocked(slot, *std::move(hand), &batch);
               !s.ok()) {
      DieOnLogFailure(absl::InternalError(
          absl::StrCat("a fresh hand did not start: ", s.message())));
    }
  }
  std::vector<std::string> noticed;  // players given a session notice
  for (const v1::TableEvent& e : batch) {
    if (e.has_session_notice() && !slot.players.empty()) {
      noticed.push_back(e.session_notice().player_id());
    }
  }
  host_.QueueLocked(slot, std::move(batch));
  for (auto it = slot.saga_waits.begin(); it != slot.saga_waits.end();) {
    if (state.FindSaga(it->first) != nullptr) {
      ++it;
      continue;
    }
    std::function<void()> answer = std::move(it->second);
    it = slot.saga_waits.erase(it);
    answer();
  }
  TellPlayersLocked(slot, noticed);
  return absl::OkStatus();
}

void TableService::TellPlayersLocked(Slot& slot,
                                     const std::vector<std::string>& noticed) {
  if (slot.players.empty()) return;
  for (const std::string& player : noticed) {
    auto it = slot.players.find(player);
    if (it == slot.players.end()) continue;
    v1::PlayUpdate update;
    *update.mutable_view() = ViewLocked(slot, player);
    SendWhenDurable(slot, slot.sequence, it->second, std::move(update));
  }
  const tables::TableState& state = *slot.state;
  const poker::Hand* hand = state.engine().hand();
  if (!state.engine().in_hand() || hand == nullptr) return;
  const std::optional<int> seat = hand->to_act();
  if (!seat) return;
  const std::pair<int64_t, size_t> turn{state.hands_started(),
                                        hand->actions().size()};
  if (turn == slot.told_turn) return;
  slot.told_turn = turn;
  for (const poker::Table::SeatInfo& s : state.engine().Seats()) {
    if (s.seat != *seat) continue;
    auto it = slot.players.find(s.player);
    if (it == slot.players.end()) return;
    v1::PlayUpdate update;
    *update.mutable_view() = ViewLocked(slot, s.player);
    SendWhenDurable(slot, slot.sequence, it->second, std::move(update));
    return;
  }
}

void TableService::SendWhenDurable(Slot& slot, int64_t sequence,
                                   const std::shared_ptr<PlaySession>& session,
                                   v1::PlayUpdate update) {
  host_.SendWhenDurable(slot, sequence,
                        [session, update = std::move(update)]() mutable {
                          session->Send(std::move(update));
                        });
}

bool TableService::HasSeatLocked(const Slot& slot, const std::string& player) {
  if (player.empty()) return false;  // kSpectator
  const tables::TableState& state = *slot.state;
  if (state.engine().SeatOf(player).has_value()) return true;
  for (const auto& [id, pending] : state.pending()) {
    if (pending.player == player) return true;
  }
  return false;
}

absl::Status TableService::AdmitLocked(const Slot& slot,
                                       const std::string& viewer) const {
  if (HasSeatLocked(slot, viewer)) return absl::OkStatus();
  // Counted now rather than when each stream opened: a player who sat
  // down since is a player, and one who left is a spectator.
  int spectators = 0;
  for (const auto& [who, n] : slot.watchers) {
    if (!HasSeatLocked(slot, who)) spectators += n;
  }
  for (const auto& [who, session] : slot.players) {
    if (!HasSeatLocked(slot, who)) ++spectators;
  }
  if (spectators < options_.max_spectators_per_table) {
    return absl::OkStatus();
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      "at most ", options_.max_spectators_per_table,
      " spectators' streams per table (a player with a seat here is always "
      "admitted)"));
}

v1::TableView TableService::ViewLocked(const Slot& slot,
                                       const std::string& player) const {
  v1::TableView view = slot.state->ViewFor(player);
  view.set_action_deadline_micros(slot.action_deadline_micros);
  return view;
}

void TableService::PruneActs(Slot& slot) {
  const int64_t oldest = slot.state->hands_started() - 1;
  while (!slot.act_order.empty()) {
    auto it = slot.acts.find(slot.act_order.front());
    if (it != slot.acts.end() && it->second.hand >= oldest) break;
    if (it != slot.acts.end()) slot.acts.erase(it);
    slot.act_order.pop_front();
  }
}

size_t TableService::act_answers(const std::string& table_id) {
  Slot* slot = Find(table_id);
  if (slot == nullptr) return 0;
  absl::MutexLock lock(&slot->mu);
  return slot->acts.size();
}

v1::SeatResponse TableService::SeatOf(const tables::TableState& state,
                                      const std::string& player) const {
  v1::SeatResponse r;
  r.set_table_id(state.id());
  r.set_player_id(player);
  r.set_seat(state.engine().SeatOf(player).value_or(0));
  r.set_stack_minor(state.engine().Stack(player).value_or(0));
  r.set_pending_rebuy_minor(state.WaitingRebuy(player));
  for (const poker::Table::SeatInfo& s : state.engine().Seats()) {
    if (s.player == player) r.set_sitting_out(s.sitting_out);
  }
  return r;
}

grpc::Status TableService::CreateTable(grpc::ServerContext* context,
                                       const v1::CreateTableRequest* request,
                                       v1::TableInfo* response) {
  using Opened = std::pair<v1::TableEvent, std::unique_ptr<tables::TableState>>;
  return host_.CreateTable(
      context, "CreateTable", *request, request->request_id(),
      request->table_id(), request->name(), response,
      [&](const std::string& key,
          const std::string& fingerprint) -> absl::StatusOr<Opened> {
        v1::TableEvent e;
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        e.set_table_id(request->table_id());
        v1::TableCreated* c = e.mutable_table_created();
        c->set_table_id(request->table_id());
        c->set_name(request->name());
        *c->mutable_config() = request->config();
        ASSIGN_OR_RETURN(std::unique_ptr<tables::TableState> state,
                         tables::TableState::Create(*c));
        *c->mutable_config() = state->config();  // defaults filled in
        return Opened(std::move(e), std::move(state));
      });
}

grpc::Status TableService::ListTables(grpc::ServerContext* context,
                                      const v1::ListTablesRequest*,
                                      v1::ListTablesResponse* response) {
  return host_.ListTables(context, response);
}

absl::Status TableService::RepeatedBuyInLocked(Slot& slot,
                                               const std::string& player,
                                               v1::SeatResponse* response) {
  // A retry of a buy-in already logged (after a restart, or after it
  // answered DEADLINE_EXCEEDED): no new saga; the seat, once the player's
  // buy-in is no longer waiting for the wallet.
  for (const auto& [id, pending] : slot.state->pending()) {
    if (pending.player == player) return BuyInUnderWay(id);
  }
  *response = SeatOf(*slot.state, player);
  return absl::OkStatus();
}

absl::StatusOr<std::string> TableService::StartBuyInLocked(
    Slot& slot, const std::string& player, const std::string& key,
    const std::string& fingerprint, int seat, int64_t amount, bool rebuy) {
  ASSIGN_OR_RETURN(v1::TableEvent e, tables::BuyInRequest(*slot.state, player,
                                                          seat, amount, rebuy));
  e.set_request_id(key);
  e.set_request_fingerprint(fingerprint);
  std::string saga_id = e.buy_in_requested().saga_id();
  RETURN_IF_ERROR(CommitLocked(slot, std::move(e)));
  return saga_id;
}

absl::Status TableService::BuyInAnswerLocked(Slot& slot,
                                             const std::string& saga_id,
                                             bool waited,
                                             const std::string& player,
                                             v1::SeatResponse* response) {
  const std::optional<std::string> refused =
      waited ? slot.refusals.Done(saga_id) : std::nullopt;
  if (slot.state->FindSaga(saga_id) != nullptr) return BuyInUnderWay(saga_id);
  if (refused) {
    return absl::FailedPreconditionError(
        absl::StrCat("buy-in refused: ", *refused));
  }
  *response = SeatOf(*slot.state, player);
  return absl::OkStatus();
}

absl::Status BuyInUnderWay(const std::string& saga_id) {
  return absl::DeadlineExceededError(absl::StrCat(
      "the wallet has not answered buy-in ", saga_id,
      " yet; it completes or fails on its own (see GetTableView)"));
}

grpc::Status TableService::BuyIn(grpc::ServerContext* context,
                                 std::string_view method,
                                 const google::protobuf::Message& body,
                                 const std::string& request_id,
                                 const std::string& table_id, int seat,
                                 int64_t amount, bool rebuy,
                                 v1::SeatResponse* response) {
  return host_.Command(
      context, method, request_id, body, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        if (caller.role != auth::Role::kPlayer) {
          return absl::PermissionDeniedError("only a player takes a seat");
        }
        ASSIGN_OR_RETURN(Slot * slot, host_.FindOrNotFound(table_id));
        const std::string player = caller.player_id();
        absl::MutexLock lock(&slot->mu);
        if (repeat) {
          absl::Status s = RepeatedBuyInLocked(*slot, player, response);
          if (s.ok()) WaitDurable(*slot, slot->sequence);
          return s;
        }
        ASSIGN_OR_RETURN(const std::string saga_id,
                         StartBuyInLocked(*slot, player, key, fingerprint, seat,
                                          amount, rebuy));
        // Wait for the wallet (through the log) before answering, unless
        // too many callers wait at this table already.
        const bool waiting = slot->refusals.Wait(saga_id);
        const absl::Time deadline = absl::Now() + options_.sit_wait;
        absl::CondVar answered;
        if (waiting) {
          slot->saga_waits[saga_id] = [&answered] { answered.Signal(); };
        }
        while (waiting && slot->state->FindSaga(saga_id) != nullptr) {
          if (answered.WaitWithDeadline(&slot->mu, deadline)) break;
        }
        slot->saga_waits.erase(saga_id);
        // The request, and the outcome if there is one, are durable before
        // the answer goes out.
        WaitDurable(*slot, slot->sequence);
        return BuyInAnswerLocked(*slot, saga_id, waiting, player, response);
      });
}

grpc::Status TableService::Sit(grpc::ServerContext* context,
                               const v1::SitRequest* request,
                               v1::SeatResponse* response) {
  return BuyIn(context, "Sit", *request, request->request_id(),
               request->table_id(), request->seat(), request->buy_in_minor(),
               false, response);
}

grpc::Status TableService::Rebuy(grpc::ServerContext* context,
                                 const v1::RebuyRequest* request,
                                 v1::SeatResponse* response) {
  return BuyIn(context, "Rebuy", *request, request->request_id(),
               request->table_id(), 0, request->amount_minor(), true, response);
}

grpc::Status TableService::Leave(grpc::ServerContext* context,
                                 const v1::LeaveRequest* request,
                                 v1::LeaveResponse* response) {
  return host_.Command(
      context, "Leave", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool) -> absl::Status {
        RETURN_IF_ERROR(RequirePlayer(caller, "leaves a table"));
        ASSIGN_OR_RETURN(Slot * slot,
                         host_.FindOrNotFound(request->table_id()));
        absl::MutexLock lock(&slot->mu);
        tables::TableState& state = *slot->state;
        response->set_table_id(state.id());
        if (!state.engine().SeatOf(caller.player_id())) {
          if (std::optional<v1::SessionSummary> s =
                  state.Summary(caller.player_id())) {
            response->set_left(true);
            *response->mutable_summary() = *s;
            WaitDurable(*slot, slot->sequence);
            return absl::OkStatus();
          }
          return absl::NotFoundError(
              absl::StrCat(caller.player_id(), " is not seated"));
        }
        const int64_t before =
            state.engine().Stack(caller.player_id()).value_or(0);
        v1::TableEvent e;
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        e.set_table_id(state.id());
        e.mutable_leave_requested()->set_player_id(caller.player_id());
        RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
        const bool left =
            !state.engine().SeatOf(caller.player_id()).has_value();
        response->set_left(left);
        if (left) {
          response->set_cashed_out_minor(before);
          if (std::optional<v1::SessionSummary> s =
                  state.Summary(caller.player_id())) {
            *response->mutable_summary() = *s;
          }
        }
        WaitDurable(*slot, slot->sequence);
        return absl::OkStatus();
      });
}

grpc::Status TableService::SitOut(grpc::ServerContext* context,
                                  const v1::SitOutRequest* request,
                                  v1::SeatResponse* response) {
  return ChangeSitOut(context, "SitOut", *request, request->request_id(),
                      request->table_id(), true, response);
}

grpc::Status TableService::SitIn(grpc::ServerContext* context,
                                 const v1::SitInRequest* request,
                                 v1::SeatResponse* response) {
  return ChangeSitOut(context, "SitIn", *request, request->request_id(),
                      request->table_id(), false, response);
}

grpc::Status TableService::ChangeSitOut(
    grpc::ServerContext* context, std::string_view method,
    const google::protobuf::Message& body, const std::string& request_id,
    const std::string& table_id, bool sitting_out, v1::SeatResponse* response) {
  return host_.Command(
      context, method, request_id, body, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(
            RequirePlayer(caller, sitting_out ? "sits out" : "sits back in"));
        ASSIGN_OR_RETURN(Slot * slot, host_.FindOrNotFound(table_id));
        absl::MutexLock lock(&slot->mu);
        if (!repeat) {
          v1::TableEvent e;
          e.set_request_id(key);
          e.set_request_fingerprint(fingerprint);
          e.set_table_id(table_id);
          v1::SitOutChanged* change = e.mutable_sit_out_changed();
          change->set_player_id(caller.player_id());
          change->set_sitting_out(sitting_out);
          // A rest's start times its limit (HE-68).
          if (sitting_out) change->set_at_micros(clock_.NowMicros());
          RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
        }
        *response = SeatOf(*slot->state, caller.player_id());
        WaitDurable(*slot, slot->sequence);
        return absl::OkStatus();
      });
}

absl::StatusOr<poker::Action> CheckAct(const auth::Claims& caller,
                                       const v1::ActRequest& request) {
  if (!ledger::IsValidRequestId(request.request_id())) {
    return absl::InvalidArgumentError(
        "request_id must be 1-128 printable characters without spaces");
  }
  if (caller.role != auth::Role::kPlayer) {
    return absl::PermissionDeniedError("only a player acts");
  }
  return tables::ActionFromProto(request.action(), request.amount_minor());
}

absl::Status TableService::DecideActLocked(Slot& slot,
                                           const auth::Claims& caller,
                                           const v1::ActRequest& request,
                                           v1::TableView* response,
                                           int64_t* sequence) {
  std::string key = absl::StrCat(caller.subject, ":", request.request_id());
  std::string fingerprint = RequestFingerprint("Act", request, caller.subject);
  if (auto it = slot.acts.find(key); it != slot.acts.end()) {
    // A retry inside the window: the first answer, once it is durable.
    const ActAnswer& first = it->second;
    if (first.fingerprint != fingerprint) {
      return absl::AlreadyExistsError(
          absl::StrCat("request_id ", request.request_id(),
                       " was used for another request"));
    }
    if (response == nullptr) {
      *sequence = first.sequence;
    } else if (first.response) {
      *response = *first.response;
      *sequence = first.sequence;
    } else {  // decided before a restart, or through Play
      *response = ViewLocked(slot, caller.player_id());
      *sequence = slot.sequence;
    }
    return absl::OkStatus();
  }
  v1::TableEvent e;
  e.set_request_id(key);
  e.set_request_fingerprint(fingerprint);
  e.set_table_id(request.table_id());
  v1::ActionApplied* a = e.mutable_action_applied();
  a->set_hand_number(request.hand_number());
  a->set_player_id(caller.player_id());
  a->set_action(request.action());
  a->set_amount_minor(request.amount_minor());
  RETURN_IF_ERROR(CommitLocked(slot, std::move(e)));
  *sequence = slot.sequence;
  std::optional<v1::TableView> kept;
  if (response != nullptr) {
    *response = ViewLocked(slot, caller.player_id());
    kept = *response;
  }
  slot.acts.insert(
      {key, ActAnswer{std::move(fingerprint), request.hand_number(),
                      slot.sequence, std::move(kept)}});
  slot.act_order.push_back(std::move(key));
  PruneActs(slot);
  return absl::OkStatus();
}

absl::StatusOr<auth::Claims> TableService::Verify(
    const std::string& token) const {
  return options_.verifier.Verify(token, clock_.NowMicros() / 1'000'000);
}

absl::Status TableService::Serving() const {
  if (!closing_plays_) return absl::OkStatus();
  return absl::UnavailableError("the table service is stopping");
}

void TableService::RelayOpened(RelayStream* relay) {
  absl::MutexLock lock(&relays_mu_);
  relays_.insert(relay);
}

void TableService::RelayDone(RelayStream* relay) {
  absl::MutexLock lock(&relays_mu_);
  relays_.erase(relay);
}

grpc::ServerBidiReactor<v1::PlayRequest, v1::PlayUpdate>* TableService::Play(
    grpc::CallbackServerContext* context) {
  return PlayStream::Open(*this, context);
}

grpc::ServerBidiReactor<v1::RelayRequest, v1::RelayUpdate>* TableService::Relay(
    grpc::CallbackServerContext* context) {
  return RelayStream::Open(*this, context);
}

grpc::ServerUnaryReactor* TableService::Act(
    grpc::CallbackServerContext* context, const v1::ActRequest* request,
    v1::TableView* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto fail = [reactor](const absl::Status& s) {
    reactor->Finish(edge::ToGrpcStatus(s));
    return reactor;
  };
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return fail(caller.status());
  if (absl::StatusOr<poker::Action> action = CheckAct(*caller, *request);
      !action.ok()) {
    return fail(action.status());
  }
  absl::StatusOr<Slot*> found = host_.FindOrNotFound(request->table_id());
  if (!found.ok()) return fail(found.status());
  Slot* slot = *found;
  std::vector<grpc::ServerUnaryReactor*> now;
  {
    absl::MutexLock lock(&slot->mu);
    int64_t sequence = 0;
    if (absl::Status s =
            DecideActLocked(*slot, *caller, *request, response, &sequence);
        !s.ok()) {
      return fail(s);
    }
    ReplyWhenDurable(*slot, sequence, reactor, &now);
  }
  for (grpc::ServerUnaryReactor* r : now) r->Finish(grpc::Status::OK);
  return reactor;
}

grpc::Status TableService::VoidHand(grpc::ServerContext* context,
                                    const v1::VoidHandRequest* request,
                                    v1::TableInfo* response) {
  return host_.VoidCommand(
      context, "VoidHand", *request, request->request_id(), request->table_id(),
      request->reason(), "a hand", response,
      [&](Slot& slot, const std::string& key,
          const std::string& fingerprint) -> absl::StatusOr<v1::TableEvent> {
        if (!slot.state->engine().in_hand()) {
          return absl::FailedPreconditionError("no hand in progress");
        }
        v1::TableEvent e;
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        e.set_table_id(request->table_id());
        e.mutable_hand_void_requested()->set_hand_number(
            slot.state->hands_started());
        e.mutable_hand_void_requested()->set_reason(request->reason());
        return e;
      },
      [this](Slot& slot, v1::TableEvent e) {
        return CommitLocked(slot, std::move(e));
      });
}

grpc::ServerUnaryReactor* TableService::GetTableView(
    grpc::CallbackServerContext* context, const v1::WatchTableRequest* request,
    v1::TableView* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) {
    reactor->Finish(edge::ToGrpcStatus(caller.status()));
    return reactor;
  }
  absl::StatusOr<Slot*> found = host_.FindOrNotFound(request->table_id());
  if (!found.ok()) {
    reactor->Finish(edge::ToGrpcStatus(found.status()));
    return reactor;
  }
  Slot* slot = *found;
  std::vector<grpc::ServerUnaryReactor*> now;
  {
    absl::MutexLock lock(&slot->mu);
    *response = ViewLocked(*slot, ViewerOf(*caller));
    // Sent once everything it shows is durable.
    ReplyWhenDurable(*slot, slot->sequence, reactor, &now);
  }
  for (grpc::ServerUnaryReactor* r : now) r->Finish(grpc::Status::OK);
  return reactor;
}

grpc::Status TableService::WatchTable(
    grpc::ServerContext* context, const v1::WatchTableRequest* request,
    grpc::ServerWriter<v1::TableView>* writer) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  absl::StatusOr<Slot*> found = host_.FindOrNotFound(request->table_id());
  if (!found.ok()) return edge::ToGrpcStatus(found.status());
  Slot* slot = *found;
  const std::string viewer = ViewerOf(*caller);
  absl::StatusOr<CallerStreams::Ticket> ticket =
      host_.watch_streams().Open(caller->subject);
  if (!ticket.ok()) return edge::ToGrpcStatus(ticket.status());
  {
    absl::MutexLock lock(&slot->mu);
    if (absl::Status s = AdmitLocked(*slot, viewer); !s.ok()) {
      return edge::ToGrpcStatus(s);
    }
    ++slot->watchers[viewer];
  }
  int64_t sent = -1;
  while (!context->IsCancelled() && !host_.stopping()) {
    v1::TableView view;
    {
      absl::MutexLock lock(&slot->mu);
      // Only what is durable is shown (see GetTableView).
      auto nothing_new = [&] {
        return slot->state->version() == sent ||
               slot->durable_sequence < slot->sequence;
      };
      if (nothing_new()) {
        slot->changed.WaitWithTimeout(&slot->mu, absl::Milliseconds(500));
        if (nothing_new()) continue;
      }
      view = ViewLocked(*slot, viewer);
      sent = slot->state->version();
    }
    if (!writer->Write(view)) break;
  }
  absl::MutexLock lock(&slot->mu);
  if (auto it = slot->watchers.find(viewer);
      it != slot->watchers.end() && --it->second <= 0) {
    slot->watchers.erase(it);
  }
  return grpc::Status::OK;
}

grpc::Status TableService::GetLastHand(grpc::ServerContext* context,
                                       const v1::GetLastHandRequest* request,
                                       v1::LastHandResponse* response) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  // A hand's record with the caller's cards is a player's own; operators
  // and auditors read every hand from the log (`banca hands export`).
  if (absl::Status s = RequirePlayer(*caller, "reads its last hand"); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  absl::StatusOr<Slot*> found = host_.FindOrNotFound(request->table_id());
  if (!found.ok()) return edge::ToGrpcStatus(found.status());
  Slot* slot = *found;
  absl::MutexLock lock(&slot->mu);
  // Only what is durable is shown (see GetTableView): the answer is read
  // once the log has caught up with the table.
  while (slot->durable_sequence < slot->sequence) {
    slot->changed.Wait(&slot->mu);
  }
  std::optional<poker::LastHand> last =
      slot->state->engine().LastHandOf(caller->player_id());
  if (!last) {
    return edge::ToGrpcStatus(absl::NotFoundError(
        absl::StrCat(caller->player_id(), " has played no hand here")));
  }
  response->set_table_id(request->table_id());
  response->set_hand_number(last->hand_number);
  response->set_seat(last->mine.seat);
  response->set_start_stack_minor(last->mine.start_stack);
  response->set_end_stack_minor(last->mine.end_stack);
  response->set_bet_minor(last->mine.bet);
  response->set_won_minor(last->mine.won);
  response->set_folded(last->mine.folded);
  response->set_voided(last->result->voided);
  for (const std::string& c : wire::CardsToStrings(last->result->board)) {
    response->add_board(c);
  }
  for (const poker::PotResult& pot : last->result->pots) {
    v1::PotView* p = response->add_pots();
    p->set_amount_minor(pot.amount);
    p->set_rake_minor(pot.rake);
    for (const poker::SeatAmount& share : pot.shares) {
      p->add_winner_seats(share.seat);
      p->add_share_minor(share.amount);
    }
  }
  return grpc::Status::OK;
}

grpc::Status TableService::GetSessionSummary(
    grpc::ServerContext* context, const v1::GetSessionSummaryRequest* request,
    v1::SessionSummary* response) {
  absl::StatusOr<auth::Claims> caller = host_.Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  if (absl::Status s = RequirePlayer(*caller, "reads its session summary");
      !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  absl::StatusOr<Slot*> found = host_.FindOrNotFound(request->table_id());
  if (!found.ok()) return edge::ToGrpcStatus(found.status());
  Slot* slot = *found;
  absl::MutexLock lock(&slot->mu);
  while (slot->durable_sequence < slot->sequence) {
    slot->changed.Wait(&slot->mu);
  }
  std::optional<v1::SessionSummary> s =
      slot->state->Summary(caller->player_id());
  if (!s) {
    return edge::ToGrpcStatus(absl::NotFoundError(
        absl::StrCat(caller->player_id(), " has no session here")));
  }
  *response = *s;
  return grpc::Status::OK;
}

void TableService::Tick() {
  for (Slot* slot : host_.Tables()) TickSlot(*slot);
}

void TableService::TickSlot(Slot& slot) {
  absl::MutexLock lock(&slot.mu);
  tables::TableState& state = *slot.state;
  const int64_t now = clock_.NowMicros();
  // Buy-ins the wallet has not answered in time.
  for (v1::TableEvent& e : host_.ExpiredSagasLocked(slot, now)) {
    if (absl::Status s = CommitLocked(slot, std::move(e)); !s.ok()) {
      Log(LogLevel::kError, "table", "saga timeout not committed",
          {{"table", state.id()}, {"error", s.message()}});
    }
  }
  EndRestsLocked(slot, now);

  const poker::Hand* hand = state.engine().hand();
  if (state.engine().in_hand() && hand != nullptr) {
    // HE-45: the decision timer restarts whenever the turn moves.
    if (slot.timer_hand != state.hands_started() ||
        slot.timer_actions != hand->actions().size() ||
        slot.action_deadline_micros == 0) {
      slot.timer_hand = state.hands_started();
      slot.timer_actions = hand->actions().size();
      slot.action_deadline_micros =
          now + int64_t{state.config().action_seconds()} * 1'000'000;
    } else if (now >= slot.action_deadline_micros) {
      std::optional<int> seat = hand->to_act();
      std::string player;
      for (const poker::Table::SeatInfo& s : state.engine().Seats()) {
        if (seat && s.seat == *seat) player = s.player;
      }
      const int extra = state.config().extra_time_seconds();
      if (!player.empty()) {
        v1::TableEvent e;
        e.set_table_id(state.id());
        if (extra > 0 && !state.engine().DecisionExtended()) {
          // HE-44: the table's extra time first, once per decision; the
          // turn stays the same, so the timer does not restart.
          v1::DecisionTimeExtended* x = e.mutable_decision_time_extended();
          x->set_hand_number(state.hands_started());
          x->set_player_id(player);
          x->set_seconds(extra);
          slot.action_deadline_micros = now + int64_t{extra} * 1'000'000;
        } else {
          // HE-45 (after HE-44's extra time, if any): check, else fold.
          v1::ActionApplied* a = e.mutable_action_applied();
          a->set_hand_number(state.hands_started());
          a->set_player_id(player);
          a->set_timeout(true);
          slot.action_deadline_micros = 0;
        }
        if (absl::Status s = CommitLocked(slot, std::move(e)); !s.ok()) {
          Log(LogLevel::kError, "table", "decision timeout not committed",
              {{"table", state.id()}, {"error", s.message()}});
        }
      }
    }
    return;
  }
  slot.action_deadline_micros = 0;
  if (!state.CanStartHand()) {
    slot.hand_due_micros = 0;
    return;
  }
  if (slot.hand_due_micros == 0) {
    slot.hand_due_micros =
        now + int64_t{state.config().hand_interval_ms()} * 1000;
  }
  if (now < slot.hand_due_micros) return;
  slot.hand_due_micros = 0;
  absl::StatusOr<v1::TableEvent> e = NewHand(slot);
  if (!e.ok()) return;
  if (absl::Status s = CommitLocked(slot, std::move(*e)); !s.ok()) {
    Log(LogLevel::kError, "table", "hand start not committed",
        {{"table", state.id()}, {"error", s.message()}});
  }
}

void TableService::EndRestsLocked(Slot& slot, int64_t now) {
  tables::TableState& state = *slot.state;
  for (const auto& [player, ends] : state.RestEnds()) {
    if (now < ends) continue;
    bool leaving = false;
    for (const poker::Table::SeatInfo& s : state.engine().Seats()) {
      if (s.player == player) leaving = s.leaving;
    }
    if (leaving) continue;  // asked already; leaves when the hand ends
    // HE-68: the operator's rest limit passed; the player leaves with the
    // stack as by Leave (HE-10), told why in their view.
    v1::TableEvent e;
    e.set_table_id(state.id());
    e.mutable_leave_requested()->set_player_id(player);
    e.mutable_leave_requested()->set_reason(v1::LEAVE_REASON_REST_OVER);
    if (absl::Status s = CommitLocked(slot, std::move(e)); !s.ok()) {
      Log(LogLevel::kError, "table", "rest limit leave not committed",
          {{"table", state.id()}, {"error", s.message()}});
    }
  }
}

absl::StatusOr<int> TableService::PollWalletOutcomes() {
  return host_.PollWalletOutcomes();
}

absl::StatusOr<bool> TableService::HandleOutcome(
    const v1::WalletEvent& event, TableHost<PokerGame>::Appended* appended) {
  if (!absl::StartsWith(event.request_id(), "table/") ||
      !wire::MadeByTheWallet(event)) {
    return false;
  }
  const bool captured = event.has_hold_captured();
  if (!captured && !event.has_request_rejected()) return false;
  std::string player;
  int64_t captured_minor = 0;
  std::string rejection;
  if (captured) {
    player = event.hold_captured().player_id();
    captured_minor = event.hold_captured().amount_minor();
  } else {
    rejection = absl::StrCat(event.request_rejected().code(), ": ",
                             event.request_rejected().message());
    player = event.request_rejected().player_id();
  }
  const std::string& request_id = event.request_id();
  std::string table_id, saga_id, step;
  if (!ParseSagaRequest(request_id, &table_id, &saga_id, &step)) {
    return true;  // not a buy-in step
  }
  // The seat capture finishes a saga; a refused hold (or capture) fails it.
  if (captured && step != "seat") return true;
  Slot* slot = Find(table_id);
  if (slot == nullptr) return true;
  absl::MutexLock lock(&slot->mu);
  tables::TableState& state = *slot->state;
  const tables::PendingBuyIn* pending = state.FindSaga(saga_id);
  const tables::TableState::EndedSaga* ended = state.Ended(saga_id);
  const tables::PendingBuyIn* known = pending != nullptr ? pending
                                      : ended != nullptr ? &ended->buy_in
                                                         : nullptr;
  if (known != nullptr &&
      !OutcomeFits(*known, player, captured, captured_minor)) {
    Log(LogLevel::kError, "table",
        "wallet outcome does not fit its saga; ignored",
        {{"request_id", request_id}});
    return true;
  }
  v1::TableEvent e;
  e.set_table_id(table_id);
  if (pending != nullptr) {
    if (captured) {
      e.mutable_buy_in_completed()->set_saga_id(saga_id);
    } else {
      e.mutable_buy_in_failed()->set_saga_id(saga_id);
      e.mutable_buy_in_failed()->set_reason(rejection);
      slot->refusals.Refused(saga_id, rejection);
    }
  } else if (captured && ended != nullptr &&
             ended->end == tables::TableState::SagaEnd::kFailed) {
    // A capture that came after the table gave up: paid back once.
    e = tables::Compensation(table_id, ended->buy_in);
  } else {
    return true;  // a repeat, already handled
  }
  RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
  // Durable before the reader commits its position past the outcome.
  appended->emplace_back(slot, slot->sequence);
  return true;
}

}  // namespace banca::table
