#include "libs/scenario/scenario_book.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "banca/v1/envelope.pb.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::scenario {
namespace {

// A fixed start for the table clock, so that runs are byte-identical.
constexpr int64_t kClockStartMicros = 1'767'225'600'000'000;  // 2026-01-01
constexpr int64_t kMaxAdvanceSeconds = 86'400 * 365;
constexpr int64_t kMaxReplayRecords = 10'000'000;

bool IsKind(const Json& j, Kind kind) {
  switch (kind) {
    case Kind::kString:
      return j.is_string();
    case Kind::kInt:
      return j.is_number_integer();
    case Kind::kBool:
      return j.is_boolean();
    case Kind::kObject:
      return j.is_object();
    case Kind::kArray:
      return j.is_array();
    case Kind::kIntOrArray:
      return j.is_number_integer() || j.is_array();
    case Kind::kIntOrString:
      return j.is_number_integer() || j.is_string();
  }
  return false;
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kString:
      return "a string";
    case Kind::kInt:
      return "an integer";
    case Kind::kBool:
      return "true or false";
    case Kind::kObject:
      return "an object";
    case Kind::kArray:
      return "an array";
    case Kind::kIntOrArray:
      return "an integer or an array";
    case Kind::kIntOrString:
      return "an integer or a string";
  }
  return "?";
}

}  // namespace

absl::Status Field(const Json& obj, const std::string& where, const char* key,
                   Kind kind, bool required) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (!required) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": \"", key, "\" is required (", KindName(kind), ")"));
  }
  if (!IsKind(*it, kind)) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ".", key, " must be ", KindName(kind), ", got ", it->dump()));
  }
  return absl::OkStatus();
}

absl::Status OptionalFields(
    const Json& obj, const std::string& where,
    const std::vector<std::pair<const char*, Kind>>& keys) {
  for (auto [key, kind] : keys) {
    RETURN_IF_ERROR(Field(obj, where, key, kind, false));
  }
  return absl::OkStatus();
}

absl::Status OnlyKnownKeys(const Json& obj, const std::string& where,
                           const std::vector<std::string>& known) {
  for (const auto& [key, value] : obj.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ".", key, ": unknown key (known: ", absl::StrJoin(known, ", "),
          ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status KnownFields(
    const Json& obj, const std::string& where,
    const std::vector<std::pair<const char*, Kind>>& keys) {
  std::vector<std::string> known;
  for (auto [key, kind] : keys) known.push_back(key);
  RETURN_IF_ERROR(OnlyKnownKeys(obj, where, known));
  return OptionalFields(obj, where, keys);
}

ScenarioBook::ScenarioBook(eventlog::EventLog* log, std::string event_type)
    : log_(log),
      event_type_(std::move(event_type)),
      ledger_({.currency = "EUR", .hot_stripes = 1, .shards = 64}),
      clock_micros_(kClockStartMicros) {}

ledger::CommandMeta ScenarioBook::Meta() {
  return {absl::StrCat("scenario-", ++requests_), "scenario"};
}

absl::Status ScenarioBook::OpenPlayers(const std::vector<PlayerSpec>& players) {
  players_ = players;
  step_context_ = "scenario-setup";
  wire::WalletEventContext ctx;
  ctx.producer = "scenario";
  ctx.correlation_id = step_context_;
  ctx.occurred_at_micros = clock_micros_;
  auto commit = [&](const ledger::Committed& c) {
    pending_.push_back(wire::EncodeWalletRecord(c, ctx));
  };
  for (const PlayerSpec& p : players_) {
    RETURN_IF_ERROR(ledger_.OpenAccount(Meta(), p.id, "EUR", commit));
    accounts_.insert(ledger::PlayerCashAccount(p.id));
    if (p.cash == 0) continue;
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("scenario-deposit");
    tx.set_memo("scenario: the player's starting cash");
    v1::Posting* from = tx.add_postings();
    from->set_account("external/payments");
    from->set_amount_minor(-p.cash);
    v1::Posting* to = tx.add_postings();
    to->set_account(ledger::PlayerCashAccount(p.id));
    to->set_amount_minor(p.cash);
    RETURN_IF_ERROR(Post(ledger::PlayerOwner(p.id), std::move(tx)));
  }
  return CommitStep();
}

bool ScenarioBook::Known(std::string_view player) const {
  for (const PlayerSpec& p : players_) {
    if (p.id == player) return true;
  }
  return false;
}

void ScenarioBook::BeginStep(size_t index) {
  step_index_ = index;
  step_context_ = absl::StrCat("scenario-step-", index);
  pending_.clear();
  step_clock_ = clock_micros_;
  step_sequence_ = sequence_;
  step_posts_ = posts_;
}

absl::Status ScenarioBook::CommitStep() {
  if (pending_.empty()) return absl::OkStatus();
  const size_t n = pending_.size();
  absl::StatusOr<std::vector<eventlog::Position>> positions =
      log_->Append(std::move(pending_));
  pending_.clear();
  absl::Status status = positions.status();
  if (status.ok() && positions->size() != n) {
    status =
        absl::InternalError("the log stored a different number of records");
  }
  if (!status.ok()) {
    violations_.push_back(absl::StrCat("step ", step_index_,
                                       ": append failed: ", status.message()));
    return status;
  }
  events_ += static_cast<int64_t>(n);
  return absl::OkStatus();
}

void ScenarioBook::AbandonStep() {
  pending_.clear();
  clock_micros_ = step_clock_;
  sequence_ = step_sequence_;
  if (posts_ != step_posts_) {
    violations_.push_back(absl::StrCat(
        "step ", step_index_, ": rejected after ", posts_ - step_posts_,
        " ledger transaction(s) were posted"));
  }
}

absl::Status ScenarioBook::Post(std::string_view stream_owner,
                                v1::LedgerTransaction tx) {
  wire::WalletEventContext ctx;
  ctx.producer = "scenario";
  ctx.correlation_id = step_context_;
  ctx.causation_id = step_context_;
  ctx.occurred_at_micros = clock_micros_;
  std::vector<std::string> accounts;
  for (const v1::Posting& p : tx.postings()) accounts.push_back(p.account());
  absl::Status s = ledger_.Post(
      Meta(), stream_owner, std::move(tx), [&](const ledger::Committed& c) {
        pending_.push_back(wire::EncodeWalletRecord(c, ctx));
      });
  if (s.ok()) {
    ++posts_;
    accounts_.insert(accounts.begin(), accounts.end());
  }
  return s;
}

void ScenarioBook::Record(std::string text) {
  v1::EventEnvelope envelope;
  const std::string stream = absl::StrCat("table/", kTableId);
  ++sequence_;
  const std::string event_id = absl::StrCat(stream, "#", sequence_);
  envelope.set_event_id(event_id);
  envelope.set_stream_id(stream);
  envelope.set_sequence(sequence_);
  envelope.set_type(event_type_);
  envelope.set_schema_version(1);
  envelope.set_occurred_at_micros(clock_micros_);
  envelope.set_producer("scenario");
  envelope.set_correlation_id(step_context_);
  envelope.set_payload(std::move(text));
  eventlog::Record record;
  record.topic = std::string(kGameTopic);
  record.key = stream;
  record.timestamp_micros = clock_micros_;
  record.headers = {{"event_id", event_id}, {"type", event_type_}};
  envelope.SerializeToString(&record.value);
  pending_.push_back(std::move(record));
}

absl::Status ScenarioBook::Advance(int64_t seconds) {
  if (seconds < 0 || seconds > kMaxAdvanceSeconds) {
    return absl::InvalidArgumentError("advance: seconds must be 0..1 year");
  }
  clock_micros_ += seconds * 1'000'000;
  return absl::OkStatus();
}

int64_t ScenarioBook::Balance(std::string_view account) const {
  return ledger_.AccountBalance(account);
}

void ScenarioBook::VerifyReplay() {
  ledger::Ledger replayed({.currency = "EUR", .hot_stripes = 1, .shards = 64});
  int64_t records = 0;
  for (const eventlog::TopicConfig& topic :
       {eventlog::TopicConfig{std::string(wire::kWalletTopic),
                              wire::kDefaultWalletPartitions},
        eventlog::TopicConfig{std::string(kGameTopic), 1}}) {
    const bool is_wallet = topic.name == wire::kWalletTopic;
    for (int p = 0; p < topic.partitions; ++p) {
      absl::StatusOr<std::vector<eventlog::StoredRecord>> read =
          log_->Read(topic.name, p, 0, kMaxReplayRecords);
      if (!read.ok()) {
        violations_.push_back(absl::StrCat("replay: read ", topic.name, ": ",
                                           read.status().message()));
        return;
      }
      records += static_cast<int64_t>(read->size());
      if (!is_wallet) continue;
      for (const eventlog::StoredRecord& r : *read) {
        absl::StatusOr<wire::DecodedWalletEvent> d =
            wire::DecodeWalletRecord(r);
        absl::Status s = d.ok()
                             ? replayed.Apply(d->envelope.stream_id(),
                                              d->envelope.sequence(), d->event)
                             : d.status();
        if (!s.ok()) {
          violations_.push_back(absl::StrCat("replay: ", s.message()));
          return;
        }
      }
    }
  }
  if (records != events_) {
    violations_.push_back(absl::StrCat("replay: the log holds ", records,
                                       " events, ", events_, " counted"));
  }
  for (const std::string& a : accounts_) {
    if (replayed.AccountBalance(a) != ledger_.AccountBalance(a)) {
      violations_.push_back(
          absl::StrCat("replay: ", a, " is ", replayed.AccountBalance(a),
                       " replayed, ", ledger_.AccountBalance(a), " live"));
    }
  }
  if (replayed.Summarize().sum != 0) {
    violations_.push_back("replay: the replayed ledger does not sum to 0");
  }
}

}  // namespace banca::scenario
