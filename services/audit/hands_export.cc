#include "services/audit/hands_export.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "libs/cards/card.h"
#include "libs/cards/showdown.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/hand_record.h"
#include "libs/games/poker/phh.h"
#include "libs/games/poker/phh_extras.h"
#include "libs/seal/deck_keys.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/tables/reveal_wait.h"
#include "libs/tables/sealed_decks.h"
#include "libs/tables/table_state.h"
#include "libs/tables/tournament_reveals.h"
#include "libs/tables/tournament_state.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/tournament_codec.h"
#include "services/audit/wallet_currency.h"

namespace banca::audit {
namespace {

namespace poker = games::poker;

constexpr size_t kReadBatch = 512;

// One finished hand, as the engine left it when its last input was applied.
struct FinishedHand {
  int64_t number = 0;
  std::string hand_id;  // what the ledger postings reference
  poker::HandRecord record;
  poker::HandResult result;
  std::vector<poker::Event> events;
  int64_t started_micros = 0;
  // From the HandSettled event (-1: none in the log).
  int transactions = -1;
  // A tournament's hand: amounts are chips, no money moves (TN-4/5).
  bool chips = false;
};

std::string Money(int64_t cents) {
  const char* sign = cents < 0 ? "-" : "";
  const int64_t a = cents < 0 ? -cents : cents;
  return absl::StrFormat("%s%d.%02d", sign, a / 100, a % 100);
}

// Cents as money, or a tournament's chips as they are.
std::string Amount(const FinishedHand& h, int64_t amount) {
  return h.chips ? absl::StrCat(amount) : Money(amount);
}
// With its sign, "+" for a gain.
std::string SignedAmount(const FinishedHand& h, int64_t amount) {
  return amount > 0 ? absl::StrCat("+", Amount(h, amount)) : Amount(h, amount);
}

std::string Timestamp(int64_t micros) {
  if (micros <= 0) return "";
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixMicros(micros),
                          absl::UTCTimeZone());
}

// What the writer needs of the table.
struct TableLabels {
  std::string id;
  std::string name;
  // The money's ISO 4217 code; "" for a tournament's chips.
  std::string currency;
  int action_seconds = 0;
  // Where the hands come from, for the header: "banca.table.events, key
  // table/<id>".
  std::string source;
};

poker::PhhExtras ExtrasOf(const FinishedHand& h, const TableLabels& t) {
  poker::PhhExtras extras = poker::PhhExtrasOf(h.result);
  extras.currency = h.chips ? "" : t.currency;
  extras.time_limit_seconds = t.action_seconds;
  extras.table_name = t.name;
  extras.timestamp = Timestamp(h.started_micros);
  extras.author = "banca hands export";
  extras.event = h.chips ? absl::StrCat("tournament hand ", h.hand_id)
                         : absl::StrCat(t.id, " hand ", h.hand_id);
  return extras;
}

std::string PlayerAt(const poker::HandRecord& r, int seat) {
  for (const poker::SeatedPlayer& p : r.players) {
    if (p.seat == seat) return absl::StrCat(p.player, " (seat ", seat, ")");
  }
  return absl::StrCat("seat ", seat);
}

std::string LedgerLine(const FinishedHand& h) {
  if (h.chips) {
    return absl::StrCat("Chips: tournament hand ", h.hand_id,
                        "; no money moves at a tournament table (TN-4/5)");
  }
  std::string line = absl::StrCat("Ledger: reference HAND ", h.hand_id);
  if (h.transactions > 0) {
    absl::StrAppend(&line, ", ", h.transactions,
                    " transactions, wallet request ids hand/", h.hand_id,
                    "/0..", h.transactions - 1);
  } else if (h.transactions < 0) {
    line += " (no HandSettled event in the log)";
  }
  return line;
}

// What WriteText leaves out: the showdown combinations (HE-61), each
// winner's share, and every player's money for the hand as the ledger
// posts it.
std::string TextTail(const FinishedHand& h) {
  const poker::HandRecord& r = h.record;
  const cards::Game game = r.config.variant == poker::Variant::kOmaha
                               ? cards::Game::kOmaha
                               : cards::Game::kHoldem;
  std::string out;
  bool header = false;
  for (const poker::Event& e : h.events) {
    const auto* shown = std::get_if<poker::ShowdownShown>(&e);
    if (shown == nullptr || !shown->value.valid()) continue;
    if (!header) {
      out += "*** SHOWDOWN HANDS ***\n";
      header = true;
    }
    absl::StrAppend(
        &out, PlayerAt(r, shown->seat), ": ",
        cards::CardsToString(
            std::vector<cards::Card>(shown->cards.begin(), shown->cards.end())),
        " - ",
        cards::DescribeHand(shown->value, cards::Language::kEnglish, game),
        "\n");
  }
  if (!h.result.pots.empty()) {
    out += "*** WINNERS ***\n";
    int k = 0;
    for (const poker::PotResult& pot : h.result.pots) {
      absl::StrAppend(&out, k == 0 ? "Main pot" : absl::StrCat("Side pot ", k),
                      ":");
      for (const poker::SeatAmount& share : pot.shares) {
        absl::StrAppend(&out, " ", PlayerAt(r, share.seat), " ",
                        Amount(h, share.amount));
      }
      out += "\n";
      ++k;
    }
  }
  out += "*** MONEY ***\n";
  for (const poker::PlayerResult& p : h.result.players) {
    absl::StrAppend(&out, PlayerAt(r, p.seat), ": put in ", Amount(h, p.bet),
                    ", won ", Amount(h, p.won), ", net ",
                    SignedAmount(h, p.end_stack - p.start_stack), "\n");
  }
  if (!h.chips) {
    absl::StrAppend(&out, "Rake: ", Money(h.result.rake), " to house/rake\n");
  }
  absl::StrAppend(&out, LedgerLine(h), "\n");
  return out;
}

class Writer {
 public:
  Writer(ExportFormat format, std::ostream& out, HandsExportResult& result)
      : format_(format), out_(out), result_(result) {}

  void Header(const TableLabels& t) {
    table_ = t;
    if (format_ == ExportFormat::kPhh) {
      out_ << "# banca hands export: " << t.id << " \"" << t.name
           << "\", from the event log (" << t.source << ").\n"
           << "# One TOML table per hand, named by banca's hand number (as\n"
           << "# PokerKit's .phhs files). For the operator and auditors: it\n"
           << "# shows every player's hole cards, folded hands included.\n"
           << (t.currency.empty()
                   ? "# Amounts are chips.\n\n"
                   : absl::StrCat("# Amounts are in ", t.currency,
                                  ", the wallet's currency, in its major "
                                  "units (12.34).\n\n"));
    } else {
      out_ << "banca hand histories - " << t.id << " \"" << t.name << "\" - "
           << (t.currency.empty() ? "chips" : t.currency) << "\n"
           << "From the event log (" << t.source << ").\n"
           << "For the operator and auditors: every player's hole cards are "
              "shown, folded\n"
           << "hands included; during play each player saw only their own "
              "and those shown\n"
           << "at showdown. Each hand's id is the reference of its ledger "
              "postings.\n";
    }
  }

  void Hand(const FinishedHand& h) {
    const poker::PhhExtras extras = ExtrasOf(h, table_);
    if (format_ == ExportFormat::kPhh) {
      absl::StatusOr<std::string> phh = poker::WritePhh(h.record, extras);
      if (!phh.ok()) return Skip(h, phh.status());
      out_ << "[" << h.number << "]\n"
           << "# " << LedgerLine(h) << "\n"
           << *phh << "\n";
    } else {
      absl::StatusOr<std::string> text = poker::WriteText(h.record, extras);
      if (!text.ok()) return Skip(h, text.status());
      out_ << "\n"
           << std::string(72, '=') << "\n"
           << "Hand " << h.hand_id << "\n"
           << *text << TextTail(h);
    }
    ++result_.hands_written;
  }

  void Footer() {
    const std::string in_progress =
        result_.hand_in_progress > 0
            ? absl::StrCat(", hand ", result_.hand_in_progress,
                           " in progress (not written)")
            : "";
    const std::string line = absl::StrCat(
        result_.hands_written, " hands written", in_progress,
        result_.skipped.empty()
            ? ""
            : absl::StrCat(", ", result_.skipped.size(), " not written"));
    out_ << (format_ == ExportFormat::kPhh ? "# " : "\n") << line << "\n";
  }

 private:
  void Skip(const FinishedHand& h, const absl::Status& why) {
    const std::string line =
        absl::StrCat("hand ", h.number, " (", h.hand_id,
                     ") not written: ", absl::StatusCodeToString(why.code()),
                     ": ", why.message());
    result_.skipped.push_back(line);
    out_ << (format_ == ExportFormat::kPhh ? "# " : "\n") << line << "\n";
  }

  ExportFormat format_;
  std::ostream& out_;
  HandsExportResult& result_;
  TableLabels table_;
};

HandsExportResult Fail(int code, std::string error) {
  HandsExportResult r;
  r.exit_code = code;
  r.error = std::move(error);
  return r;
}

// Replays one table's events through the table aggregate the service runs,
// and writes each finished hand once its HandSettled (or the next hand)
// is read. An error ends the export; its message says where.
class TableReplay {
 public:
  // `currency`: the wallet's ("" when its log names none: the table's
  // configuration's).
  TableReplay(std::string topic, std::string table_id, std::string currency,
              Writer& writer)
      : topic_(std::move(topic)),
        table_id_(std::move(table_id)),
        currency_(std::move(currency)),
        writer_(writer) {}

  // One record of the table's stream.
  absl::Status Take(const eventlog::StoredRecord& record,
                    const std::string& where) {
    ASSIGN_OR_RETURN(wire::DecodedTableEvent decoded,
                     Prefixed(wire::DecodeTableRecord(record), where));
    // A sealed hand waits for the HandSettled that reveals its deck
    // (libs/tables/reveal_wait.h): no card is known before.
    ASSIGN_OR_RETURN(const std::vector<wire::DecodedTableEvent> ready,
                     Prefixed(wait_.Take(std::move(decoded)), where));
    for (const wire::DecodedTableEvent& d : ready) RETURN_IF_ERROR(Apply(d));
    return absl::OkStatus();
  }

  bool created() const { return state_ != nullptr; }

  // After the last record: the last finished hand, and the one in
  // progress (not written).
  void Finish(HandsExportResult& result) {
    Flush();
    if (wait_.waiting_for()) {
      result.hand_in_progress = *wait_.waiting_for();
    } else if (state_->engine().in_hand()) {
      result.hand_in_progress = state_->hands_started();
    }
  }

 private:
  absl::Status Apply(const wire::DecodedTableEvent& d) {
    const v1::TableEvent& event = d.event;
    const std::string at =
        absl::StrCat(topic_, " event ", d.envelope.event_id(), ": ");
    if (event.has_table_created()) return Create(event.table_created(), at);
    if (state_ == nullptr) {
      return absl::InternalError(
          absl::StrCat(at, "an event before TableCreated"));
    }
    if (event.has_hand_started()) {
      Flush();
      started_micros_ = d.envelope.occurred_at_micros();
    }
    if (event.has_hand_settled() && pending_ &&
        event.hand_settled().hand_number() == pending_->number) {
      pending_->transactions = event.hand_settled().transactions_size();
      if (event.hand_settled().hand_id() != pending_->hand_id) {
        return absl::InternalError(absl::StrCat(at, "HandSettled names hand ",
                                                event.hand_settled().hand_id(),
                                                ", not ", pending_->hand_id));
      }
      Flush();
    }
    std::vector<v1::TableEvent> derived;  // already in the log
    RETURN_IF_ERROR(Prefixed(state_->Apply(event, &derived), at,
                             "the engine does not accept the logged event: "));
    NoteFinished();
    return absl::OkStatus();
  }

  absl::Status Create(const v1::TableCreated& event, const std::string& at) {
    absl::StatusOr<std::unique_ptr<tables::TableState>> created =
        tables::TableState::Create(event);
    if (!created.ok() || state_ != nullptr) {
      return absl::InternalError(absl::StrCat(
          at, "a table that cannot be created: ",
          created.ok() ? "created twice" : created.status().message()));
    }
    state_ = std::move(*created);
    writer_.Header({absl::StrCat("table ", state_->id()), state_->name(),
                    currency_.empty() ? state_->config().currency() : currency_,
                    state_->config().action_seconds(),
                    absl::StrCat(ToAbsl(wire::kTableTopic), ", key table/",
                                 state_->id())});
    return absl::OkStatus();
  }

  // The engine's hand, once finished, waits for its HandSettled.
  void NoteFinished() {
    const poker::Hand* hand = state_->engine().hand();
    if (hand == nullptr || !hand->finished() ||
        state_->hands_started() <= captured_) {
      return;
    }
    captured_ = state_->hands_started();
    FinishedHand h;
    h.number = captured_;
    h.hand_id = settlement::HandId(table_id_, captured_);
    h.record = hand->record();
    h.result = hand->result();
    h.events = hand->events();
    h.started_micros = started_micros_;
    pending_ = std::move(h);
  }

  void Flush() {
    if (pending_) writer_.Hand(*pending_);
    pending_.reset();
  }

  const std::string topic_;
  const std::string table_id_;
  const std::string currency_;
  Writer& writer_;
  std::unique_ptr<tables::TableState> state_;
  tables::RevealWait<wire::DecodedTableEvent> wait_;
  std::optional<FinishedHand> pending_;
  int64_t captured_ = 0;
  int64_t started_micros_ = 0;
};

// Replays one tournament's events through the aggregate the tournament
// service runs (libs/tables/tournament_state.h), each deck opened with the
// deck keys or taken from its hand's reveal, and writes every hand of every
// table as it finishes. Without a key, the replay stops at the first hand
// not revealed (in play at the end of the log).
class TournamentReplay {
 public:
  TournamentReplay(const seal::DeckKeys* keys,
                   const tables::TournamentReveals& reveals, Writer& writer)
      : keys_(keys), reveals_(reveals), writer_(writer) {}

  absl::Status Take(const eventlog::StoredRecord& record,
                    const std::string& where) {
    ASSIGN_OR_RETURN(wire::DecodedTournamentEvent d,
                     Prefixed(wire::DecodeTournamentRecord(record), where));
    if (!stopped_at_.empty()) return absl::OkStatus();
    if (keys_ != nullptr) {
      RETURN_IF_ERROR(Prefixed(tables::OpenDeal(*keys_, d.event), where,
                               "the deck does not open with the key given: "));
    } else if (!reveals_.Fill(d.event).ok()) {
      stopped_at_ = where;  // in play: no later event can apply
      return absl::OkStatus();
    }
    const v1::TournamentEvent& e = d.event;
    if (e.has_created()) {
      ASSIGN_OR_RETURN(state_,
                       Prefixed(tables::TournamentState::Open(e), where));
      writer_.Header({absl::StrCat("tournament ", e.tournament_id()),
                      e.created().name(), "",
                      e.created().config().action_seconds(),
                      absl::StrCat(ToAbsl(wire::kTournamentTopic),
                                   ", key tournament/", e.tournament_id())});
      return absl::OkStatus();
    }
    if (state_ == nullptr) {
      return absl::InternalError(
          absl::StrCat(where, "an event before created"));
    }
    if (e.has_hand_started()) {
      started_[e.hand_started().table()] = d.envelope.occurred_at_micros();
    }
    RETURN_IF_ERROR(Prefixed(state_->ApplyLogged(e), where,
                             "the tournament does not accept the event: "));
    NoteFinished();
    return absl::OkStatus();
  }

  bool created() const { return state_ != nullptr; }
  // Where the replay stopped without a key ("" if it did not).
  const std::string& stopped_at() const { return stopped_at_; }

  // The hands still in progress at the end (not written).
  int64_t InProgress() const {
    int64_t n = 0;
    for (const std::string& t : state_->director().TableNames()) {
      const poker::Hand* hand = state_->director().HandAt(t);
      n += hand != nullptr && !hand->finished();
    }
    return n;
  }

 private:
  void NoteFinished() {
    const games::tournament::Director& d = state_->director();
    for (const std::string& table : d.TableNames()) {
      const poker::Hand* hand = d.HandAt(table);
      if (hand == nullptr || !hand->finished()) continue;
      const int64_t number = hand->record().hand_number;
      if (number <= written_[table]) continue;
      written_[table] = number;
      FinishedHand h;
      h.number = ++hands_;
      h.hand_id = absl::StrCat(state_->id(), "/", table, ".h", number);
      h.record = hand->record();
      h.result = hand->result();
      h.events = hand->events();
      h.started_micros = started_[table];
      h.chips = true;
      writer_.Hand(h);
    }
  }

  const seal::DeckKeys* keys_;
  const tables::TournamentReveals& reveals_;
  Writer& writer_;
  std::unique_ptr<tables::TournamentState> state_;
  std::string stopped_at_;                  // the hand not revealed, "" if none
  std::map<std::string, int64_t> written_;  // by table: the last hand
  std::map<std::string, int64_t> started_;  // by table: its hand's start
  int64_t hands_ = 0;
};

// Reads every record of `stream` on `topic`, in order, into `take`.
// Fills `failed` (exit code and message) when the log cannot be read, the
// topic does not exist (`missing`, kExportNoTable) or `take` refuses a
// record; else returns the records read in the stream's partition.
struct StreamRead {
  int partition = 0;
  int64_t end = 0;
};
absl::StatusOr<StreamRead> ReadStream(
    eventlog::EventLog& log, const std::string& topic,
    const std::string& stream, const std::string& missing,
    const std::function<absl::Status(const eventlog::StoredRecord&,
                                     const std::string&)>& take,
    HandsExportResult* failed) {
  absl::StatusOr<int> partitions = log.PartitionCount(topic);
  if (absl::IsNotFound(partitions.status())) {
    *failed = Fail(kExportNoTable, missing);
    return absl::NotFoundError(missing);
  }
  auto unreadable = [&](const absl::Status& s) {
    *failed = Fail(kExportFailed,
                   absl::StrCat("cannot read the log: ", s.ToString()));
    return s;
  };
  if (!partitions.ok()) return unreadable(partitions.status());
  StreamRead read;
  read.partition = eventlog::PartitionForKey(stream, *partitions);
  absl::StatusOr<int64_t> end = log.EndOffset(topic, read.partition);
  if (!end.ok()) return unreadable(end.status());
  read.end = *end;
  for (int64_t offset = 0; offset < read.end;) {
    absl::StatusOr<std::vector<eventlog::StoredRecord>> records =
        log.Read(topic, read.partition, offset, kReadBatch);
    if (!records.ok()) return unreadable(records.status());
    if (records->empty()) break;
    for (const eventlog::StoredRecord& record : *records) {
      offset = record.offset + 1;
      if (record.key != stream) continue;
      const std::string where =
          absl::StrCat(topic, " partition ", read.partition, " offset ",
                       record.offset, ": ");
      if (absl::Status s = take(record, where); !s.ok()) {
        *failed = Fail(kExportFailed, std::string(s.message()));
        return s;
      }
    }
  }
  return read;
}

}  // namespace

HandsExportResult ExportTableHands(eventlog::EventLog& log,
                                   const std::string& table_id,
                                   ExportFormat format, std::ostream& out) {
  const std::string topic(wire::kTableTopic);
  if (!wire::IsValidTableId(table_id)) {
    return Fail(kExportUsage, absl::StrCat("--table \"", table_id,
                                           "\": a table id is 1-32 of "
                                           "[a-z0-9-]"));
  }
  // The money is the wallet's: its currency, as its log names it.
  absl::StatusOr<std::string> currency = WalletCurrencyOr(log, "");
  if (!currency.ok()) {
    return Fail(kExportFailed, absl::StrCat("cannot read the log: ",
                                            currency.status().ToString()));
  }
  HandsExportResult result;
  Writer writer(format, out, result);
  TableReplay replay(topic, table_id, *currency, writer);
  HandsExportResult failed;
  absl::StatusOr<StreamRead> read = ReadStream(
      log, topic, wire::TableStream(table_id),
      absl::StrCat("no table \"", table_id, "\" in the log: it has ",
                   "no table events (no topic ", topic, ")"),
      [&](const eventlog::StoredRecord& record, const std::string& where) {
        return replay.Take(record, where);
      },
      &failed);
  if (!read.ok()) return failed;
  if (!replay.created()) {
    return Fail(kExportNoTable,
                absl::StrCat("no table \"", table_id, "\" in the log (", topic,
                             " partition ", read->partition, " has ", read->end,
                             " events, none creates it)"));
  }
  replay.Finish(result);
  writer.Footer();
  result.exit_code = result.skipped.empty() ? kExportOk : kExportPartial;
  return result;
}

HandsExportResult ExportTournamentHands(eventlog::EventLog& log,
                                        const std::string& tournament_id,
                                        const seal::DeckKeys* keys,
                                        ExportFormat format,
                                        std::ostream& out) {
  const std::string topic(wire::kTournamentTopic);
  if (!wire::IsValidTableId(tournament_id)) {
    return Fail(kExportUsage,
                absl::StrCat("--tournament \"", tournament_id,
                             "\": a tournament id is 1-32 of [a-z0-9-]"));
  }
  const std::string stream = wire::TournamentStream(tournament_id);
  const std::string missing =
      absl::StrCat("no tournament \"", tournament_id,
                   "\" in the log (no topic ", topic, ")");
  HandsExportResult failed;
  // Without a key, a first reading finds the decks the hands revealed.
  tables::TournamentReveals reveals;
  if (keys == nullptr) {
    absl::StatusOr<StreamRead> noted = ReadStream(
        log, topic, stream, missing,
        [&](const eventlog::StoredRecord& record,
            const std::string& where) -> absl::Status {
          ASSIGN_OR_RETURN(
              wire::DecodedTournamentEvent d,
              Prefixed(wire::DecodeTournamentRecord(record), where));
          return Prefixed(reveals.Note(d.event), where);
        },
        &failed);
    if (!noted.ok()) return failed;
  }
  HandsExportResult result;
  Writer writer(format, out, result);
  TournamentReplay replay(keys, reveals, writer);
  absl::StatusOr<StreamRead> read = ReadStream(
      log, topic, stream, missing,
      [&](const eventlog::StoredRecord& record, const std::string& where) {
        return replay.Take(record, where);
      },
      &failed);
  if (!read.ok()) return failed;
  if (!replay.created()) {
    return Fail(kExportNoTable, absl::StrCat("no tournament \"", tournament_id,
                                             "\" in the log"));
  }
  result.hand_in_progress = replay.InProgress();
  if (!replay.stopped_at().empty()) {
    result.skipped.push_back(absl::StrCat(
        "the hands from ", replay.stopped_at(),
        "on are not written: a hand in play, its deck not revealed yet (the "
        "deck key exports the hands finished since)"));
  }
  writer.Footer();
  result.exit_code = result.skipped.empty() ? kExportOk : kExportPartial;
  return result;
}

}  // namespace banca::audit
