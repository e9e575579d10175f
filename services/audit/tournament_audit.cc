#include "services/audit/tournament_audit.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/director.h"
#include "libs/games/tournament/money_move.h"
#include "libs/ledger/account.h"
#include "libs/tables/sealed_decks.h"
#include "libs/tables/tournament_reveals.h"
#include "libs/tables/tournament_state.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/tournament_codec.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/request_audit.h"

namespace banca::audit {
namespace {

namespace tn = games::tournament;

constexpr char kPrefix[] = "tournament/";

void Problem(TournamentAuditReport& report, std::string what) {
  AddProblem(report.problems, absl::StrCat("tournament: ", what));
}

// A note (not a problem), up to kMaxAuditProblems of them.
void Note(TournamentAuditReport& report, std::string note) {
  if (report.notes.size() < kMaxAuditProblems) {
    report.notes.push_back(std::move(note));
  } else if (report.notes.size() == kMaxAuditProblems) {
    report.notes.push_back("… more notes not shown");
  }
}

// A problem about a request, at its copy (none when it has no copy:
// partition -1).
void ProblemAt(TournamentAuditReport& report, int partition, int64_t offset,
               std::string what) {
  if (partition < 0) return Problem(report, std::move(what));
  AddProblem(report.problems,
             AtRecord("", wire::kTournamentTopics.requests_topic, partition,
                      offset, absl::StrCat("tournament: ", what)));
}

// What a tournament asked the wallet to do, by the wallet's request id.
struct Request {
  std::string tournament;
  std::string what;
  std::string postings;  // Postings(tx), to compare with what was posted
  bool payment = false;
  bool pending = false;  // not read yet by the wallet reader deciding it
  int partition = 0;     // where its copy is (a quarantine names it so)
  int64_t offset = 0;
};

// What the wallet did under one request id.
struct Outcome {
  int times = 0;
  bool rejected = false;
  std::string postings;  // the first posting's
  // The first event under the id, when it is neither a posting nor a
  // refusal: the id is taken by another request.
  std::string foreign;
  std::vector<v1::LedgerTransaction> posted;  // every posting under the id
};

// A payment saga as the tournament logged it.
struct Saga {
  // A free entry (a freeroll's): nothing to post, no capture awaited.
  bool free = false;
  bool captured = false;
  bool refused = false;
  bool timed_out = false;
};

// One tournament replayed through its state, as the service replays it.
struct Tournament {
  bool created = false;
  std::unique_ptr<tables::TournamentState> state;
  bool broken = false;   // an event was refused (a problem said so)
  std::string unopened;  // why its hands cannot be replayed
  bool cancel_logged = false;
  bool open = false;  // money on its way (TournamentSummary::open)
};

// Whether `account` is tournament money: a tournament's accounts, the
// fees or the overlay.
bool IsTournamentMoney(const std::string& account) {
  return absl::StartsWith(account, kPrefix) || account == tn::kFeesAccount ||
         account == tn::kOverlayAccount;
}

// The check of one log, in the order it is read: the tournaments' events
// (ReadEvent), then the wallet's (ReadWallet), then Judge.
class TournamentCheck {
 public:
  TournamentCheck(TournamentAuditReport& report, RequestCopies& copies,
                  const ReaderPositions& positions,
                  const seal::DeckKeys* deck_keys,
                  const tables::TournamentReveals& reveals)
      : report_(report),
        copies_(copies),
        positions_(positions),
        deck_keys_(deck_keys),
        reveals_(reveals) {}

  void ReadEvent(const wire::DecodedTournamentEvent& decoded) {
    const v1::EventEnvelope& env = decoded.envelope;
    const v1::TournamentEvent& e = decoded.event;
    if (env.event_id() != absl::StrCat(env.stream_id(), "#", env.sequence())) {
      Problem(report_, absl::StrCat("event id ", env.event_id(),
                                    " does not match its stream/sequence"));
    }
    if (env.stream_id() != wire::TournamentStream(e.tournament_id())) {
      Problem(report_,
              absl::StrCat(env.event_id(), " is an event of tournament ",
                           e.tournament_id(), " on another stream"));
    }
    Tournament& t = tournaments_[e.tournament_id()];
    if (e.has_hand_started()) ++report_.hands;
    if (e.has_cancelled()) t.cancel_logged = true;
    Replay(t, decoded);
    const RequestCopies::Copy* copy =
        wire::IsMoneyRequest(e)
            ? copies_.Match(env.event_id(), CanonicalBytes(e), report_.problems)
            : nullptr;
    if (e.has_payment_requested()) ReadPayment(decoded, copy);
    if (e.has_money()) ReadMoney(decoded, copy);
    if (e.has_payment_captured()) {
      ReadSagaEnd(decoded, e.payment_captured().saga_id(), true, false);
    }
    if (e.has_payment_refused()) {
      ReadSagaEnd(decoded, e.payment_refused().saga_id(), false,
                  e.payment_refused().timed_out());
    }
  }

  // What the wallet did under the tournaments' request ids (all
  // "tournament/..."), and every posting of tournament money.
  void ReadWallet(const v1::WalletEvent& e) {
    const bool ours = absl::StartsWith(e.request_id(), kPrefix);
    if (!ours) NoteForeignPostings(e);
    const bool outcome = e.has_transaction_posted() || e.has_request_rejected();
    // Under an id a tournament asks for, anything counts: what is no
    // outcome takes the id from the request.
    if (!requests_.contains(e.request_id()) && (!ours || !outcome)) return;
    Outcome& o = outcomes_[e.request_id()];
    if (o.times == 0 && !outcome) {
      o.foreign = wire::DescribeWalletEvent(e).substr(0, kMaxDescribed);
    }
    ++o.times;
    o.rejected = e.has_request_rejected();
    if (e.has_transaction_posted()) {
      if (o.posted.empty()) o.postings = Postings(e.transaction_posted().tx());
      o.posted.push_back(e.transaction_posted().tx());
    }
  }

  void Judge(const Quarantined& quarantined) {
    for (const auto& [id, t] : tournaments_) report_.tables += t.created;
    for (const auto& [id, r] : requests_) {
      if (quarantined.contains({r.partition, r.offset})) {
        ++report_.quarantined;  // reported with the wallet's events
        tournaments_[r.tournament].open = true;
        continue;
      }
      JudgeRequest(id, r);
    }
    for (const auto& [id, o] : outcomes_) {
      if (!requests_.contains(id)) {
        Problem(report_, absl::StrCat("the wallet carried out request ", id,
                                      ", which no tournament event asks for"));
      }
    }
    for (const auto& [id, saga] : sagas_) JudgeSaga(id, saga);
    std::map<std::string, TournamentFlowTally> tallies;
    for (const auto& [id, r] : requests_) {
      auto o = outcomes_.find(id);
      if (o == outcomes_.end()) continue;
      TournamentFlowTally& tally =
          tallies.try_emplace(r.tournament, r.tournament).first->second;
      for (const v1::LedgerTransaction& tx : o->second.posted) {
        tally.Add(id, tx, report_.problems);
      }
    }
    for (auto& [id, t] : tournaments_) {
      auto tally = tallies.try_emplace(id, id).first;
      JudgeTournament(id, t, tally->second);
    }
  }

 private:
  // Applies the logged event to its tournament's replayed state.
  void Replay(Tournament& t, const wire::DecodedTournamentEvent& decoded) {
    const v1::TournamentEvent& e = decoded.event;
    const std::string& where = decoded.envelope.event_id();
    if (e.has_created()) {
      absl::StatusOr<std::unique_ptr<tables::TournamentState>> state =
          tables::TournamentState::Open(e);
      if (t.created || !state.ok()) {
        Problem(
            report_,
            absl::StrCat(where, " creates tournament ", e.tournament_id(), " ",
                         t.created ? "again" : state.status().message()));
        t.broken = true;
      } else {
        t.state = *std::move(state);
      }
      t.created = true;
      return;
    }
    if (t.state == nullptr) {
      if (!t.broken) {
        Problem(report_, absl::StrCat(where, " comes before tournament ",
                                      e.tournament_id(), " is created"));
      }
      t.broken = true;
      return;
    }
    if (t.broken || !t.unopened.empty()) return;
    v1::TournamentEvent open = e;
    if (!OpenDeck(t, where, open)) return;
    if (absl::Status s = t.state->ApplyLogged(open); !s.ok()) {
      Problem(report_,
              absl::StrCat("tournament ", e.tournament_id(),
                           " does not accept ", where, ": ", s.message()));
      t.broken = true;
    }
  }

  // Opens a hand's sealed deck for the replay, with a deck key or from the
  // hand's reveal; false when it cannot (the replay of `t` stops there).
  bool OpenDeck(Tournament& t, const std::string& where,
                v1::TournamentEvent& event) {
    if (!event.has_hand_started() || !event.hand_started().has_sealed_deck()) {
      return true;
    }
    absl::Status s = absl::FailedPreconditionError("no deck key was given");
    if (deck_keys_ != nullptr && !deck_keys_->empty()) {
      s = tables::OpenDeal(*deck_keys_, event);
      if (s.ok()) return true;
      if (!absl::IsFailedPrecondition(s) && !absl::IsNotFound(s)) {
        Problem(report_, absl::StrCat("the deck of ", where,
                                      " does not open: ", s.message()));
        t.broken = true;
        return false;
      }
    }
    // No key of ours opens it: the deck its hand's end revealed.
    if (reveals_.Fill(event).ok()) return true;
    t.unopened =
        absl::StrCat(s.message(), ", and ", where, " is not revealed yet");
    return false;
  }

  void ReadPayment(const wire::DecodedTournamentEvent& decoded,
                   const RequestCopies::Copy* copy) {
    const v1::TournamentEvent& e = decoded.event;
    const v1::PaymentRequested& r = e.payment_requested();
    ++report_.payments;
    const std::string what =
        absl::StrCat("the payment ", r.saga_id(), " of ", r.player_id(), " (",
                     decoded.envelope.event_id(), ")");
    // The wallet's deciding owner (services/wallet/tournament_requests.cc).
    const bool named =
        ledger::IsValidId(r.player_id()) &&
        wire::IsValidTableId(e.tournament_id()) &&
        wire::TournamentOfPaymentSaga(r.saga_id()) == e.tournament_id();
    if (!named) {
      Problem(
          report_,
          absl::StrCat(
              what, " names no valid player, or a saga of another tournament"));
    }
    const std::string owner = !named ? std::string(wire::kUnnamedRequester)
                              : r.use_ticket()
                                  ? absl::StrCat(kPrefix, e.tournament_id())
                                  : ledger::PlayerOwner(r.player_id());
    Balanced(r.tx(), what);
    Expect(r.saga_id(),
           Asked(e.tournament_id(), what, r.tx(), true, copy, owner));
    sagas_.try_emplace(r.saga_id(), Saga{.free = r.tx().postings().empty()});
  }

  void ReadMoney(const wire::DecodedTournamentEvent& decoded,
                 const RequestCopies::Copy* copy) {
    const v1::TournamentEvent& e = decoded.event;
    const v1::TournamentMoney& m = e.money();
    ++report_.money_events;
    const std::string owner = wire::IsValidTableId(e.tournament_id())
                                  ? absl::StrCat(kPrefix, e.tournament_id())
                                  : std::string(wire::kUnnamedRequester);
    for (int i = 0; i < m.transactions_size(); ++i) {
      ++report_.money_transactions;
      const std::string what =
          absl::StrCat("transaction ", i, " of money ", m.number(), " (",
                       decoded.envelope.event_id(), ")");
      Balanced(m.transactions(i), what);
      Expect(wire::TournamentMoneyRequestId(e.tournament_id(), m.number(), i),
             Asked(e.tournament_id(), what, m.transactions(i), false, copy,
                   owner));
    }
  }

  void ReadSagaEnd(const wire::DecodedTournamentEvent& decoded,
                   const std::string& saga_id, bool captured, bool timed_out) {
    auto it = sagas_.find(saga_id);
    if (it == sagas_.end()) {
      Problem(report_, absl::StrCat(decoded.envelope.event_id(), " ends ",
                                    saga_id, ", a payment never requested"));
      return;
    }
    Saga& saga = it->second;
    if (captured) {
      if (saga.captured) {
        Problem(report_, absl::StrCat(decoded.envelope.event_id(), " captures ",
                                      saga_id, " again"));
      }
      saga.captured = true;
    } else {
      saga.refused = true;
      saga.timed_out = timed_out;
    }
  }

  // A posting of tournament money under a request that is no
  // tournament's: no tournament asked for it.
  void NoteForeignPostings(const v1::WalletEvent& e) {
    for (const v1::LedgerTransaction* tx : TransactionsOf(e)) {
      for (const v1::Posting& p : tx->postings()) {
        if (!IsTournamentMoney(p.account())) continue;
        Problem(report_,
                absl::StrCat("the wallet moved ", p.account(), " by ",
                             p.amount_minor(), " under request ",
                             e.request_id(), ", which is no tournament's"));
        break;
      }
    }
  }

  Request Asked(const std::string& tournament, const std::string& what,
                const v1::LedgerTransaction& tx, bool payment,
                const RequestCopies::Copy* copy,
                const std::string& owner) const {
    const int partition = copy ? copy->partition : -1;
    const int64_t offset = copy ? copy->offset : -1;
    const bool pending =
        copy == nullptr || !positions_.Read(owner, partition, offset);
    return {tournament, what,      Postings(tx), payment,
            pending,    partition, offset};
  }

  void Expect(const std::string& id, Request r) {
    if (!requests_.emplace(id, std::move(r)).second) {
      Problem(report_, absl::StrCat("request ", id, " is asked for twice"));
    }
  }

  void Balanced(const v1::LedgerTransaction& tx, const std::string& what) {
    std::optional<int64_t> sum = Sum(tx);
    if (!sum || *sum != 0) {
      Problem(report_,
              absl::StrCat(what, " does not balance (sum ",
                           sum ? absl::StrCat(*sum) : "overflows", ")"));
    }
  }

  // A request not quarantined: carried out exactly once as asked, or
  // pending, or a problem.
  void JudgeRequest(const std::string& id, const Request& r) {
    auto at = [&](std::string what) {
      ProblemAt(report_, r.partition, r.offset, std::move(what));
    };
    Tournament& t = tournaments_[r.tournament];
    auto it = outcomes_.find(id);
    if (it != outcomes_.end() && !it->second.foreign.empty()) {
      at(absl::StrCat(r.what, " can never be carried out: its request id ", id,
                      " is taken by another request (", it->second.foreign,
                      ")"));
      t.open = true;
      return;
    }
    if (it == outcomes_.end()) {
      t.open = true;
      if (r.pending) {
        ++report_.pending;
      } else {
        at(absl::StrCat(r.what, " is missing in the wallet (request ", id,
                        ")"));
      }
      return;
    }
    const Outcome& o = it->second;
    if (o.times > 1) {
      at(absl::StrCat(r.what, " was carried out ", o.times, " times (request ",
                      id, ")"));
    } else if (o.rejected && !r.payment) {
      at(absl::StrCat("the wallet refused ", r.what, " (request ", id, ")"));
    } else if (!o.rejected && o.postings != r.postings) {
      at(absl::StrCat("the wallet posted ", r.what,
                      " with other postings (request ", id, ")"));
    } else {
      ++report_.carried_out;
      // A free entry's empty transaction is refused by the ledger: no
      // payment was refused.
      report_.payments_refused += o.rejected && !r.postings.empty();
    }
  }

  // The tournament's side of a payment against the wallet's.
  void JudgeSaga(const std::string& id, const Saga& saga) {
    auto it = outcomes_.find(id);
    const bool answered = it != outcomes_.end() && it->second.foreign.empty();
    const bool posted = answered && !it->second.posted.empty();
    Tournament& t = tournaments_[requests_.at(id).tournament];
    if (saga.captured && !posted) {
      Problem(report_,
              absl::StrCat("payment ", id,
                           " was captured by the tournament, but the wallet ",
                           answered ? "refused it" : "never posted it"));
    }
    if (saga.refused && !saga.timed_out && posted) {
      Problem(report_,
              absl::StrCat(
                  "payment ", id,
                  " was refused by the tournament, but the wallet posted it"));
    }
    // An answer the tournament has not read yet (a capture after the
    // timeout is paid back once read); a free entry awaits none.
    const bool unread = answered && !saga.free && !saga.captured &&
                        (!saga.refused || (saga.timed_out && posted));
    if (unread) t.open = true;
  }

  void JudgeTournament(const std::string& id, const Tournament& t,
                       const TournamentFlowTally& tally) {
    const TournamentFlows& f = tally.flows();
    const bool replayed = t.state && !t.broken && t.unopened.empty();
    TournamentSummary summary{id, "not replayed", replayed, t.open, f};
    if (replayed) {
      ++report_.replayed;
      summary.phase = std::string(tn::PhaseName(t.state->director().phase()));
    } else if (t.cancel_logged) {
      summary.phase = "cancelled";
    }
    if (!t.unopened.empty()) {
      Note(report_,
           absl::StrCat(id, ": hands not replayed (", t.unopened,
                        "): money checked from the wallet's postings alone"));
    }
    report_.finished += summary.phase == "finished";
    report_.cancelled += summary.phase == "cancelled";
    const std::string of = absl::StrCat("tournament ", id, ": ");
    if (f.overflow) {
      AddProblem(report_.problems, absl::StrCat(of, "its sums overflow"));
    }
    if (f.overlay() < 0) {
      AddProblem(
          report_.problems,
          absl::StrCat(of, "the overlay given back (", f.overlay_returned,
                       ") exceeds the overlay paid (", f.overlay_paid, ")"));
    }
    // Payouts follow payments, so the pool never pays more than it got,
    // not even with money on its way (the ledger refuses it too).
    const bool over =
        summary.phase == "finished" || summary.phase == "cancelled";
    if (f.pool_left < 0 || f.bounties_left < 0) {
      AddProblem(report_.problems,
                 absl::StrCat(of, "pays out more than it holds: prize pool ",
                              f.pool_left, ", bounties ", f.bounties_left));
    } else if (over && !t.open && (f.pool_left != 0 || f.bounties_left != 0)) {
      AddProblem(
          report_.problems,
          absl::StrCat(of, summary.phase, ", yet its prize pool holds ",
                       f.pool_left, " and its bounties ", f.bounties_left));
    }
    if (replayed && !t.open) JudgeAgainstReplay(of, *t.state, tally);
    if (report_.summaries.size() < kMaxTournamentSummaries) {
      report_.summaries.push_back(std::move(summary));
    }
  }

  // The money posted against what the director decided.
  void JudgeAgainstReplay(const std::string& of,
                          const tables::TournamentState& state,
                          const TournamentFlowTally& tally) {
    const tn::Director& d = state.director();
    if (tally.flows().overlay() != d.overlay()) {
      AddProblem(report_.problems,
                 absl::StrCat(of, "the wallet posted an overlay of ",
                              tally.flows().overlay(),
                              ", the director decided ", d.overlay()));
    }
    std::map<std::string, int64_t> placed;
    for (const tn::Standing& s : d.Standings()) {
      if (s.prize != 0) placed[s.player] += s.prize;
    }
    std::map<std::string, int64_t> posted;
    for (const auto& [player, prize] : tally.prizes_by_player()) {
      if (prize != 0) posted[player] = prize;
    }
    for (const auto& [player, prize] : placed) {
      auto it = posted.find(player);
      const int64_t paid = it == posted.end() ? 0 : it->second;
      if (paid != prize) {
        AddProblem(report_.problems,
                   absl::StrCat(of, player, "'s places are worth ", prize,
                                ", the wallet posted prizes of ", paid));
      }
    }
    for (const auto& [player, paid] : posted) {
      if (!placed.contains(player)) {
        AddProblem(report_.problems,
                   absl::StrCat(of, "the wallet posted prizes of ", paid,
                                " to ", player, ", who has no paid place"));
      }
    }
  }

  TournamentAuditReport& report_;
  RequestCopies& copies_;
  const ReaderPositions& positions_;
  const seal::DeckKeys* deck_keys_;
  const tables::TournamentReveals& reveals_;
  std::map<std::string, Tournament> tournaments_;
  // By the wallet's request id.
  std::map<std::string, Request> requests_;
  std::map<std::string, Outcome> outcomes_;
  std::map<std::string, Saga> sagas_;
};

}  // namespace

absl::StatusOr<TournamentAuditReport> AuditTournamentTopic(
    eventlog::EventLog& log, const seal::DeckKeys* deck_keys) {
  TournamentAuditReport report;
  const wire::TableTopics& topics = wire::kTournamentTopics;
  ASSIGN_OR_RETURN(
      RequestTopic wallet_reads,
      LoadRequestTopic(log, topics, "tournament", &wire::DecodeTournamentRecord,
                       report.problems));
  // The decks the hands revealed, for a replay with no key that opens them.
  tables::TournamentReveals reveals;
  RETURN_IF_ERROR(ReadTopic(
      log, topics.topic, [&](int, const eventlog::StoredRecord& record) {
        absl::StatusOr<wire::DecodedTournamentEvent> d =
            wire::DecodeTournamentRecord(record);
        if (!d.ok()) return;  // a problem on the second reading
        if (absl::Status s = reveals.Note(d->event); !s.ok()) {
          Problem(report,
                  absl::StrCat(d->envelope.event_id(), ": ", s.message()));
        }
      }));
  TournamentCheck check(report, wallet_reads.copies, wallet_reads.positions,
                        deck_keys, reveals);
  RETURN_IF_ERROR(WalkTableTopic<wire::DecodedTournamentEvent>(
      log, topics, "tournament", &wire::DecodeTournamentRecord, report,
      [&](const wire::DecodedTournamentEvent& d) { check.ReadEvent(d); }));
  wallet_reads.copies.ReportUnmatched(report.problems);
  Quarantined quarantined;
  RETURN_IF_ERROR(WalkWalletEvents(
      log, topics.requests_topic, quarantined,
      [&](int, int64_t, const v1::WalletEvent& e) { check.ReadWallet(e); }));
  check.Judge(quarantined);
  return report;
}

}  // namespace banca::audit
