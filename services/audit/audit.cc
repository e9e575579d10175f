#include "services/audit/audit.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "libs/common/json_text.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/log_backend.h"
#include "libs/ledger/account.h"
#include "libs/ledger/posting_rules.h"
#include "libs/money/money.h"
#include "libs/projection/projection_snapshot.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/reporting_rebuild.h"
#include "libs/projection/wallet_projection.h"
#include "libs/snapshot/wallet_snapshot.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"
#include "services/audit/audited_log.h"
#include "services/audit/request_audit.h"
#include "services/audit/wallet_currency.h"

#ifndef BANCA_VERSION
#error \
    "BANCA_VERSION comes from project(VERSION) (services/audit/CMakeLists.txt)"
#endif

namespace banca::audit {
namespace {

void Problem(AuditReport& report, AuditProblem problem) {
  AddProblem(report.problems, std::move(problem));
}

void Problem(AuditReport& report, std::string kind, std::string what) {
  Problem(report,
          AuditProblem{.kind = std::move(kind), .message = std::move(what)});
}

// The live projections as read before the log.
struct LiveProjections {
  bool wallet_dir_exists = false;
  projection::ProjectionSnapshot wallet;
  projection::ProjectionSnapshot reporting;
};

// The record a check is about.
struct Where {
  std::string_view topic;
  int partition = 0;
  int64_t offset = 0;
  // "<topic>/<partition>@<offset>: ", how a message names it.
  std::string prefix;
};

AuditProblem At(const Where& where, std::string kind, std::string message) {
  return AtRecord(std::move(kind), where.topic, where.partition, where.offset,
                  absl::StrCat(where.prefix, message));
}

}  // namespace

namespace {

// Each stream's events numbered 1, 2, 3... and named by stream and number.
void CheckSequence(const v1::EventEnvelope& env, const Where& where,
                   absl::flat_hash_map<std::string, uint64_t>& last_sequence,
                   AuditReport& report) {
  uint64_t& last = last_sequence[env.stream_id()];
  auto problem = [&](std::string what) {
    AuditProblem p = At(where, "sequence", std::move(what));
    p.stream = env.stream_id();
    Problem(report, std::move(p));
  };
  if (env.sequence() != last + 1) {
    problem(absl::StrCat("stream ", env.stream_id(), ": sequence ",
                         env.sequence(), " follows ", last,
                         env.sequence() <= last ? " (repeat)" : " (gap)"));
  }
  if (env.event_id() != absl::StrCat(env.stream_id(), "#", env.sequence())) {
    problem(absl::StrCat("event id ", env.event_id(),
                         " does not match its stream/sequence"));
  }
  last = std::max(last, env.sequence());
}

void NoteQuarantine(const v1::WalletEvent& e, const v1::EventEnvelope& env,
                    const Where& where, AuditReport& report) {
  if (!e.has_request_quarantined()) return;
  const v1::RequestQuarantined& q = e.request_quarantined();
  std::string line =
      absl::StrCat(q.topic(), "/", q.partition(), "@", q.offset(), " step ",
                   q.step(), ": ", q.code());
  Problem(report,
          At(where, "quarantine",
             absl::StrCat("request quarantined (never carried out): ", line,
                          " (", q.message(), "; on ", env.stream_id(), ")")));
  report.quarantined.push_back(std::move(line));
}

// Reasons are tied to account classes: a player-to-player move labelled
// DEPOSIT, say, follows no rule (libs/ledger/posting_rules.h). Operator
// adjustments are counted per actor.
//
// A tournament's postings follow the same rules (tickets, the overlay and
// a cancellation's refunds have theirs) and are also checked by the
// tournament audit, posting by posting (tournament_flows.h).
void CheckTransactions(const v1::WalletEvent& e, const Where& where,
                       AuditReport& report) {
  for (const v1::LedgerTransaction* tx : TransactionsOf(e)) {
    if (absl::Status s = ledger::CheckLoggedTransaction(*tx); !s.ok()) {
      Problem(report, At(where, "posting_rule", std::string(s.message())));
    }
    if (tx->reason() == v1::POSTING_REASON_ADJUSTMENT) {
      AuditReport::Adjustments& a = report.adjustments[e.actor()];
      ++a.count;
      for (const v1::Posting& posting : tx->postings()) {
        if (posting.amount_minor() > 0) {
          a.moved_minor = money::Add(a.moved_minor, posting.amount_minor())
                              .value_or(INT64_MAX);
        }
      }
    }
  }
}

// Every amount of the wallet is in its one currency: an account opened,
// or a transaction posted, in another is a problem.
void CheckCurrency(const v1::WalletEvent& e, const Where& where,
                   AuditReport& report) {
  std::vector<std::string> named;
  if (e.has_account_opened()) named.push_back(e.account_opened().currency());
  for (const v1::LedgerTransaction* tx : TransactionsOf(e)) {
    if (!tx->currency().empty()) named.push_back(tx->currency());
  }
  for (const std::string& currency : named) {
    if (currency == report.currency) continue;
    Problem(report, At(where, "currency",
                       absl::StrCat("in currency \"", currency.substr(0, 8),
                                    "\", not the wallet's ", report.currency)));
    return;
  }
}

// 2. Sequences and the ledger, replayed from offset 0 into `replayed`.
// Returns the end offset of each partition that has records.
absl::StatusOr<projection::OffsetMap> ReplayWallet(
    eventlog::EventLog& log, ledger::Ledger& replayed,
    ledger::IdempotencyIndex& answered, AuditReport& report) {
  const std::string topic(wire::kWalletTopic);
  absl::flat_hash_map<std::string, uint64_t> last_sequence;
  projection::OffsetMap end_offsets;
  auto partitions = log.PartitionCount(topic);
  const int partition_count = partitions.ok() ? *partitions : 0;
  for (int p = 0; p < partition_count; ++p) {
    ASSIGN_OR_RETURN(auto end, log.EndOffset(topic, p));
    if (end > 0) end_offsets[{topic, p}] = end;
    auto check = [&](const eventlog::StoredRecord& record) {
      ++report.events;
      const Where where{topic, p, record.offset,
                        absl::StrCat(topic, "/", p, "@", record.offset, ": ")};
      auto decoded = wire::DecodeWalletRecord(record);
      if (!decoded.ok()) {
        Problem(report, At(where, "wallet_record",
                           std::string(decoded.status().message())));
        return absl::OkStatus();
      }
      const auto& env = decoded->envelope;
      CheckSequence(env, where, last_sequence, report);
      NoteQuarantine(decoded->event, env, where, report);
      CheckTransactions(decoded->event, where, report);
      CheckCurrency(decoded->event, where, report);
      if (auto s =
              replayed.Apply(env.stream_id(), env.sequence(), decoded->event);
          !s.ok()) {
        Problem(report, At(where, "ledger_replay", std::string(s.message())));
      } else if (!decoded->event.request_id().empty()) {
        answered.Restore(decoded->event.request_id(),
                         decoded->event.request_fingerprint(), env.payload(),
                         env.occurred_at_micros());
      }
      return absl::OkStatus();
    };
    RETURN_IF_ERROR(
        eventlog::ReadPartitionToEnd(log, topic, p, 0, check).status());
  }
  report.streams = static_cast<int64_t>(last_sequence.size());
  return end_offsets;
}

// The replayed ledger balances: its sum is 0, no constrained account is
// negative, and what came in less what went out is what is held inside.
void CheckLedger(const ledger::Ledger& replayed, AuditReport& report) {
  // The same end-state check the wallet makes before it serves.
  if (auto s = replayed.CheckReplayedState(); !s.ok()) {
    Problem(report, "ledger", std::string(s.message()));
  }
  report.ledger = replayed.Summarize();
  const auto& classes = report.ledger.classes;
  auto cls = [&](ledger::AccountClass c) {
    return classes[static_cast<int>(c)].balance;
  };
  if (report.ledger.sum != 0) {
    Problem(report, "ledger",
            absl::StrCat("ledger sum is ", report.ledger.sum, ", not 0"));
  }
  if (report.ledger.negative_constrained_accounts != 0) {
    Problem(report, "ledger",
            absl::StrCat(report.ledger.negative_constrained_accounts,
                         " player/table accounts are negative"));
  }
  report.net_deposits = report.ledger.deposits - report.ledger.withdrawals;
  report.held_inside = cls(ledger::AccountClass::kPlayer) +
                       cls(ledger::AccountClass::kTable) +
                       cls(ledger::AccountClass::kGame) +
                       cls(ledger::AccountClass::kTournament) +
                       cls(ledger::AccountClass::kHouse);
  if (report.net_deposits != report.held_inside) {
    Problem(
        report, "ledger",
        absl::StrCat("deposits − withdrawals (",
                     money::Format(report.net_deposits, report.currency),
                     ") differ from what players, tables and the house "
                     "hold (",
                     money::Format(report.held_inside, report.currency), ")"));
  }
}

// 2b. The wallet's newest snapshot within the range, its tail replayed,
// against the full replay (AuditReport::SnapshotCheck).
absl::Status CheckWalletSnapshot(const std::string& data_dir,
                                 eventlog::EventLog& log,
                                 const ledger::Ledger& replayed,
                                 const ledger::IdempotencyIndex& answered,
                                 AuditReport& report) {
  const snapshot::SnapshotDir dir(data_dir + "/snapshots/wallet",
                                  std::string(snapshot::kWalletSnapshotKind));
  ledger::Ledger loaded({.currency = report.currency});
  ledger::IdempotencyIndex loaded_answers;
  absl::StatusOr<snapshot::WalletSnapshotLoad> load =
      snapshot::LoadWalletSnapshot(dir, log, loaded, loaded_answers,
                                   /*ledger_only=*/true);
  if (!load.ok()) {
    Problem(report, "snapshot", std::string(load.status().message()));
    return absl::OkStatus();
  }
  AuditReport::SnapshotCheck& check = report.snapshot;
  check.refused = load->refused;
  if (load->path.empty()) return absl::OkStatus();
  check.path = load->path;
  check.events = load->events;
  absl::StatusOr<snapshot::WalletReplayed> tail =
      snapshot::ReplayWalletLog(log, load->next, loaded, loaded_answers);
  if (!tail.ok()) {
    Problem(report, "snapshot",
            absl::StrCat(load->path, ": its tail does not replay: ",
                         tail.status().message()));
    return absl::OkStatus();
  }
  check.tail_events = tail->events;
  if (load->answer_store_id.empty()) {
    check.hash = snapshot::WalletStateHash(loaded, loaded_answers);
    check.full_replay_hash = snapshot::WalletStateHash(replayed, answered);
  } else {
    // The answers are in the wallet's answer store, not the snapshot: the
    // ledgers are compared.
    const ledger::IdempotencyIndex none;
    check.hash = snapshot::WalletStateHash(loaded, none);
    check.full_replay_hash = snapshot::WalletStateHash(replayed, none);
  }
  if (check.hash != check.full_replay_hash) {
    Problem(
        report, "snapshot",
        absl::StrCat(load->path, " and its tail hash to ", check.hash,
                     ", a replay from offset 0 to ", check.full_replay_hash));
  }
  return absl::OkStatus();
}

// The live projection's state hash and the offsets it has applied, as read
// before the log (none when there is no live projection). A directory the
// wallet made but never wrote a store in (it stopped before its first
// write) is a projection that has applied nothing: `empty_hash`.
projection::OffsetMap ReadLiveProjection(
    const LiveProjections& live, const std::string& empty_hash,
    const projection::OffsetMap& end_offsets, AuditReport& report) {
  projection::OffsetMap live_offsets;
  if (live.wallet.found) {
    live_offsets = live.wallet.offsets;
    report.live_hash = live.wallet.hash;
  } else if (live.wallet_dir_exists) {
    report.live_hash = empty_hash;
  } else {
    Problem(report, "projection", "no live wallet projection to compare with");
  }
  for (const auto& [where, end] : end_offsets) {
    auto it = live_offsets.find(where);
    const int64_t applied = it == live_offsets.end() ? 0 : it->second;
    if (applied > end) {
      Problem(report,
              AtRecord("projection", where.first, where.second, applied,
                       absl::StrCat("live projection claims offset ", applied,
                                    " of ", where.first, "/", where.second,
                                    " past the log's end ", end)));
    }
    report.live_lag_events += std::max<int64_t>(0, end - applied);
  }
  return live_offsets;
}

// Every balance the rebuilt projection holds, against the replayed ledger.
absl::Status CompareBalances(projection::ProjectionStore& rebuilt,
                             const ledger::Ledger& replayed,
                             AuditReport& report) {
  ASSIGN_OR_RETURN(auto balances, rebuilt.Scan("bal/", "", 100'000'000));
  for (const auto& [key, value] : balances) {
    const std::string account = key.substr(4);
    int64_t projected = 0;
    (void)absl::SimpleAtoi(value, &projected);
    const int64_t in_ledger = replayed.AccountBalance(account);
    ++report.projection_accounts_checked;
    if (projected != in_ledger) {
      Problem(report, AtAccount("balance", account,
                                absl::StrCat("balance of ", account,
                                             ": projection ", projected,
                                             ", ledger replay ", in_ledger)));
    }
  }
  return absl::OkStatus();
}

// A scratch directory of its own under the system's temporary directory
// ($TMPDIR), never in the data directory audited (which may be a read-only
// snapshot); removed with everything in it when the audit ends.
class ScratchDir {
 public:
  static absl::StatusOr<ScratchDir> Make() {
    std::error_code ec;
    std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
    if (ec) tmp = "/tmp";
    std::string pattern = (tmp / "banca-audit-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::ErrnoToStatus(
          errno, absl::StrCat("cannot make a scratch directory ", pattern));
    }
    return ScratchDir(std::move(pattern));
  }
  ScratchDir(ScratchDir&& other) noexcept : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  ScratchDir& operator=(ScratchDir&&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// 6. The projection: rebuild it in a scratch directory up to the offsets
// the live one has applied, compare the bytes, then finish the rebuild and
// compare every balance with the replayed ledger.
absl::Status CheckProjection(const LiveProjections& live,
                             eventlog::EventLog& log,
                             const projection::OffsetMap& end_offsets,
                             const ledger::Ledger& replayed,
                             AuditReport& report) {
  ASSIGN_OR_RETURN(const ScratchDir scratch_dir, ScratchDir::Make());
  ASSIGN_OR_RETURN(auto scratch, projection::ProjectionStore::Open(
                                     scratch_dir.path() + "/wallet"));
  ASSIGN_OR_RETURN(const std::string empty_hash, scratch->StateHash());
  const projection::OffsetMap live_offsets =
      ReadLiveProjection(live, empty_hash, end_offsets, report);
  projection::WalletProjector projector;
  projection::CatchUpOptions until;
  // Partitions the live projection never reached stop at 0.
  projection::OffsetMap bounded = live_offsets;
  for (const auto& [where, end] : end_offsets) bounded.try_emplace(where, 0);
  until.until = &bounded;
  RETURN_IF_ERROR(
      projection::CatchUp(log, *scratch, projector, until).status());
  ASSIGN_OR_RETURN(auto hash, scratch->StateHash());
  report.rebuilt_hash = hash;
  if (!report.live_hash.empty() && report.live_hash != report.rebuilt_hash) {
    Problem(report, "projection",
            "live wallet projection differs from a rebuild from "
            "offset 0 (state hashes differ)");
  }
  RETURN_IF_ERROR(projection::CatchUp(log, *scratch, projector).status());
  return CompareBalances(*scratch, replayed, report);
}

// The reporting service's projections against a rebuild from offset 0, at
// the offsets they hold; nothing when the data directory has none.
absl::Status CheckReportingProjection(const LiveProjections& live,
                                      eventlog::EventLog& log,
                                      AuditReport& report) {
  if (!live.reporting.found) return absl::OkStatus();
  ASSIGN_OR_RETURN(const ScratchDir scratch_dir, ScratchDir::Make());
  ASSIGN_OR_RETURN(projection::RebuildResult r,
                   projection::RebuildReportingFrom(
                       log, live.reporting, scratch_dir.path() + "/reporting"));
  report.reporting_live_hash = r.live_hash;
  report.reporting_rebuilt_hash = r.rebuilt_hash;
  if (!r.equal()) {
    Problem(report, "projection",
            "live reporting projection differs from a rebuild from offset 0 "
            "(state hashes differ)");
  }
  return absl::OkStatus();
}

// The deck keys the tournaments' hands open with (see VerifyDataDir);
// none when no file is given and the data directory has none.
absl::StatusOr<std::optional<seal::DeckKeys>> LoadDeckKeys(
    const std::string& data_dir, const std::string& deck_key_file,
    AuditReport& report) {
  std::string path = deck_key_file;
  if (path.empty()) {
    path = data_dir + "/deck.key";
    if (!std::filesystem::exists(path)) return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot read deck key file ", path));
  }
  std::ostringstream text;
  text << in.rdbuf();
  ASSIGN_OR_RETURN(
      seal::DeckKeys keys,
      AsInvalidArgument(seal::DeckKeys::FromKeyFileText(text.str()), path,
                        ": "));
  report.deck_key_file = path;
  return keys;
}

}  // namespace

namespace {

// The topics the audit reads.
constexpr std::string_view kAuditedTopics[] = {
    wire::kWalletTopic,
    wire::kPokerTableTopics.topic,
    wire::kPokerTableTopics.requests_topic,
    wire::kBankedTableTopics.topic,
    wire::kBankedTableTopics.requests_topic,
    wire::kTournamentTopics.topic,
    wire::kTournamentTopics.requests_topic,
};

// Where each audited partition ends: the range the audit reads.
void NoteRange(const AuditedLog& log, AuditReport& report) {
  for (std::string_view topic : kAuditedTopics) {
    for (const auto& [where, end] : log.ends()) {
      if (where.first == topic) {
        report.range.push_back({where.first, where.second, end});
      }
    }
  }
}

// The records of the range on `topics`: what a phase reads.
int64_t RangeRecords(const AuditReport& report,
                     std::initializer_list<std::string_view> topics) {
  int64_t n = 0;
  for (const AuditedPartition& a : report.range) {
    for (std::string_view t : topics) n += a.topic == t ? a.end : 0;
  }
  return n;
}

// 3-5. The tables' and the tournaments' requests, each carried out
// exactly once, and the tournaments' money and replay.
absl::Status AuditGameTopics(eventlog::EventLog& log,
                             const std::optional<seal::DeckKeys>& deck_keys,
                             AuditProgress& progress, AuditReport& report) {
  auto phase = [&](const char* name, const wire::TableTopics& t) {
    progress.StartPhase(name, RangeRecords(report, {t.topic, t.requests_topic,
                                                    wire::kWalletTopic}));
  };
  phase("banked tables", wire::kBankedTableTopics);
  ASSIGN_OR_RETURN(report.banked, AuditBankedTopic(log));
  MergeProblems(report.problems, report.banked.problems, "banked");
  phase("poker tables", wire::kPokerTableTopics);
  ASSIGN_OR_RETURN(report.poker, AuditTableTopic(log));
  MergeProblems(report.problems, report.poker.problems, "poker");
  phase("tournaments", wire::kTournamentTopics);
  ASSIGN_OR_RETURN(
      report.tournament,
      AuditTournamentTopic(log, deck_keys ? &*deck_keys : nullptr));
  MergeProblems(report.problems, report.tournament.problems, "tournament");
  return absl::OkStatus();
}

// The live projections, read before the log (projection_snapshot.h), so
// the log's range holds every offset they have applied.
absl::StatusOr<LiveProjections> ReadLiveProjections(
    const std::string& data_dir) {
  LiveProjections live;
  const std::string wallet = data_dir + "/projections/wallet";
  live.wallet_dir_exists = std::filesystem::exists(wallet);
  ASSIGN_OR_RETURN(live.wallet, projection::SnapshotProjection(wallet));
  ASSIGN_OR_RETURN(live.reporting, projection::SnapshotProjection(
                                       data_dir + "/projections/reporting"));
  return live;
}

// 1. The log, read beside a running server: an embedded journal's every
// record length and CRC checked up to the prefix it serves (a torn tail,
// what a crash or a write in progress leaves, is reported and not a
// problem); on Kafka the broker and its consumers check the CRCs.
absl::StatusOr<std::unique_ptr<AuditedLog>> OpenAuditedLog(
    const std::string& data_dir, const std::string& log_spec,
    AuditProgress& progress, AuditReport& report) {
  const bool embedded = log_spec.empty() || log_spec == "embedded";
  report.journal_checked_by_kafka = !embedded;
  if (embedded && !std::filesystem::exists(data_dir + "/log")) {
    return absl::NotFoundError(
        absl::StrCat("no event log at ", data_dir, "/log"));
  }
  absl::StatusOr<std::unique_ptr<eventlog::EventLog>> log =
      eventlog::OpenLogBackendBesideWriter(log_spec, data_dir, &report.journal);
  if (!report.journal.ok) {
    Problem(report, "journal", absl::StrCat("journal: ", report.journal.error));
  }
  RETURN_IF_ERROR(Prefixed(log.status(), "cannot open the log: "));
  return AuditedLog::Open(*std::move(log), &progress);
}

}  // namespace

absl::StatusOr<AuditReport> VerifyDataDir(const std::string& data_dir,
                                          const std::string& log_spec,
                                          const std::string& deck_key_file) {
  return VerifyDataDir(data_dir, AuditOptions{.log_spec = log_spec,
                                              .deck_key_file = deck_key_file});
}

absl::StatusOr<AuditReport> VerifyDataDir(const std::string& data_dir,
                                          const AuditOptions& options) {
  AuditReport report;
  report.tool_version = BANCA_VERSION;
  AuditProgress progress(options.progress);
  ASSIGN_OR_RETURN(const std::optional<seal::DeckKeys> deck_keys,
                   LoadDeckKeys(data_dir, options.deck_key_file, report));
  ASSIGN_OR_RETURN(const LiveProjections live, ReadLiveProjections(data_dir));
  ASSIGN_OR_RETURN(
      std::unique_ptr<AuditedLog> log,
      OpenAuditedLog(data_dir, options.log_spec, progress, report));
  NoteRange(*log, report);

  // The ledger is replayed in the currency the wallet's log names.
  progress.StartPhase("wallet", RangeRecords(report, {wire::kWalletTopic}));
  ASSIGN_OR_RETURN(report.currency,
                   WalletCurrencyOr(*log, ledger::LedgerOptions().currency));
  ledger::Ledger replayed({.currency = report.currency});
  ledger::IdempotencyIndex answered;
  ASSIGN_OR_RETURN(const projection::OffsetMap end_offsets,
                   ReplayWallet(*log, replayed, answered, report));
  CheckLedger(replayed, report);
  RETURN_IF_ERROR(
      CheckWalletSnapshot(data_dir, *log, replayed, answered, report));
  RETURN_IF_ERROR(AuditGameTopics(*log, deck_keys, progress, report));
  progress.StartPhase("wallet projection",
                      RangeRecords(report, {wire::kWalletTopic}));
  RETURN_IF_ERROR(CheckProjection(live, *log, end_offsets, replayed, report));
  progress.StartPhase(
      "reporting projection",
      RangeRecords(report, {wire::kWalletTopic, wire::kPokerTableTopics.topic,
                            wire::kBankedTableTopics.topic,
                            wire::kTournamentTopics.topic}));
  RETURN_IF_ERROR(CheckReportingProjection(live, *log, report));
  return report;
}

namespace {

// The journal and the wallet topic.
void FormatLog(const AuditReport& r, std::string& out) {
  const std::string& cur = r.currency;
  if (r.journal_checked_by_kafka) {
    absl::StrAppend(&out,
                    "  journal      on Kafka (record CRCs are checked by the "
                    "broker and its consumers)\n");
  } else {
    absl::StrAppendFormat(&out,
                          "  journal      %d segments, %d records in %d "
                          "batches, %d bytes, CRC32C %s\n",
                          r.journal.segments, r.journal.records,
                          r.journal.batches, r.journal.bytes,
                          r.journal.ok ? "ok" : "FAILED");
  }
  if (r.journal.torn_tail_bytes > 0) {
    absl::StrAppendFormat(&out,
                          "               %d bytes of torn tail after the last "
                          "complete batch (a write in progress, or left by a "
                          "crash and truncated on the next start)\n",
                          r.journal.torn_tail_bytes);
  }
  for (const AuditedPartition& a : r.range) {
    absl::StrAppendFormat(&out, "  range        %s/%d offsets 0 to %d\n",
                          a.topic, a.partition, a.end);
  }
  absl::StrAppendFormat(&out, "  wallet       %d events in %d streams\n",
                        r.events, r.streams);
  for (const auto& [actor, a] : r.adjustments) {
    absl::StrAppendFormat(&out,
                          "               %d operator adjustments by %s, "
                          "moving %s\n",
                          a.count,
                          actor.empty() ? "(no actor recorded)" : actor,
                          money::Format(a.moved_minor, cur));
  }
}

// One tournament's money as the wallet posted it (tournament_flows.h).
void FormatTournamentMoney(const TournamentSummary& s, const std::string& cur,
                           std::string& out) {
  const TournamentFlows& f = s.flows;
  absl::StrAppendFormat(
      &out,
      "               %s (%s%s): paid in %s = fees %s + pool %s + bounties "
      "%s; overlay %s\n",
      s.tournament, s.phase, s.open ? ", money on its way" : "",
      money::Format(f.paid_in, cur), money::Format(f.fees_in, cur),
      money::Format(f.pool_in, cur), money::Format(f.bounties_in, cur),
      money::Format(f.overlay(), cur));
  absl::StrAppendFormat(
      &out,
      "                 pool out: prizes %s + tickets %s + refunds %s + "
      "overlay back %s, left %s; bounties paid %s, refunded %s, left %s; "
      "fees kept %s\n",
      money::Format(f.prizes, cur), money::Format(f.tickets, cur),
      money::Format(f.pool_refunds, cur),
      money::Format(f.overlay_returned, cur), money::Format(f.pool_left, cur),
      money::Format(f.bounties_paid, cur),
      money::Format(f.bounties_refunded, cur),
      money::Format(f.bounties_left, cur), money::Format(f.fees_kept(), cur));
  if (f.tickets_cashed_out > 0) {
    absl::StrAppendFormat(&out,
                          "                 entries won converted to cash "
                          "(TN-29): %s\n",
                          money::Format(f.tickets_cashed_out, cur));
  }
}

// The tournaments: their requests, their replay and their money.
void FormatTournaments(const AuditReport& r, std::string& out) {
  const TournamentAuditReport& t = r.tournament;
  absl::StrAppendFormat(
      &out,
      "  tournament   %d events, %d tournaments (%d finished, %d cancelled): "
      "%d payments and %d money transactions requested; %d carried out "
      "once by the wallet (%d payments refused), %d quarantined, %d not "
      "read by it yet\n",
      t.events, t.tables, t.finished, t.cancelled, t.payments,
      t.money_transactions, t.carried_out, t.payments_refused, t.quarantined,
      t.pending);
  absl::StrAppendFormat(
      &out,
      "               %d hands; %d tournaments replayed through the "
      "director%s\n",
      t.hands, t.replayed,
      r.deck_key_file.empty()
          ? " (no deck key)"
          : absl::StrCat(" (decks opened with ", r.deck_key_file, ")"));
  for (const std::string& note : t.notes) {
    absl::StrAppend(&out, "               note: ", note, "\n");
  }
  for (const TournamentSummary& s : t.summaries) {
    FormatTournamentMoney(s, r.currency, out);
  }
  if (t.tables > static_cast<int64_t>(t.summaries.size())) {
    absl::StrAppend(&out, "               (",
                    t.tables - static_cast<int64_t>(t.summaries.size()),
                    " more tournaments not shown)\n");
  }
}

// The table topics, and the requests the wallet never carried out.
void FormatTables(const AuditReport& r, std::string& out) {
  const std::string& cur = r.currency;
  const TableAuditReport& t = r.poker;
  absl::StrAppendFormat(
      &out,
      "  poker        %d events, %d tables: %d buy-ins, %d hand settlements "
      "(%d transactions), %d cash-outs requested; %d carried out once by "
      "the wallet (%d buy-ins refused), %d quarantined, %d not read by it "
      "yet\n",
      t.events, t.tables, t.buy_ins, t.settlements, t.settlement_transactions,
      t.cash_outs, t.carried_out, t.buy_ins_refused, t.quarantined, t.pending);
  absl::StrAppendFormat(&out, "               rake: hands %s, buy-ins %s\n",
                        money::Format(t.hand_rake_minor, cur),
                        money::Format(t.buy_in_rake_minor, cur));
  const BankedAuditReport& b = r.banked;
  absl::StrAppendFormat(&out,
                        "  banked       %d events, %d tables: %d stakes and %d "
                        "transactions requested, %d carried out once by the "
                        "wallet, %d quarantined, %d not read by it yet\n",
                        b.events, b.tables, b.stakes, b.transactions,
                        b.carried_out, b.quarantined, b.pending);
  absl::StrAppendFormat(&out,
                        "               captured stakes: %d settled or "
                        "refunded once, %d open%s%s\n",
                        b.stakes_ended, b.stakes_open,
                        b.open_rounds.empty() ? "" : " in rounds ",
                        absl::StrJoin(b.open_rounds, ", "));
  FormatTournaments(r, out);
  if (!r.quarantined.empty()) {
    absl::StrAppend(&out, "  quarantined  ", r.quarantined.size(),
                    " request(s) the wallet could never carry out:\n");
    for (const std::string& q : r.quarantined) {
      absl::StrAppend(&out, "               ", q, "\n");
    }
  }
}

// The ledger by account class, and where the deposits are.
void FormatReconciliation(const AuditReport& r, std::string& out) {
  const std::string& cur = r.currency;
  absl::StrAppend(&out, "\nreconciliation (", cur, ")\n");
  for (int c = 0; c < static_cast<int>(r.ledger.classes.size()); ++c) {
    absl::StrAppendFormat(&out, "  %-12s %22s   %d accounts\n",
                          std::string(ledger::AccountClassName(
                              static_cast<ledger::AccountClass>(c))),
                          money::Format(r.ledger.classes[c].balance, cur),
                          r.ledger.classes[c].accounts);
  }
  absl::StrAppendFormat(&out, "  %-12s %22s\n", "ledger sum",
                        money::Format(r.ledger.sum, cur));
  absl::StrAppendFormat(&out, "  deposits − withdrawals = %s − %s = %s\n",
                        money::Format(r.ledger.deposits, cur),
                        money::Format(r.ledger.withdrawals, cur),
                        money::Format(r.net_deposits, cur));
  absl::StrAppendFormat(
      &out,
      "  players + tables + games + tournaments + house = "
      "%s  %s\n",
      money::Format(r.held_inside, cur),
      r.net_deposits == r.held_inside ? "(equal)" : "(MISMATCH)");
  absl::StrAppendFormat(&out, "  transactions %d, open holds %d\n",
                        r.ledger.transactions, r.ledger.open_holds);
}

// The wallet's snapshot and its tail against the full replay.
void FormatSnapshot(const AuditReport& r, std::string& out) {
  const AuditReport::SnapshotCheck& s = r.snapshot;
  if (s.path.empty()) {
    absl::StrAppend(&out, "  wallet snapshot none within the range\n");
  } else {
    absl::StrAppendFormat(&out,
                          "  wallet snapshot %s (%d events) + %d tail events\n",
                          s.path, s.events, s.tail_events);
    absl::StrAppendFormat(&out, "                 %s  %s\n", s.hash,
                          s.hash == s.full_replay_hash
                              ? "(equal to a full replay)"
                              : "(DIFFERENT)");
  }
  for (const std::string& refused : s.refused) {
    absl::StrAppend(&out, "  snapshot refused (not a problem) ", refused, "\n");
  }
}

// The wallet projection against its rebuild, and the verdict.
void FormatProjections(const AuditReport& r, std::string& out) {
  absl::StrAppend(&out, "\nprojections\n");
  absl::StrAppendFormat(&out, "  wallet live    %s\n", r.live_hash);
  absl::StrAppendFormat(
      &out, "  wallet replay  %s  %s\n", r.rebuilt_hash,
      r.live_hash == r.rebuilt_hash ? "(equal)" : "(DIFFERENT)");
  if (!r.reporting_live_hash.empty()) {
    absl::StrAppendFormat(&out, "  reporting live %s\n", r.reporting_live_hash);
    absl::StrAppendFormat(
        &out, "  reporting rebuilt %s  %s\n", r.reporting_rebuilt_hash,
        r.reporting_live_hash == r.reporting_rebuilt_hash ? "(equal)"
                                                          : "(DIFFERENT)");
  }
  absl::StrAppendFormat(
      &out,
      "  %d account balances checked against the ledger "
      "replay; live projection %d offsets behind the log's end\n",
      r.projection_accounts_checked, r.live_lag_events);
  FormatSnapshot(r, out);
  if (r.ok()) {
    absl::StrAppend(&out, "\nRESULT: OK\n");
  } else {
    absl::StrAppend(&out, "\nRESULT: ", r.problems.size(), " PROBLEM(S)\n");
    for (const AuditProblem& p : r.problems) {
      absl::StrAppend(&out, "  - ", p.message, "\n");
    }
  }
}

}  // namespace

std::string FormatAuditReport(const AuditReport& r) {
  std::string out = absl::StrCat("banca audit verify (banca ", r.tool_version,
                                 "), amounts in ", r.currency, "\n");
  FormatLog(r, out);
  FormatTables(r, out);
  FormatReconciliation(r, out);
  FormatProjections(r, out);
  return out;
}

namespace {

// Per audited topic, its partitions' ranges.
nlohmann::ordered_json RangeJson(const AuditReport& r) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const AuditedPartition& a : r.range) {
    nlohmann::ordered_json j;
    j["topic"] = a.topic;
    j["partition"] = a.partition;
    j["from"] = 0;
    j["to"] = a.end;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

std::string AuditReportJson(const AuditReport& r) {
  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (int c = 0; c < static_cast<int>(r.ledger.classes.size()); ++c) {
    classes[std::string(ledger::AccountClassName(
        static_cast<ledger::AccountClass>(c)))] = r.ledger.classes[c].balance;
  }
  nlohmann::ordered_json out;
  out["tool"] = "banca audit verify";
  out["version"] = r.tool_version;
  out["ok"] = r.ok();
  out["currency"] = r.currency;
  out["range"] = RangeJson(r);
  out["events"] = r.events;
  out["streams"] = r.streams;
  out["ledger_sum"] = r.ledger.sum;
  out["deposits"] = r.ledger.deposits;
  out["withdrawals"] = r.ledger.withdrawals;
  out["classes"] = std::move(classes);
  out["live_hash"] = r.live_hash;
  out["replay_hash"] = r.rebuilt_hash;
  if (!r.reporting_live_hash.empty()) {
    out["reporting_live_hash"] = r.reporting_live_hash;
    out["reporting_rebuilt_hash"] = r.reporting_rebuilt_hash;
  }
  if (!r.snapshot.path.empty()) {
    out["wallet_snapshot"] = r.snapshot.path;
    out["wallet_snapshot_hash"] = r.snapshot.hash;
    out["wallet_full_replay_hash"] = r.snapshot.full_replay_hash;
  }
  out["wallet_snapshots_refused"] = r.snapshot.refused.size();
  out["banked_events"] = r.banked.events;
  out["banked_requests"] = r.banked.stakes + r.banked.transactions;
  out["banked_carried_out"] = r.banked.carried_out;
  out["banked_pending"] = r.banked.pending;
  out["banked_stakes_ended"] = r.banked.stakes_ended;
  out["banked_stakes_open"] = r.banked.stakes_open;
  out["table_events"] = r.poker.events;
  out["table_requests"] =
      r.poker.buy_ins + r.poker.settlements + r.poker.cash_outs;
  out["table_carried_out"] = r.poker.carried_out;
  out["table_pending"] = r.poker.pending;
  out["tournament_events"] = r.tournament.events;
  out["tournaments"] = r.tournament.tables;
  out["tournament_requests"] =
      r.tournament.payments + r.tournament.money_transactions;
  out["tournament_carried_out"] = r.tournament.carried_out;
  out["tournament_pending"] = r.tournament.pending;
  out["tournaments_replayed"] = r.tournament.replayed;
  out["tournaments_finished"] = r.tournament.finished;
  out["tournaments_cancelled"] = r.tournament.cancelled;
  out["quarantined"] = r.quarantined.size();
  out["problem_count"] = r.problems.size();
  out["problems"] = ProblemsJson(r.problems);
  return JsonText(out);
}

}  // namespace banca::audit
