#include "services/table/table_service.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/cards/showdown.h"
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
#include "services/table/host_runtime.h"
#include "services/table/idempotent_command.h"
#include "services/table/play_stream.h"
#include "services/table/relay_stream.h"
#include "services/table/table_caller.h"

namespace banca::table {
namespace poker = games::poker;
namespace {

constexpr char kOutcomeGroup[] = "table.buy-in-outcomes";
constexpr size_t kReadBatch = 512;
// VoidHand's reason, as logged.
constexpr size_t kMaxVoidReasonBytes = 256;

[[noreturn]] void DieOnLogFailure(const absl::Status& s) {
  eventlog::StopOnLogFailure("table", "append", s);
}

absl::Status CheckTableId(const std::string& id) {
  if (!wire::IsValidTableId(id)) {
    return absl::InvalidArgumentError("table_id must be 1-32 of [a-z0-9-]");
  }
  return absl::OkStatus();
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
    : log_(log),
      clock_(clock),
      options_(std::move(options)),
      watch_streams_(options_.max_watch_streams_per_caller,
                     "WatchTable streams") {}

absl::StatusOr<std::unique_ptr<TableService>> TableService::Start(
    eventlog::EventLog& log, const Clock& clock, TableServiceOptions options) {
  RETURN_IF_ERROR(PrepareHostTopics(log, wire::kTableTopic,
                                    wire::kTableRequestsTopic, options));
  std::unique_ptr<TableService> service(
      new TableService(log, clock, std::move(options)));
  RETURN_IF_ERROR(service->Replay());
  {
    absl::MutexLock lock(&service->outcomes_mu_);
    ASSIGN_OR_RETURN(
        service->wallet_offsets_,
        WalletOutcomePositions(log, kOutcomeGroup,
                               service->options_.wallet_partitions));
  }
  TableService* self = service.get();
  self->loops_.Every(self->options_.tick_interval, [self] { self->Tick(); });
  self->loops_.Every(self->options_.poll_interval,
                     [self] { self->PollStep(); });
  return service;
}

TableService::~TableService() { Stop(); }

void TableService::BeginShutdown() {
  closing_plays_ = true;
  const grpc::Status stopping(grpc::StatusCode::UNAVAILABLE,
                              "the table service is stopping");
  std::vector<std::shared_ptr<PlaySession>> open;
  {
    absl::MutexLock lock(&tables_mu_);
    for (auto& [id, slot] : tables_) {
      absl::MutexLock slot_lock(&slot->mu);
      for (auto& [player, session] : slot->players) open.push_back(session);
    }
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
  loops_.Stop();
  // The log calls back into the tables: wait for what is queued.
  WaitForAppends(in_flight_);
}

void TableService::PollStep() {
  absl::StatusOr<int> handled = PollWalletOutcomes();
  if (!handled.ok() && !absl::IsUnavailable(handled.status()) &&
      !absl::IsDeadlineExceeded(handled.status())) {
    std::fprintf(stderr, "banca table: wallet outcomes: %s\n",
                 std::string(handled.status().message()).c_str());
  }
}

absl::Status TableService::Replay() {
  const int64_t now = clock_.NowMicros();
  for (int p = 0; p < options_.partitions; ++p) {
    absl::StatusOr<int64_t> end = log_.EndOffset(wire::kTableTopic, p);
    if (!end.ok()) return end.status();
    int64_t offset = 0;
    while (offset < *end) {
      absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
          log_.Read(wire::kTableTopic, p, offset, kReadBatch);
      if (!records.ok()) return records.status();
      if (records->empty()) break;
      for (const eventlog::StoredRecord& record : *records) {
        offset = record.offset + 1;
        absl::StatusOr<wire::DecodedTableEvent> decoded =
            wire::DecodeTableRecord(record);
        if (!decoded.ok()) return decoded.status();
        const std::string where =
            absl::StrCat(decoded->envelope.event_id(), ": ");
        if (absl::Status s =
                tables::OpenDeal(options_.deck_keys, decoded->event);
            !s.ok()) {
          return absl::Status(s.code(), absl::StrCat(where, s.message()));
        }
        const v1::TableEvent& event = decoded->event;
        Slot* slot = nullptr;
        if (event.has_table_created()) {
          absl::StatusOr<std::unique_ptr<tables::TableState>> state =
              tables::TableState::Create(event.table_created());
          if (!state.ok()) {
            return absl::DataLossError(
                absl::StrCat(where, state.status().message()));
          }
          auto fresh = std::make_unique<Slot>();
          fresh->state = std::move(*state);
          absl::MutexLock lock(&tables_mu_);
          slot = fresh.get();
          tables_[event.table_id()] = std::move(fresh);
        } else {
          slot = Find(event.table_id());
          if (slot == nullptr) {
            return absl::DataLossError(
                absl::StrCat(where, "event of an unknown table"));
          }
          absl::MutexLock lock(&slot->mu);
          std::vector<v1::TableEvent> derived;  // already in the log
          if (absl::Status s = slot->state->Apply(event, &derived); !s.ok()) {
            return absl::DataLossError(absl::StrCat(
                where,
                "the engine does not accept the logged event: ", s.message()));
          }
        }
        absl::MutexLock lock(&slot->mu);
        if (static_cast<int64_t>(decoded->envelope.sequence()) !=
            slot->sequence + 1) {
          return absl::DataLossError(
              absl::StrCat(where, "sequence gap after ", slot->sequence));
        }
        slot->sequence = static_cast<int64_t>(decoded->envelope.sequence());
        if (event.has_buy_in_requested()) {
          slot->saga_started_micros[event.buy_in_requested().saga_id()] = now;
        }
        slot->durable_sequence = slot->sequence;
        if (event.has_action_applied() && !event.request_id().empty()) {
          if (slot->acts
                  .insert({event.request_id(),
                           ActAnswer{event.request_fingerprint(),
                                     event.action_applied().hand_number(),
                                     slot->sequence, std::nullopt}})
                  .second) {
            slot->act_order.push_back(event.request_id());
          }
          PruneActs(*slot);
        } else if (!event.request_id().empty()) {
          idempotency_.Restore(event.request_id(), event.request_fingerprint(),
                               "");
        }
        ++replayed_events_;
      }
    }
  }
  absl::MutexLock lock(&tables_mu_);
  for (auto& [id, slot] : tables_) {
    absl::StatusOr<std::unique_ptr<cards::SystemRandomSource>> rng =
        cards::SystemRandomSource::Create();
    if (!rng.ok()) return rng.status();
    slot->rng = std::move(*rng);
  }
  return absl::OkStatus();
}

TableService::Slot* TableService::Find(const std::string& table_id) {
  absl::MutexLock lock(&tables_mu_);
  auto it = tables_.find(table_id);
  return it == tables_.end() ? nullptr : it->second.get();
}

absl::StatusOr<v1::TableEvent> TableService::NewHand(Slot& slot) {
  const tables::TableState& state = *slot.state;
  absl::StatusOr<std::vector<cards::Card>> deck =
      cards::ShuffledDeck(*slot.rng);
  if (!deck.ok()) return deck.status();
  int draw = 0;
  if (state.engine().NeedsButtonDraw()) {
    const size_t eligible = state.engine().EligibleSeats().size();
    draw = static_cast<int>(
        cards::UniformInt(*slot.rng, static_cast<uint32_t>(eligible)));
  }
  v1::TableEvent e = tables::HandStart(state, *deck, draw);
  RETURN_IF_ERROR(tables::SealDeal(options_.deck_keys, e));
  return e;
}

absl::Status TableService::CommitLocked(Slot& slot, v1::TableEvent event) {
  // Checked before the table applies it: the events it derives are the
  // table's own, bounded by its seats.
  if (absl::Status s = edge::CheckEventSize(event); !s.ok()) return s;
  tables::TableState& state = *slot.state;
  std::vector<v1::TableEvent> batch;
  std::vector<v1::TableEvent> derived;
  RETURN_IF_ERROR(state.Apply(event, &derived));
  const bool started_hand = event.has_hand_started();
  batch.push_back(std::move(event));
  for (v1::TableEvent& d : derived) batch.push_back(std::move(d));
  // With no pause between hands the next one is dealt in the same batch.
  if (!started_hand && slot.state->config().hand_interval_ms() == 0 &&
      state.CanStartHand()) {
    absl::StatusOr<v1::TableEvent> hand = NewHand(slot);
    if (!hand.ok()) return hand.status();
    std::vector<v1::TableEvent> more;
    if (absl::Status s = state.Apply(*hand, &more); !s.ok()) {
      DieOnLogFailure(absl::InternalError(
          absl::StrCat("a fresh hand did not start: ", s.message())));
    }
    batch.push_back(std::move(*hand));
    for (v1::TableEvent& d : more) batch.push_back(std::move(d));
  }
  wire::TableEventContext ctx;
  ctx.producer = options_.producer;
  ctx.occurred_at_micros = clock_.NowMicros();
  ctx.correlation_id = batch.front().request_id();
  std::vector<eventlog::Record> records;
  records.reserve(batch.size());
  std::vector<std::string> noticed;  // players given a session notice
  for (v1::TableEvent& e : batch) {
    tables::DropClearDeck(e);  // applied in clear above, logged sealed
    if (e.has_session_notice() && !slot.players.empty()) {
      noticed.push_back(e.session_notice().player_id());
    }
    if (e.has_buy_in_requested()) {
      slot.saga_started_micros[e.buy_in_requested().saga_id()] =
          ctx.occurred_at_micros;
    }
    // The wallet's copy of a money request rides in the same batch.
    wire::AppendTableRecords(e, ++slot.sequence, ctx, &records);
  }
  const int64_t last = slot.sequence;
  ++in_flight_;
  // The callback runs on the log's completion thread (it may run before
  // AppendAsync returns only for a refused batch, which stops the process
  // before it takes any lock).
  log_.AppendAsync(std::move(records), {},
                   [this, &slot, last](absl::Status status,
                                       std::vector<eventlog::Position>) {
                     if (!status.ok()) DieOnLogFailure(status);
                     Durable(slot, last);
                   });
  slot.changed.SignalAll();
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
  if (slot.play_waiters.empty() && slot.durable_sequence >= sequence) {
    session->Send(std::move(update));
  } else {
    slot.play_waiters.push_back({sequence, session, std::move(update)});
  }
}

void TableService::Durable(Slot& slot, int64_t sequence) {
  std::vector<grpc::ServerUnaryReactor*> ready;
  {
    absl::MutexLock lock(&slot.mu);
    // One table is one key, so one partition: its batches become durable
    // in the order they were queued.
    if (sequence > slot.durable_sequence) slot.durable_sequence = sequence;
    while (!slot.waiters.empty() &&
           slot.waiters.front().sequence <= slot.durable_sequence) {
      ready.push_back(slot.waiters.front().reactor);
      slot.waiters.pop_front();
    }
    // Sent under the lock, so that no update overtakes one queued before
    // it (Send only queues a write).
    while (!slot.play_waiters.empty() &&
           slot.play_waiters.front().sequence <= slot.durable_sequence) {
      PlayWaiter& w = slot.play_waiters.front();
      w.session->Send(std::move(w.update));
      slot.play_waiters.pop_front();
    }
    slot.changed.SignalAll();
  }
  for (grpc::ServerUnaryReactor* reactor : ready) {
    reactor->Finish(grpc::Status::OK);
  }
  --in_flight_;
}

void TableService::WaitDurable(Slot& slot, int64_t sequence) {
  while (slot.durable_sequence < sequence) slot.changed.Wait(&slot.mu);
}

void TableService::ReplyWhenDurable(
    Slot& slot, int64_t sequence, grpc::ServerUnaryReactor* reactor,
    std::vector<grpc::ServerUnaryReactor*>* now) {
  if (slot.durable_sequence >= sequence) {
    now->push_back(reactor);
  } else {
    slot.waiters.push_back({sequence, reactor});
  }
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

absl::StatusOr<auth::Claims> TableService::Caller(
    const grpc::ServerContextBase* context) const {
  return edge::AuthenticateBearer(context, options_.verifier,
                                  clock_.NowMicros() / 1'000'000);
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

// Authenticates, claims the request id (namespaced by the caller), runs
// `run(claims, key, fingerprint)` and remembers its response for retries.
template <typename Response, typename Run>
grpc::Status TableService::Command(grpc::ServerContext* context,
                                   std::string_view method,
                                   const std::string& request_id,
                                   const google::protobuf::Message& body,
                                   Response* response, Run run) {
  // A buy-in the wallet has not answered in time is still on its way: a
  // retry must not start a second saga (BuyIn answers it from the state).
  return RunIdempotentCommand(idempotency_, Caller(context), method, request_id,
                              body, response, std::move(run),
                              /*keep_undecided=*/true);
}

grpc::Status TableService::CreateTable(grpc::ServerContext* context,
                                       const v1::CreateTableRequest* request,
                                       v1::TableInfo* response) {
  return Command(
      context, "CreateTable", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        if (caller.role != auth::Role::kOperator) {
          return absl::PermissionDeniedError(
              "creating tables needs the operator role");
        }
        if (absl::Status s = CheckTableId(request->table_id()); !s.ok()) {
          return s;
        }
        if (request->name().size() > 128) {
          return absl::InvalidArgumentError("name must be at most 128 bytes");
        }
        if (repeat) {
          Slot* slot = Find(request->table_id());
          if (slot == nullptr) return absl::NotFoundError("no such table");
          absl::MutexLock lock(&slot->mu);
          *response = slot->state->Info();
          return absl::OkStatus();
        }
        v1::TableEvent e;
        e.set_request_id(key);
        e.set_request_fingerprint(fingerprint);
        e.set_table_id(request->table_id());
        v1::TableCreated* c = e.mutable_table_created();
        c->set_table_id(request->table_id());
        c->set_name(request->name());
        *c->mutable_config() = request->config();
        absl::StatusOr<std::unique_ptr<tables::TableState>> state =
            tables::TableState::Create(*c);
        if (!state.ok()) return state.status();
        *c->mutable_config() = (*state)->config();  // defaults filled in
        RETURN_IF_ERROR(edge::CheckEventSize(e));
        absl::StatusOr<std::unique_ptr<cards::SystemRandomSource>> rng =
            cards::SystemRandomSource::Create();
        if (!rng.ok()) return rng.status();
        absl::MutexLock tables_lock(&tables_mu_);
        if (tables_.contains(request->table_id())) {
          return absl::AlreadyExistsError(
              absl::StrCat("table ", request->table_id(), " exists"));
        }
        if (static_cast<int>(tables_.size()) >= options_.max_tables) {
          return absl::ResourceExhaustedError("table limit reached");
        }
        auto slot = std::make_unique<Slot>();
        slot->state = std::move(*state);
        slot->rng = std::move(*rng);
        wire::TableEventContext ctx;
        ctx.producer = options_.producer;
        ctx.correlation_id = key;
        ctx.occurred_at_micros = clock_.NowMicros();
        absl::StatusOr<std::vector<eventlog::Position>> appended =
            log_.Append({wire::EncodeTableRecord(e, ++slot->sequence, ctx)});
        if (!appended.ok()) DieOnLogFailure(appended.status());
        slot->durable_sequence = slot->sequence;
        *response = slot->state->Info();
        tables_[request->table_id()] = std::move(slot);
        return absl::OkStatus();
      });
}

grpc::Status TableService::ListTables(grpc::ServerContext* context,
                                      const v1::ListTablesRequest*,
                                      v1::ListTablesResponse* response) {
  if (absl::StatusOr<auth::Claims> c = Caller(context); !c.ok()) {
    return edge::ToGrpcStatus(c.status());
  }
  std::vector<Slot*> slots;
  {
    absl::MutexLock lock(&tables_mu_);
    for (auto& [id, slot] : tables_) slots.push_back(slot.get());
  }
  for (Slot* slot : slots) {
    absl::MutexLock lock(&slot->mu);
    *response->add_tables() = slot->state->Info();
  }
  return grpc::Status::OK;
}

absl::Status TableService::RepeatedBuyInLocked(Slot& slot,
                                               const std::string& player,
                                               v1::SeatResponse* response) {
  // A retry of a buy-in already logged (after a restart, or after it
  // answered DEADLINE_EXCEEDED): no new saga; the seat, once the player's
  // buy-in is no longer waiting for the wallet.
  for (const auto& [id, pending] : slot.state->pending()) {
    if (pending.player == player) return SagaUnderWay(id);
  }
  *response = SeatOf(*slot.state, player);
  return absl::OkStatus();
}

absl::StatusOr<std::string> TableService::StartBuyInLocked(
    Slot& slot, const std::string& player, const std::string& key,
    const std::string& fingerprint, int seat, int64_t amount, bool rebuy) {
  absl::StatusOr<v1::TableEvent> e =
      tables::BuyInRequest(*slot.state, player, seat, amount, rebuy);
  if (!e.ok()) return e.status();
  e->set_request_id(key);
  e->set_request_fingerprint(fingerprint);
  std::string saga_id = e->buy_in_requested().saga_id();
  RETURN_IF_ERROR(CommitLocked(slot, *std::move(e)));
  return saga_id;
}

absl::Status TableService::BuyInAnswerLocked(Slot& slot,
                                             const std::string& saga_id,
                                             bool waited,
                                             const std::string& player,
                                             v1::SeatResponse* response) {
  const std::optional<std::string> refused =
      waited ? slot.refusals.Done(saga_id) : std::nullopt;
  if (slot.state->FindSaga(saga_id) != nullptr) return SagaUnderWay(saga_id);
  if (refused) {
    return absl::FailedPreconditionError(
        absl::StrCat("buy-in refused: ", *refused));
  }
  *response = SeatOf(*slot.state, player);
  return absl::OkStatus();
}

absl::Status TableService::SagaUnderWay(const std::string& saga_id) {
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
  return Command(
      context, method, request_id, body, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        if (caller.role != auth::Role::kPlayer) {
          return absl::PermissionDeniedError("only a player takes a seat");
        }
        RETURN_IF_ERROR(CheckTableId(table_id));
        Slot* slot = Find(table_id);
        if (slot == nullptr) {
          return absl::NotFoundError(absl::StrCat("no table ", table_id));
        }
        const std::string player = caller.player_id();
        absl::MutexLock lock(&slot->mu);
        if (repeat) {
          absl::Status s = RepeatedBuyInLocked(*slot, player, response);
          if (s.ok()) WaitDurable(*slot, slot->sequence);
          return s;
        }
        absl::StatusOr<std::string> saga_id = StartBuyInLocked(
            *slot, player, key, fingerprint, seat, amount, rebuy);
        if (!saga_id.ok()) return saga_id.status();
        // Wait for the wallet (through the log) before answering, unless
        // too many callers wait at this table already.
        const bool waiting = slot->refusals.Wait(*saga_id);
        const absl::Time deadline = absl::Now() + options_.sit_wait;
        absl::CondVar answered;
        if (waiting) {
          slot->saga_waits[*saga_id] = [&answered] { answered.Signal(); };
        }
        while (waiting && slot->state->FindSaga(*saga_id) != nullptr) {
          if (answered.WaitWithDeadline(&slot->mu, deadline)) break;
        }
        slot->saga_waits.erase(*saga_id);
        // The request, and the outcome if there is one, are durable before
        // the answer goes out.
        WaitDurable(*slot, slot->sequence);
        return BuyInAnswerLocked(*slot, *saga_id, waiting, player, response);
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
  return Command(
      context, "Leave", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool) -> absl::Status {
        RETURN_IF_ERROR(RequirePlayer(caller, "leaves a table"));
        RETURN_IF_ERROR(CheckTableId(request->table_id()));
        Slot* slot = Find(request->table_id());
        if (slot == nullptr) return absl::NotFoundError("no such table");
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
  return Command(
      context, "SitOut", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(RequirePlayer(caller, "sits out"));
        Slot* slot = Find(request->table_id());
        if (slot == nullptr) return absl::NotFoundError("no such table");
        absl::MutexLock lock(&slot->mu);
        if (!repeat) {
          v1::TableEvent e;
          e.set_request_id(key);
          e.set_request_fingerprint(fingerprint);
          e.set_table_id(request->table_id());
          e.mutable_sit_out_changed()->set_player_id(caller.player_id());
          e.mutable_sit_out_changed()->set_sitting_out(true);
          e.mutable_sit_out_changed()->set_at_micros(clock_.NowMicros());
          RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
        }
        *response = SeatOf(*slot->state, caller.player_id());
        WaitDurable(*slot, slot->sequence);
        return absl::OkStatus();
      });
}

grpc::Status TableService::SitIn(grpc::ServerContext* context,
                                 const v1::SitInRequest* request,
                                 v1::SeatResponse* response) {
  return Command(
      context, "SitIn", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        RETURN_IF_ERROR(RequirePlayer(caller, "sits back in"));
        Slot* slot = Find(request->table_id());
        if (slot == nullptr) return absl::NotFoundError("no such table");
        absl::MutexLock lock(&slot->mu);
        if (!repeat) {
          v1::TableEvent e;
          e.set_request_id(key);
          e.set_request_fingerprint(fingerprint);
          e.set_table_id(request->table_id());
          e.mutable_sit_out_changed()->set_player_id(caller.player_id());
          e.mutable_sit_out_changed()->set_sitting_out(false);
          RETURN_IF_ERROR(CommitLocked(*slot, std::move(e)));
        }
        *response = SeatOf(*slot->state, caller.player_id());
        WaitDurable(*slot, slot->sequence);
        return absl::OkStatus();
      });
}

absl::StatusOr<poker::Action> TableService::CheckAct(
    const auth::Claims& caller, const v1::ActRequest& request) {
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
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return fail(caller.status());
  if (absl::StatusOr<poker::Action> action = CheckAct(*caller, *request);
      !action.ok()) {
    return fail(action.status());
  }
  Slot* slot = Find(request->table_id());
  if (slot == nullptr) return fail(absl::NotFoundError("no such table"));
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
  return Command(
      context, "VoidHand", request->request_id(), *request, response,
      [&](const auth::Claims& caller, const std::string& key,
          const std::string& fingerprint, bool repeat) -> absl::Status {
        if (caller.role != auth::Role::kOperator) {
          return absl::PermissionDeniedError(
              "voiding a hand needs the operator role");
        }
        // Refused, not cut: a cut could split a UTF-8 character, and an
        // event that does not parse stops the next replay.
        if (request->reason().size() > kMaxVoidReasonBytes) {
          return absl::InvalidArgumentError(absl::StrCat(
              "reason must be at most ", kMaxVoidReasonBytes, " bytes"));
        }
        Slot* slot = Find(request->table_id());
        if (slot == nullptr) return absl::NotFoundError("no such table");
        absl::MutexLock lock(&slot->mu);
        if (!repeat) {
          if (!slot->state->engine().in_hand()) {
            return absl::FailedPreconditionError("no hand in progress");
          }
          v1::TableEvent e;
          e.set_request_id(key);
          e.set_request_fingerprint(fingerprint);
          e.set_table_id(request->table_id());
          e.mutable_hand_void_requested()->set_hand_number(
              slot->state->hands_started());
          e.mutable_hand_void_requested()->set_reason(request->reason());
          if (absl::Status s = CommitLocked(*slot, std::move(e)); !s.ok()) {
            return s;
          }
        }
        *response = slot->state->Info();
        WaitDurable(*slot, slot->sequence);
        return absl::OkStatus();
      });
}

grpc::ServerUnaryReactor* TableService::GetTableView(
    grpc::CallbackServerContext* context, const v1::WatchTableRequest* request,
    v1::TableView* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) {
    reactor->Finish(edge::ToGrpcStatus(caller.status()));
    return reactor;
  }
  Slot* slot = Find(request->table_id());
  if (slot == nullptr) {
    reactor->Finish(edge::ToGrpcStatus(absl::NotFoundError("no such table")));
    return reactor;
  }
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
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  Slot* slot = Find(request->table_id());
  if (slot == nullptr) {
    return edge::ToGrpcStatus(absl::NotFoundError("no such table"));
  }
  const std::string viewer = ViewerOf(*caller);
  absl::StatusOr<CallerStreams::Ticket> ticket =
      watch_streams_.Open(caller->subject);
  if (!ticket.ok()) return edge::ToGrpcStatus(ticket.status());
  {
    absl::MutexLock lock(&slot->mu);
    if (absl::Status s = AdmitLocked(*slot, viewer); !s.ok()) {
      return edge::ToGrpcStatus(s);
    }
    ++slot->watchers[viewer];
  }
  int64_t sent = -1;
  while (!context->IsCancelled() && !loops_.stopping()) {
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
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  // A hand's record with the caller's cards is a player's own; operators
  // and auditors read every hand from the log (`banca hands export`).
  if (absl::Status s = RequirePlayer(*caller, "reads its last hand"); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  Slot* slot = Find(request->table_id());
  if (slot == nullptr)
    return edge::ToGrpcStatus(absl::NotFoundError("no such table"));
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
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  if (absl::Status s = RequirePlayer(*caller, "reads its session summary");
      !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  Slot* slot = Find(request->table_id());
  if (slot == nullptr)
    return edge::ToGrpcStatus(absl::NotFoundError("no such table"));
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
  std::vector<Slot*> slots;
  {
    absl::MutexLock lock(&tables_mu_);
    for (auto& [id, slot] : tables_) slots.push_back(slot.get());
  }
  for (Slot* slot : slots) TickSlot(*slot);
}

void TableService::TickSlot(Slot& slot) {
  absl::MutexLock lock(&slot.mu);
  tables::TableState& state = *slot.state;
  const int64_t now = clock_.NowMicros();
  // Buy-ins the wallet has not answered in time.
  std::vector<std::string> expired;
  for (const auto& [saga, started] : slot.saga_started_micros) {
    if (state.FindSaga(saga) == nullptr) {
      expired.push_back(saga);  // answered: forget the timer
    } else if (now - started >=
               absl::ToInt64Microseconds(options_.saga_timeout)) {
      v1::TableEvent e;
      e.set_table_id(state.id());
      e.mutable_buy_in_failed()->set_saga_id(saga);
      e.mutable_buy_in_failed()->set_timed_out(true);
      e.mutable_buy_in_failed()->set_reason(
          "the wallet did not answer in time");
      slot.refusals.Refused(saga, "the wallet did not answer in time");
      if (absl::Status s = CommitLocked(slot, std::move(e)); !s.ok()) {
        std::fprintf(stderr, "banca table: saga timeout: %s\n",
                     std::string(s.message()).c_str());
      }
      expired.push_back(saga);
    }
  }
  for (const std::string& saga : expired) slot.saga_started_micros.erase(saga);
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
          std::fprintf(stderr, "banca table: decision timer: %s\n",
                       std::string(s.message()).c_str());
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
    std::fprintf(stderr, "banca table: hand start: %s\n",
                 std::string(s.message()).c_str());
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
      std::fprintf(stderr, "banca table: rest limit: %s\n",
                   std::string(s.message()).c_str());
    }
  }
}

absl::StatusOr<int> TableService::PollWalletOutcomes() {
  absl::MutexLock lock(&outcomes_mu_);
  int handled = 0;
  std::vector<eventlog::OffsetCommit> commits;
  // What the outcomes appended: durable before the positions move, all
  // at once (one group commit for the batch, not one fsync per outcome,
  // which kept rebuys waiting seconds on a busy service).
  std::vector<std::pair<Slot*, int64_t>> appended;
  auto wait_appended = [&] {
    for (auto& [slot, sequence] : appended) {
      absl::MutexLock lock(&slot->mu);
      WaitDurable(*slot, sequence);
    }
  };
  for (int p = 0; p < options_.wallet_partitions; ++p) {
    absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
        log_.Read(wire::kWalletTopic, p, wallet_offsets_[p], kReadBatch);
    if (!records.ok()) return records.status();
    if (records->empty()) continue;
    for (const eventlog::StoredRecord& record : *records) {
      absl::StatusOr<wire::DecodedWalletEvent> decoded =
          wire::DecodeWalletRecord(record);
      if (!decoded.ok()) return decoded.status();
      const v1::WalletEvent& event = decoded->event;
      if (absl::StartsWith(event.request_id(), "table/") &&
          wire::MadeByTheWallet(event)) {
        const bool captured = event.has_hold_captured();
        std::string rejection;
        std::string player =
            captured ? event.hold_captured().player_id() : std::string();
        if (event.has_request_rejected()) {
          rejection = absl::StrCat(event.request_rejected().code(), ": ",
                                   event.request_rejected().message());
          player = event.request_rejected().player_id();
        }
        if (captured || !rejection.empty()) {
          if (absl::Status s = HandleOutcome(
                  event.request_id(), player, captured,
                  captured ? event.hold_captured().amount_minor() : 0,
                  rejection, &appended);
              !s.ok()) {
            wait_appended();
            return s;
          }
          ++handled;
        }
      }
      wallet_offsets_[p] = record.offset + 1;
    }
    commits.push_back({kOutcomeGroup, std::string(wire::kWalletTopic), p,
                       wallet_offsets_[p]});
  }
  wait_appended();
  if (!commits.empty()) {
    if (absl::Status s = log_.CommitOffsets(std::move(commits)); !s.ok()) {
      return s;
    }
  }
  return handled;
}

absl::Status TableService::HandleOutcome(
    const std::string& request_id, const std::string& player_id, bool captured,
    int64_t captured_minor, const std::string& rejection,
    std::vector<std::pair<Slot*, int64_t>>* appended) {
  std::string table_id, saga_id, step;
  if (!ParseSagaRequest(request_id, &table_id, &saga_id, &step)) {
    return absl::OkStatus();  // not a buy-in step
  }
  // The seat capture finishes a saga; a refused hold (or capture) fails it.
  if (captured && step != "seat") return absl::OkStatus();
  Slot* slot = Find(table_id);
  if (slot == nullptr) return absl::OkStatus();
  absl::MutexLock lock(&slot->mu);
  tables::TableState& state = *slot->state;
  v1::TableEvent e;
  e.set_table_id(table_id);
  const tables::PendingBuyIn* pending = state.FindSaga(saga_id);
  const tables::TableState::EndedSaga* ended_saga = state.Ended(saga_id);
  const tables::PendingBuyIn* known = pending != nullptr ? pending
                                      : ended_saga != nullptr
                                          ? &ended_saga->buy_in
                                          : nullptr;
  if (known != nullptr &&
      !OutcomeFits(*known, player_id, captured, captured_minor)) {
    std::fprintf(stderr,
                 "{\"level\":\"error\",\"service\":\"table\",\"msg\":"
                 "\"wallet outcome does not fit its saga; ignored\","
                 "\"request_id\":\"%s\"}\n",
                 request_id.c_str());
    return absl::OkStatus();
  }
  if (pending != nullptr) {
    if (captured) {
      e.mutable_buy_in_completed()->set_saga_id(saga_id);
    } else {
      e.mutable_buy_in_failed()->set_saga_id(saga_id);
      e.mutable_buy_in_failed()->set_reason(rejection);
      slot->refusals.Refused(saga_id, rejection);
    }
    // Durable before the reader commits its position past the outcome.
    absl::Status s = CommitLocked(*slot, std::move(e));
    if (s.ok()) appended->emplace_back(slot, slot->sequence);
    return s;
  }
  // Not pending: a repeat (already handled), or a capture that came after
  // the table gave up: pay it back once.
  const tables::TableState::EndedSaga* ended = state.Ended(saga_id);
  if (captured && ended != nullptr &&
      ended->end == tables::TableState::SagaEnd::kFailed) {
    absl::Status s =
        CommitLocked(*slot, tables::Compensation(table_id, ended->buy_in));
    if (s.ok()) appended->emplace_back(slot, slot->sequence);
    return s;
  }
  return absl::OkStatus();
}

}  // namespace banca::table
