// The table host's template bodies (table_host.h), for the files that
// instantiate it for their games: services/table/table_host_instances.cc
// (poker, banked) and services/tournament's.
#ifndef BANCA_SERVICES_COMMON_TABLE_HOST_IMPL_H_
#define BANCA_SERVICES_COMMON_TABLE_HOST_IMPL_H_

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/tables/sealed_decks.h"
#include "libs/wire/envelope_record.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/common/bearer_auth.h"
#include "services/common/event_size.h"
#include "services/common/owner_redirect.h"
#include "services/common/table_host.h"

namespace banca::table {
namespace host_internal {

inline constexpr size_t kReadBatch = 512;
inline constexpr size_t kMaxTableNameBytes = 128;
// A VoidHand's or VoidRound's reason, as logged.
inline constexpr size_t kMaxVoidReasonBytes = 256;

inline absl::Status At(const std::string& event_id, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(event_id, ": ", s.message()));
}

}  // namespace host_internal

template <typename Game>
TableHost<Game>::TableHost(eventlog::EventLog& log, const Clock& clock,
                           const TableHostOptions& options)
    : log_(log),
      clock_(clock),
      options_(options),
      idempotency_({.window = options.idempotency_window, .clock = &clock}),
      watch_streams_(options.max_watch_streams_per_caller,
                     "WatchTable streams") {
  if (options.metrics != nullptr) {
    metrics_ = std::make_unique<TableHostMetrics>(*options.metrics,
                                                  Game::kService, Game::kGame);
  }
}

template <typename Game>
absl::Status TableHost<Game>::Open(const ReplayNote& note) {
  RETURN_IF_ERROR(PrepareHostTopics(log_, Game::kTopics.topic,
                                    Game::kTopics.requests_topic, options_));
  RETURN_IF_ERROR(Replay(note));
  CountTablesOpen();
  if (!options_.group.empty()) return JoinGroup(note);
  absl::MutexLock lock(&outcomes_mu_);
  ASSIGN_OR_RETURN(wallet_offsets_,
                   WalletOutcomePositions(log_, Game::kOutcomeGroup,
                                          options_.wallet_partitions));
  return absl::OkStatus();
}

template <typename Game>
absl::Status TableHost<Game>::JoinGroup(const ReplayNote& note) {
  TableGroupOptions group;
  group.group = options_.group;
  group.topic = std::string(Game::kTopics.topic);
  group.partitions = options_.partitions;
  group.session_timeout_ms = options_.group_session_timeout_ms;
  group.poll_interval = options_.group_poll_interval;
  group.advertise_address = options_.advertise_address;
  RETURN_IF_ERROR(ValidateTableGroupOptions(group));
  // The outcome reader reads nothing until the group assigns partitions
  // (OutcomesGained sets where it starts).
  group_ = std::make_unique<TableGroup>(
      log_, std::move(group), replayed_to_,
      [this, note](int p, int64_t from) { return Follow(p, from, note); },
      [this](const std::vector<int>& gained) {
        return OutcomesGained(gained);
      });
  return group_->Join();
}

template <typename Game>
absl::StatusOr<int64_t> TableHost<Game>::Follow(int p, int64_t from,
                                                const ReplayNote& note) {
  const int64_t now = clock_.NowMicros();
  ASSIGN_OR_RETURN(const int64_t to,
                   eventlog::ReadPartitionToEnd(
                       log_, Game::kTopics.topic, p, from,
                       [&](const eventlog::StoredRecord& record) {
                         return ReplayRecord(record, now, note,
                                             /*following=*/true);
                       },
                       host_internal::kReadBatch));
  // The tables opened elsewhere get their randomness.
  for (auto& [id, table] : [this] {
         absl::MutexLock lock(&tables_mu_);
         std::vector<std::pair<std::string, Table*>> all;
         for (auto& [id, t] : tables_) all.emplace_back(id, t.get());
         return all;
       }()) {
    absl::MutexLock table_lock(&table->mu);
    if (table->rng != nullptr) continue;
    ASSIGN_OR_RETURN(table->rng, NewRandomSource(id));
  }
  return to;
}

template <typename Game>
std::string TableHost<Game>::OutcomeGroup(int p) const {
  if (group_ == nullptr) return std::string(Game::kOutcomeGroup);
  return absl::StrCat(ToAbsl(Game::kOutcomeGroup), ".", options_.group, ".", p);
}

template <typename Game>
absl::Status TableHost<Game>::OutcomesGained(const std::vector<int>& gained) {
  absl::MutexLock lock(&outcomes_mu_);
  for (int p : gained) {
    // Outcomes read again are repeats, which the games ignore; none is
    // skipped: the reader goes back to the earliest position.
    ASSIGN_OR_RETURN(std::vector<int64_t> positions,
                     WalletOutcomePositions(log_, OutcomeGroup(p),
                                            options_.wallet_partitions));
    if (wallet_offsets_.empty()) {
      wallet_offsets_ = std::move(positions);
      continue;
    }
    for (int w = 0; w < options_.wallet_partitions; ++w) {
      wallet_offsets_[w] = std::min(wallet_offsets_[w], positions[w]);
    }
  }
  return absl::OkStatus();
}

template <typename Game>
int TableHost<Game>::PartitionOf(std::string_view table_id) const {
  return eventlog::PartitionForKey(
      wire::TableTopicStream(Game::kTopics, table_id), options_.partitions);
}

template <typename Game>
absl::StatusOr<TableOwner> TableHost<Game>::Locate(
    const std::string& table_id) {
  if (!wire::IsValidTableId(table_id)) {
    return absl::InvalidArgumentError("table_id must be 1-32 of [a-z0-9-]");
  }
  const int p = PartitionOf(table_id);
  if (group_ == nullptr) {
    return TableOwner{
        .partition = p, .here = true, .address = options_.advertise_address};
  }
  return group_->OwnerOf(p);
}

template <typename Game>
absl::Status TableHost<Game>::DecidedElsewhere(const std::string& table_id) {
  std::string message =
      absl::StrCat(ToAbsl(Game::kName), " ", table_id,
                   " is decided by another process of table group ",
                   options_.group, " (partition ", PartitionOf(table_id), ")");
  absl::StatusOr<TableOwner> owner = Locate(table_id);
  if (owner.ok() && !owner->here && !owner->address.empty()) {
    message = edge::WithOwner(message, owner->address);
  }
  return absl::UnavailableError(message);
}

template <typename Game>
void TableHost<Game>::AppendFor(const std::string& table_id,
                                std::vector<eventlog::Record> records,
                                eventlog::AppendCallback done) {
  if (group_ == nullptr) {
    log_.AppendAsync(std::move(records), {}, std::move(done));
    return;
  }
  group_->AppendAsync(std::move(records), PartitionOf(table_id),
                      std::move(done));
}

template <typename Game>
void TableHost<Game>::Run(std::function<void()> tick, OutcomeHandler handle) {
  {
    absl::MutexLock lock(&outcomes_mu_);
    handle_outcome_ = std::move(handle);
  }
  loops_.Every(options_.tick_interval, std::move(tick));
  loops_.Every(options_.poll_interval, [this] { PollStep(); });
}

template <typename Game>
void TableHost<Game>::Stop() {
  // Decides nothing more and leaves the group first.
  if (group_ != nullptr) group_->Stop();
  loops_.Stop();
  // The log calls back into the tables: wait for what is queued.
  WaitForAppends(in_flight_);
}

template <typename Game>
absl::Status TableHost<Game>::Replay(const ReplayNote& note) {
  const int64_t now = clock_.NowMicros();
  replayed_to_.assign(options_.partitions, 0);
  for (int p = 0; p < options_.partitions; ++p) {
    ASSIGN_OR_RETURN(const int64_t end, log_.EndOffset(Game::kTopics.topic, p));
    int64_t offset = 0;
    while (offset < end) {
      ASSIGN_OR_RETURN(
          std::vector<eventlog::StoredRecord> records,
          log_.Read(Game::kTopics.topic, p, offset, host_internal::kReadBatch));
      if (records.empty()) break;
      for (const eventlog::StoredRecord& record : records) {
        offset = record.offset + 1;
        RETURN_IF_ERROR(ReplayRecord(record, now, note));
      }
    }
    replayed_to_[p] = offset;
  }
  absl::MutexLock lock(&tables_mu_);
  for (auto& [id, table] : tables_) {
    ASSIGN_OR_RETURN(std::unique_ptr<cards::RandomSource> rng,
                     NewRandomSource(id));
    absl::MutexLock table_lock(&table->mu);
    table->rng = std::move(rng);
  }
  return absl::OkStatus();
}

template <typename Game>
absl::Status TableHost<Game>::ReplayRecord(const eventlog::StoredRecord& record,
                                           int64_t now, const ReplayNote& note,
                                           bool following) {
  ASSIGN_OR_RETURN(auto decoded, Game::Decode(record));
  const std::string& id = decoded.envelope.event_id();
  if (following) {
    // This process's own events (decided here before the partition moved
    // away) are applied already.
    if (Table* known = FindAny(Game::IdOf(decoded.event))) {
      absl::MutexLock lock(&known->mu);
      if (static_cast<int64_t>(decoded.envelope.sequence()) <=
          known->sequence) {
        return absl::OkStatus();
      }
    }
  }
  if (absl::Status s = tables::OpenDeal(options_.deck_keys, decoded.event);
      !s.ok()) {
    return host_internal::At(id, s);
  }
  const Event& event = decoded.event;
  Table* table = nullptr;
  if (State::Opens(event)) {
    absl::StatusOr<std::unique_ptr<State>> state = State::Open(event);
    if (!state.ok())
      return host_internal::At(id,
                               absl::DataLossError(state.status().message()));
    auto fresh = std::make_unique<Table>();
    fresh->state = std::move(*state);
    table = fresh.get();
    absl::MutexLock lock(&tables_mu_);
    tables_[Game::IdOf(event)] = std::move(fresh);
  } else {
    table = FindAny(Game::IdOf(event));
    if (table == nullptr) {
      return host_internal::At(
          id, absl::DataLossError("event of an unknown table"));
    }
  }
  absl::MutexLock lock(&table->mu);
  if (!State::Opens(event)) {
    if (absl::Status s = table->state->ApplyLogged(event); !s.ok()) {
      return host_internal::At(
          id,
          absl::DataLossError(absl::StrCat(
              "the table does not accept the logged event: ", s.message())));
    }
    table->state->ForgetTaken();
  }
  const auto sequence = static_cast<int64_t>(decoded.envelope.sequence());
  if (sequence != table->sequence + 1) {
    return host_internal::At(id, absl::DataLossError(absl::StrCat(
                                     "sequence gap after ", table->sequence)));
  }
  table->sequence = sequence;
  table->durable_sequence = sequence;
  if (const std::string* saga = Game::SagaStarted(event)) {
    table->saga_started_micros[*saga] = now;
  }
  if (!note(*table, event) && !event.request_id().empty()) {
    idempotency_.Restore(event.request_id(), event.request_fingerprint(), "",
                         decoded.envelope.occurred_at_micros());
  }
  ++replayed_events_;
  return absl::OkStatus();
}

template <typename Game>
typename TableHost<Game>::Table* TableHost<Game>::FindAny(
    const std::string& table_id) {
  absl::MutexLock lock(&tables_mu_);
  auto it = tables_.find(table_id);
  return it == tables_.end() ? nullptr : it->second.get();
}

template <typename Game>
typename TableHost<Game>::Table* TableHost<Game>::Find(
    const std::string& table_id) {
  if (group_ != nullptr && !group_->Owns(PartitionOf(table_id))) {
    return nullptr;
  }
  return FindAny(table_id);
}

template <typename Game>
absl::StatusOr<typename TableHost<Game>::Table*>
TableHost<Game>::FindOrNotFound(const std::string& table_id) {
  if (!wire::IsValidTableId(table_id)) {
    return absl::InvalidArgumentError("table_id must be 1-32 of [a-z0-9-]");
  }
  if (group_ != nullptr && !group_->Owns(PartitionOf(table_id))) {
    return DecidedElsewhere(table_id);
  }
  Table* table = Find(table_id);
  if (table == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no ", ToAbsl(Game::kName), " ", table_id));
  }
  return table;
}

template <typename Game>
absl::Status TableHost<Game>::CheckCreate(const auth::Claims& caller,
                                          const std::string& table_id,
                                          const std::string& name) {
  if (caller.role != auth::Role::kOperator) {
    return absl::PermissionDeniedError(
        "creating tables needs the operator role");
  }
  if (!wire::IsValidTableId(table_id)) {
    return absl::InvalidArgumentError("table_id must be 1-32 of [a-z0-9-]");
  }
  if (name.size() > host_internal::kMaxTableNameBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name must be at most ", host_internal::kMaxTableNameBytes, " bytes"));
  }
  return absl::OkStatus();
}

template <typename Game>
absl::Status TableHost<Game>::CheckVoid(const auth::Claims& caller,
                                        const std::string& reason,
                                        std::string_view what) {
  if (caller.role != auth::Role::kOperator) {
    return absl::PermissionDeniedError(
        absl::StrCat("voiding ", ToAbsl(what), " needs the operator role"));
  }
  // Refused, not cut: a cut could split a UTF-8 character, and an event
  // that does not parse stops the next replay.
  if (reason.size() > host_internal::kMaxVoidReasonBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("reason must be at most ",
                     host_internal::kMaxVoidReasonBytes, " bytes"));
  }
  return absl::OkStatus();
}

template <typename Game>
std::vector<typename TableHost<Game>::Table*> TableHost<Game>::Tables() {
  absl::MutexLock lock(&tables_mu_);
  std::vector<Table*> all;
  all.reserve(tables_.size());
  for (auto& [id, table] : tables_) {
    if (group_ != nullptr && !group_->Owns(PartitionOf(id))) continue;
    all.push_back(table.get());
  }
  return all;
}

template <typename Game>
absl::StatusOr<typename TableHost<Game>::Table*> TableHost<Game>::AddTable(
    const Event& opening, std::unique_ptr<State> state) {
  RETURN_IF_ERROR(edge::CheckEventSize(opening));
  ASSIGN_OR_RETURN(std::unique_ptr<cards::RandomSource> rng,
                   NewRandomSource(Game::IdOf(opening)));
  // In group mode only the owner of the new table's partition opens it.
  const int partition = PartitionOf(Game::IdOf(opening));
  if (group_ != nullptr) {
    if (!group_->Owns(partition)) return DecidedElsewhere(Game::IdOf(opening));
    RETURN_IF_ERROR(group_->Enter(
        partition,
        absl::StrCat(ToAbsl(Game::kName), " ", Game::IdOf(opening))));
  }
  struct Left {
    TableGroup* group;
    ~Left() {
      if (group != nullptr) group->Leave();
    }
  } left{group_.get()};
  absl::MutexLock lock(&tables_mu_);
  if (tables_.contains(Game::IdOf(opening))) {
    return absl::AlreadyExistsError(
        absl::StrCat("table ", Game::IdOf(opening), " exists"));
  }
  if (static_cast<int>(tables_.size()) >= options_.max_tables) {
    return absl::ResourceExhaustedError("table limit reached");
  }
  auto table = std::make_unique<Table>();
  absl::MutexLock table_lock(&table->mu);
  table->state = std::move(state);
  table->rng = std::move(rng);
  wire::TableEventContext ctx;
  ctx.producer = options_.producer;
  ctx.correlation_id = opening.request_id();
  ctx.occurred_at_micros = clock_.NowMicros();
  std::vector<eventlog::Record> records;
  Game::Append(opening, ++table->sequence, ctx, &records);
  absl::StatusOr<std::vector<eventlog::Position>> appended =
      eventlog::AwaitAppend([&](eventlog::AppendCallback done) {
        AppendFor(Game::IdOf(opening), std::move(records), std::move(done));
      });
  if (!appended.ok()) {
    eventlog::StopOnLogFailure(Game::kName, "append", appended.status());
  }
  table->durable_sequence = table->sequence;
  Table* added = table.get();
  tables_[Game::IdOf(opening)] = std::move(table);
  if (metrics_) metrics_->SetTablesOpen(tables_.size());
  return added;
}

template <typename Game>
absl::Status TableHost<Game>::DecideLocked(Table& table, Event event,
                                           std::vector<Event>* batch) {
  // Checked before the table applies it: the events it derives are the
  // table's own, bounded by its seats and bets.
  if (absl::Status s = edge::CheckEventSize(event); !s.ok()) {
    if (metrics_) metrics_->CountDecision(s);
    return s;
  }
  // Group mode: the gate, once per batch (QueueLocked leaves it).
  const bool entering = group_ != nullptr && !table.entered;
  if (entering) {
    // With appends in flight, whose completions need the table's lock,
    // the decision does not wait for a draining gate (table_group.h).
    RETURN_IF_ERROR(
        group_->Enter(PartitionOf(table.state->id()),
                      absl::StrCat(ToAbsl(Game::kName), " ", table.state->id()),
                      /*busy=*/table.durable_sequence < table.sequence));
    table.entered = true;
  }
  auto refused = [&](absl::Status s) {
    if (metrics_) metrics_->CountDecision(s);
    if (entering && batch->empty()) {
      table.entered = false;
      group_->Leave();
    }
    return s;
  };
  if (absl::Status s = tables::SealDeal(options_.deck_keys, event); !s.ok()) {
    return refused(s);
  }
  std::vector<Event> derived;
  if (absl::Status s = table.state->Apply(event, &derived); !s.ok()) {
    return refused(s);
  }
  table.state->ForgetTaken();
  if (metrics_) metrics_->CountDecision(absl::OkStatus());
  batch->push_back(std::move(event));
  for (Event& d : derived) batch->push_back(std::move(d));
  return absl::OkStatus();
}

template <typename Game>
void TableHost<Game>::QueueLocked(Table& table, std::vector<Event> batch) {
  // The gate's pass, handed to the append's completion (group mode).
  TableGroup* const gate = table.entered ? group_.get() : nullptr;
  table.entered = false;
  if (batch.empty()) {
    if (gate != nullptr) gate->Leave();
    return;
  }
  CountQueued(batch);
  wire::TableEventContext ctx;
  ctx.producer = options_.producer;
  ctx.occurred_at_micros = clock_.NowMicros();
  ctx.correlation_id = batch.front().request_id();
  std::vector<eventlog::Record> records;
  records.reserve(batch.size());
  for (Event& e : batch) {
    tables::DropClearDeck(e);  // applied in clear, logged sealed
    if (const std::string* saga = Game::SagaStarted(e)) {
      table.saga_started_micros[*saga] = ctx.occurred_at_micros;
    }
    // The wallet's copy of a money request rides in the same batch.
    Game::Append(e, ++table.sequence, ctx, &records);
  }
  const int64_t last = table.sequence;
  ++in_flight_;
  // The callback runs on the log's completion thread (before AppendAsync
  // returns only for a refused batch, which stops the process before it
  // takes any lock).
  AppendFor(table.state->id(), std::move(records),
            [this, &table, last, gate](absl::Status status,
                                       std::vector<eventlog::Position>) {
              // A fenced append (a zombie's) stops the process here.
              if (!status.ok()) {
                eventlog::StopOnLogFailure(Game::kName, "append", status);
              }
              if (gate != nullptr) gate->Leave();
              Durable(table, last);
            });
  table.changed.SignalAll();
}

template <typename Game>
absl::Status TableHost<Game>::CommitLocked(Table& table, Event event) {
  std::vector<Event> batch;
  RETURN_IF_ERROR(DecideLocked(table, std::move(event), &batch));
  QueueLocked(table, std::move(batch));
  return absl::OkStatus();
}

template <typename Game>
std::vector<typename TableHost<Game>::Event>
TableHost<Game>::ExpiredSagasLocked(Table& table, int64_t now) {
  const int64_t timeout = absl::ToInt64Microseconds(options_.saga_timeout);
  std::vector<Event> expired;
  for (auto it = table.saga_started_micros.begin();
       it != table.saga_started_micros.end();) {
    const std::string& saga = it->first;
    if (Game::SagaPending(*table.state, saga)) {
      if (now - it->second < timeout) {
        ++it;
        continue;
      }
      expired.push_back(Game::SagaTimedOut(*table.state, saga, now));
      table.refusals.Refused(saga, std::string(kSagaTimedOut));
    }
    it = table.saga_started_micros.erase(it);
  }
  return expired;
}

template <typename Game>
void TableHost<Game>::Durable(Table& table, int64_t sequence) {
  std::vector<grpc::ServerUnaryReactor*> ready;
  {
    absl::MutexLock lock(&table.mu);
    // One table is one key, so one partition: its batches become durable
    // in the order they were queued.
    table.durable_sequence = std::max(table.durable_sequence, sequence);
    while (!table.durable_waits.empty() &&
           table.durable_waits.front().sequence <= table.durable_sequence) {
      DurableWait& w = table.durable_waits.front();
      if (w.reactor != nullptr) ready.push_back(w.reactor);
      if (w.send) w.send();
      table.durable_waits.pop_front();
    }
    table.changed.SignalAll();
  }
  for (grpc::ServerUnaryReactor* reactor : ready) {
    reactor->Finish(grpc::Status::OK);
  }
  --in_flight_;
}

template <typename Game>
void TableHost<Game>::CountQueued(const std::vector<Event>& batch) {
  if (!metrics_) return;
  for (const Event& e : batch) {
    if (Game::FinishesRound(e)) metrics_->CountRoundFinished();
    metrics_->CountSagaEnd(Game::SagaEndOf(e));
  }
}

template <typename Game>
void TableHost<Game>::CountTablesOpen() {
  if (!metrics_) return;
  absl::MutexLock lock(&tables_mu_);
  metrics_->SetTablesOpen(tables_.size());
}

template <typename Game>
void TableHost<Game>::WaitDurableLocked(Table& table, int64_t sequence) {
  while (table.durable_sequence < sequence) table.changed.Wait(&table.mu);
}

template <typename Game>
void TableHost<Game>::ReplyWhenDurable(
    Table& table, int64_t sequence, grpc::ServerUnaryReactor* reactor,
    std::vector<grpc::ServerUnaryReactor*>* now) {
  if (table.durable_waits.empty() && table.durable_sequence >= sequence) {
    now->push_back(reactor);
  } else {
    table.durable_waits.push_back({sequence, reactor, nullptr});
  }
}

template <typename Game>
void TableHost<Game>::SendWhenDurable(Table& table, int64_t sequence,
                                      std::function<void()> send) {
  if (table.durable_waits.empty() && table.durable_sequence >= sequence) {
    send();
  } else {
    table.durable_waits.push_back({sequence, nullptr, std::move(send)});
  }
}

template <typename Game>
absl::StatusOr<std::unique_ptr<cards::RandomSource>>
TableHost<Game>::NewRandomSource(const std::string& table_id) const {
  if (options_.random_source_for_tests) {
    std::unique_ptr<cards::RandomSource> rng =
        options_.random_source_for_tests(table_id);
    if (rng == nullptr) {
      return absl::InternalError("the test random source gave nothing");
    }
    return rng;
  }
  ASSIGN_OR_RETURN(std::unique_ptr<cards::SystemRandomSource> rng,
                   cards::SystemRandomSource::Create());
  return std::unique_ptr<cards::RandomSource>(std::move(rng));
}

template <typename Game>
void TableHost<Game>::PollStep() {
  absl::StatusOr<int> handled = PollWalletOutcomes();
  if (!handled.ok() && !absl::IsUnavailable(handled.status()) &&
      !absl::IsDeadlineExceeded(handled.status())) {
    Log(LogLevel::kError, Game::kName, "reading the wallet's outcomes failed",
        {{"error", handled.status().message()}});
  }
}

template <typename Game>
absl::StatusOr<int> TableHost<Game>::PollWalletOutcomes() {
  absl::MutexLock lock(&outcomes_mu_);
  if (!handle_outcome_) return 0;  // not running yet
  // Group mode: nothing to read before the group assigns partitions.
  if (wallet_offsets_.empty()) return 0;
  int handled = 0;
  std::vector<eventlog::OffsetCommit> commits;
  // What the outcomes appended: durable before the positions move, all at
  // once (one group commit for the batch, not one fsync per outcome).
  Appended appended;
  auto wait_appended = [&appended, this] {
    for (auto& [table, sequence] : appended) {
      absl::MutexLock table_lock(&table->mu);
      WaitDurableLocked(*table, sequence);
    }
  };
  for (int p = 0; p < options_.wallet_partitions; ++p) {
    absl::StatusOr<std::vector<eventlog::StoredRecord>> records = log_.Read(
        wire::kWalletTopic, p, wallet_offsets_[p], host_internal::kReadBatch);
    if (!records.ok()) {
      wait_appended();
      return records.status();
    }
    if (records->empty()) continue;
    for (const eventlog::StoredRecord& record : *records) {
      absl::StatusOr<bool> outcome = [&]() -> absl::StatusOr<bool> {
        ASSIGN_OR_RETURN(wire::DecodedWalletEvent decoded,
                         wire::DecodeWalletRecord(record));
        return handle_outcome_(decoded.event, &appended);
      }();
      if (!outcome.ok()) {
        wait_appended();
        return outcome.status();
      }
      if (*outcome) ++handled;
      wallet_offsets_[p] = record.offset + 1;
    }
    // Group mode: the position of every partition this process decides
    // for (each has its own, which its next owner starts from).
    for (int owned : group_ != nullptr ? group_->Owned() : std::vector{0}) {
      commits.push_back({OutcomeGroup(owned), std::string(wire::kWalletTopic),
                         p, wallet_offsets_[p]});
    }
  }
  wait_appended();
  if (!commits.empty()) RETURN_IF_ERROR(log_.CommitOffsets(std::move(commits)));
  return handled;
}

template <typename Game>
absl::StatusOr<auth::Claims> TableHost<Game>::Caller(
    const grpc::ServerContextBase* context) const {
  return edge::AuthenticateBearer(context, options_.verifier,
                                  clock_.NowMicros() / 1'000'000);
}

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_TABLE_HOST_IMPL_H_
