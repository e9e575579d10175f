#include "services/audit/banked_audit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/tables/banked_game_state.h"
#include "libs/tables/reveal_wait.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/request_audit.h"

namespace banca::audit {
namespace {

void Problem(BankedAuditReport& report, std::string what) {
  AddProblem(report.problems, std::move(what));
}

// A problem about the record at `partition`/`offset` of `topic` (none
// when the partition is -1: a request without a copy).
void ProblemAt(BankedAuditReport& report, std::string_view topic, int partition,
               int64_t offset, std::string what) {
  if (partition < 0) return Problem(report, std::move(what));
  AddProblem(report.problems,
             AtRecord("", topic, partition, offset, std::move(what)));
}

// What a table asked the wallet to do, by the wallet's request id.
struct Request {
  std::string what;
  // The postings asked for, "account:amount;...", to compare with what the
  // wallet posted.
  std::string postings;
  bool stake = false;
  // Not read yet by the wallet reader that decides it.
  bool pending = false;
  // Where the request is (a quarantine names it so).
  int partition = 0;
  int64_t offset = 0;
};

// What the wallet did under one request id.
struct Outcome {
  int times = 0;
  bool rejected = false;
  std::string postings;
  // The first event under the id, when it is neither a posting nor a
  // refusal: the id is taken by another request.
  std::string foreign;
  // Where it first posted: whether the tables have read it yet.
  int partition = 0;
  int64_t offset = 0;
};

// A stake as the table asked for it, and the transactions that end a
// bet (settled, void, withdrawn, compensation), both by (round reference,
// bet id): a bet id is unique within its round, but the same bet may be
// staked again after a withdrawal.
using BetKey = std::pair<std::string, std::string>;
struct BetStake {
  std::string request_id;
  std::string table_id;
  int64_t round = 0;
  int64_t amount = 0;
  std::string what;
  bool matched = false;
};
struct BetEnding {
  int64_t amount = 0;  // what leaves the wagers account
  std::string what;
};

// One table replayed through its game's state, as the service replays it
// on start: the round it is at when the log ends.
struct TableReplay {
  std::unique_ptr<tables::BankedGameState> state;
  bool broken = false;  // the state refused an event: rounds from the log
  int64_t highest_round = 0;
  // A sealed round waits for its DeckRevealed before it is replayed.
  tables::RevealWait<wire::DecodedBankedEvent> wait;
};

// Applies a table's logged event to its replayed state, once the deck of a
// sealed round is revealed (services/table/reveal_wait.h); the money and
// reveals the state derives are in the log already.
void Replay(BankedAuditReport& report, TableReplay& replay,
            const wire::DecodedBankedEvent& decoded) {
  absl::StatusOr<std::vector<wire::DecodedBankedEvent>> ready =
      replay.wait.Take(decoded);
  if (!ready.ok()) {
    Problem(report, absl::StrCat("banked: table ", decoded.event.table_id(),
                                 " at ", decoded.envelope.event_id(), ": ",
                                 ready.status().message()));
    replay.broken = true;
    return;
  }
  for (const wire::DecodedBankedEvent& d : *ready) {
    const v1::BankedTableEvent& e = d.event;
    if (e.has_money() || e.has_revealed()) continue;
    std::vector<v1::BankedTableEvent> derived;
    if (absl::Status s = replay.state->Apply(e, &derived); !s.ok()) {
      Problem(report,
              absl::StrCat("banked: table ", e.table_id(), " does not accept ",
                           d.envelope.event_id(), ": ", s.message()));
      replay.broken = true;
      return;
    }
  }
}

// Every stake the wallet captured ends exactly once (see the header).
void AuditStakeEndings(
    BankedAuditReport& report,
    const std::map<std::string, TableReplay>& replays,
    const std::map<std::string, Outcome>& outcomes,
    const std::vector<int64_t>& outcomes_read,
    std::map<BetKey, std::vector<BetStake>>& stakes_by_bet,
    const std::map<BetKey, std::vector<BetEnding>>& endings_by_bet) {
  auto captured = [&](const BetStake& s) {
    auto it = outcomes.find(s.request_id);
    return it != outcomes.end() && !it->second.rejected &&
           it->second.foreign.empty();
  };
  // Not answered by the wallet yet (or missing, reported above): an
  // ending for it is not a second problem.
  auto unanswered = [&](const BetStake& s) {
    return !outcomes.contains(s.request_id);
  };
  std::set<std::string> open_rounds;
  for (const auto& [key, endings] : endings_by_bet) {
    std::vector<BetStake>& stakes = stakes_by_bet[key];
    for (const BetEnding& end : endings) {
      auto find = [&](auto&& which) -> BetStake* {
        for (BetStake& s : stakes) {
          if (!s.matched && s.amount == end.amount && which(s)) return &s;
        }
        return nullptr;
      };
      BetStake* match = find(captured);
      if (match == nullptr) match = find(unanswered);
      if (match != nullptr) {
        match->matched = true;
        if (captured(*match)) ++report.stakes_ended;
        continue;
      }
      const bool again =
          std::any_of(stakes.begin(), stakes.end(), [&](const BetStake& s) {
            return s.matched && s.amount == end.amount && captured(s);
          });
      Problem(report,
              absl::StrCat("banked: ", end.what, " ends bet ", key.second,
                           " of round ", key.first,
                           again ? " a second time"
                                 : ", whose stake the wallet never captured"));
    }
  }
  for (const auto& [key, stakes] : stakes_by_bet) {
    for (const BetStake& s : stakes) {
      if (s.matched || !captured(s)) continue;
      const Outcome& o = outcomes.at(s.request_id);
      const bool unread =
          o.partition < static_cast<int>(outcomes_read.size()) &&
          o.offset >= outcomes_read[o.partition];
      int64_t current = 0;
      if (auto it = replays.find(s.table_id); it != replays.end()) {
        const TableReplay& t = it->second;
        current = t.state && !t.broken ? t.state->round() : t.highest_round;
      }
      if (unread || s.round >= current) {
        ++report.stakes_open;
        open_rounds.insert(key.first);
      } else {
        Problem(report,
                absl::StrCat("banked: ", s.what,
                             ", captured by the wallet, is never settled or "
                             "refunded though round ",
                             key.first, " is over"));
      }
    }
  }
  report.open_rounds.assign(open_rounds.begin(), open_rounds.end());
}

// The check of one log, in the order it is read: the banked events
// (ReadEvent), then the wallet's (ReadWallet), then Judge.
class BankedCheck {
 public:
  BankedCheck(BankedAuditReport& report, RequestCopies& copies,
              const ReaderPositions& positions)
      : report_(report), copies_(copies), positions_(positions) {}

  void ReadEvent(const wire::DecodedBankedEvent& decoded) {
    const v1::EventEnvelope& env = decoded.envelope;
    const v1::BankedTableEvent& e = decoded.event;
    if (env.event_id() != absl::StrCat(env.stream_id(), "#", env.sequence())) {
      Problem(report_, absl::StrCat("banked: event id ", env.event_id(),
                                    " does not match its stream/sequence"));
    }
    if (e.has_created()) tables_.insert(e.table_id());
    ReplayEvent(decoded);
    // Where the wallet reads this request: its copy (none: a problem
    // already, and the wallet never reads it).
    const RequestCopies::Copy* copy =
        wire::IsMoneyRequest(e)
            ? copies_.Match(env.event_id(), CanonicalBytes(e), report_.problems)
            : nullptr;
    if (e.has_stake_requested()) ReadStake(decoded, copy);
    if (e.has_money()) ReadMoney(decoded, copy);
  }

  // What the wallet did under the banked request ids (all "banked/...").
  void ReadWallet(int partition, int64_t offset, const v1::WalletEvent& e) {
    const bool outcome = e.has_transaction_posted() || e.has_request_rejected();
    // Under an id a banked event asks for, anything counts: what is no
    // outcome takes the id from the request.
    if (!requests_.contains(e.request_id()) &&
        (!absl::StartsWith(e.request_id(), "banked/") || !outcome)) {
      return;
    }
    Outcome& o = outcomes_[e.request_id()];
    if (o.times == 0) {
      o.partition = partition;
      o.offset = offset;
      if (!outcome) {
        o.foreign = wire::DescribeWalletEvent(e).substr(0, kMaxDescribed);
      }
    }
    ++o.times;
    o.rejected = e.has_request_rejected();
    if (e.has_transaction_posted()) {
      o.postings = Postings(e.transaction_posted().tx());
    }
  }

  // Every request carried out exactly once, or quarantined, or not read
  // yet; every captured stake ended once (`outcomes_read`: how far the
  // tables have read the wallet's answers, by partition).
  void Judge(const Quarantined& quarantined,
             const std::vector<int64_t>& outcomes_read) {
    report_.tables = static_cast<int64_t>(tables_.size());
    for (const auto& [id, r] : requests_) {
      if (quarantined.contains({r.partition, r.offset})) {
        ++report_.quarantined;  // reported with the wallet's events
        continue;
      }
      JudgeRequest(id, r);
    }
    for (const auto& [id, o] : outcomes_) {
      if (!requests_.contains(id)) {
        ProblemAt(report_, wire::kWalletTopic, o.partition, o.offset,
                  absl::StrCat("banked: the wallet carried out request ", id,
                               ", which no banked event asks for"));
      }
    }
    AuditStakeEndings(report_, replays_, outcomes_, outcomes_read,
                      stakes_by_bet_, endings_by_bet_);
  }

 private:
  // Replays the event through its table's game (TableReplay).
  void ReplayEvent(const wire::DecodedBankedEvent& decoded) {
    const v1::BankedTableEvent& e = decoded.event;
    TableReplay& replay = replays_[e.table_id()];
    for (int64_t round : {e.stake_requested().round(), e.money().round(),
                          e.spin().round(), e.dealt().round()}) {
      replay.highest_round = std::max(replay.highest_round, round);
    }
    if (e.has_created()) {
      absl::StatusOr<std::unique_ptr<tables::BankedGameState>> state =
          tables::BankedGameState::Create(e.created(), e.at_micros());
      if (state.ok() && replay.state == nullptr) {
        replay.state = *std::move(state);
      } else {
        Problem(report_, absl::StrCat("banked: ", decoded.envelope.event_id(),
                                      " creates table ", e.table_id(), " ",
                                      replay.state ? "again" : "badly"));
        replay.broken = true;
      }
    } else if (replay.state && !replay.broken) {
      Replay(report_, replay, decoded);
    }
  }

  void ReadStake(const wire::DecodedBankedEvent& decoded,
                 const RequestCopies::Copy* copy) {
    const v1::BankedTableEvent& e = decoded.event;
    const v1::StakeRequested& r = e.stake_requested();
    ++report_.stakes;
    const std::string what =
        absl::StrCat("the stake of ", r.player_id(), " on ", r.bet_id(), " (",
                     decoded.envelope.event_id(), ")");
    Balanced(r.tx(), what);
    const std::string request_id = wire::StakeRequestId(r.saga_id());
    Expect(request_id, Asked(what, r.tx(), true, copy, r.player_id(),
                             ledger::PlayerOwner(r.player_id())));
    stakes_by_bet_[{r.tx().reference().id(), r.tx().bet_id()}].push_back(
        {request_id, e.table_id(), r.round(),
         PostingTo(r.tx(), settlement::WagersAccount(e.table_id())), what});
  }

  void ReadMoney(const wire::DecodedBankedEvent& decoded,
                 const RequestCopies::Copy* copy) {
    const v1::BankedTableEvent& e = decoded.event;
    const std::string& event_id = decoded.envelope.event_id();
    const std::string wagers = settlement::WagersAccount(e.table_id());
    const v1::BankedMoney& m = e.money();
    for (int i = 0; i < m.transactions_size(); ++i) {
      const v1::LedgerTransaction& tx = m.transactions(i);
      ++report_.transactions;
      const std::string what =
          absl::StrCat("transaction ", i, " of ", event_id, " (", m.cause(),
                       ", round ", m.round(), ")");
      Balanced(tx, what);
      Expect(wire::BankedMoneyRequestId(event_id, i),
             Asked(what, tx, false, copy, e.table_id(), wagers));
      endings_by_bet_[{tx.reference().id(), tx.bet_id()}].push_back(
          {-PostingTo(tx, wagers), what});
    }
  }

  // A request for `tx`, read through `copy`: pending unless the wallet
  // reader that decides it (`owner`'s when `id` is valid, as
  // banked_requests.cc chooses) has moved past the copy.
  Request Asked(const std::string& what, const v1::LedgerTransaction& tx,
                bool stake, const RequestCopies::Copy* copy,
                const std::string& id, const std::string& owner) const {
    const int partition = copy ? copy->partition : -1;
    const int64_t offset = copy ? copy->offset : -1;
    const bool pending =
        copy == nullptr ||
        !positions_.Read(ledger::IsValidId(id)
                             ? owner
                             : std::string(wire::kUnnamedRequester),
                         partition, offset);
    return {what, Postings(tx), stake, pending, partition, offset};
  }

  void Expect(const std::string& id, Request r) {
    if (!requests_.emplace(id, std::move(r)).second) {
      Problem(report_, absl::StrCat("banked: request ", id,
                                    " is asked for twice by the tables"));
    }
  }

  void Balanced(const v1::LedgerTransaction& tx, const std::string& what) {
    std::optional<int64_t> sum = Sum(tx);
    if (!sum || *sum != 0) {
      Problem(report_,
              absl::StrCat("banked: ", what, " does not balance (sum ",
                           sum ? absl::StrCat(*sum) : "overflows", ")"));
    }
  }

  // A request not quarantined: carried out exactly once as asked, or
  // pending, or a problem.
  void JudgeRequest(const std::string& id, const Request& r) {
    // Where the wallet reads the request: its copy.
    auto at = [&](std::string what) {
      ProblemAt(report_, wire::kBankedTableTopics.requests_topic, r.partition,
                r.offset, std::move(what));
    };
    auto it = outcomes_.find(id);
    if (it != outcomes_.end() && !it->second.foreign.empty()) {
      at(absl::StrCat("banked: ", r.what,
                      " can never be carried out: its request "
                      "id ",
                      id, " is taken by another request (", it->second.foreign,
                      ")"));
      return;
    }
    if (it == outcomes_.end()) {
      if (r.pending) {
        ++report_.pending;
      } else {
        at(absl::StrCat("banked: ", r.what,
                        " is missing in the wallet (request ", id, ")"));
      }
      return;
    }
    const Outcome& o = it->second;
    if (o.times > 1) {
      at(absl::StrCat("banked: ", r.what, " was carried out ", o.times,
                      " times (request ", id, ")"));
    } else if (o.rejected && !r.stake) {
      at(absl::StrCat("banked: the wallet refused ", r.what, " (request ", id,
                      ")"));
    } else if (!o.rejected && o.postings != r.postings) {
      at(absl::StrCat("banked: the wallet posted ", r.what,
                      " with other postings (request ", id, ")"));
    } else {
      ++report_.carried_out;
    }
  }

  BankedAuditReport& report_;
  RequestCopies& copies_;
  const ReaderPositions& positions_;
  // By the wallet's request id.
  std::map<std::string, Request> requests_;
  std::map<std::string, Outcome> outcomes_;
  std::set<std::string> tables_;
  std::map<std::string, TableReplay> replays_;
  std::map<BetKey, std::vector<BetStake>> stakes_by_bet_;
  std::map<BetKey, std::vector<BetEnding>> endings_by_bet_;
};

}  // namespace

absl::StatusOr<BankedAuditReport> AuditBankedTopic(eventlog::EventLog& log) {
  BankedAuditReport report;
  const wire::TableTopics& topics = wire::kBankedTableTopics;
  // The wallet reads the copies of the money requests (RequestTopic): its
  // positions, and its quarantines, are on their topic.
  ASSIGN_OR_RETURN(
      RequestTopic wallet_reads,
      LoadRequestTopic(log, topics, "banked", &wire::DecodeBankedRecord,
                       report.problems));
  BankedCheck check(report, wallet_reads.copies, wallet_reads.positions);
  RETURN_IF_ERROR(WalkTableTopic<wire::DecodedBankedEvent>(
      log, topics, "banked", &wire::DecodeBankedRecord, report,
      [&](const wire::DecodedBankedEvent& d) { check.ReadEvent(d); }));
  wallet_reads.copies.ReportUnmatched(report.problems);
  // How far the tables have read the wallet's answers, by partition.
  std::vector<int64_t> outcomes_read;
  for (int p = 0; p < Partitions(log, wire::kWalletTopic); ++p) {
    ASSIGN_OR_RETURN(int64_t read,
                     log.CommittedOffset(wire::kBankedStakeOutcomesGroup,
                                         wire::kWalletTopic, p));
    outcomes_read.push_back(read);
  }
  Quarantined quarantined;
  RETURN_IF_ERROR(
      WalkWalletEvents(log, topics.requests_topic, quarantined,
                       [&](int p, int64_t offset, const v1::WalletEvent& e) {
                         check.ReadWallet(p, offset, e);
                       }));
  check.Judge(quarantined, outcomes_read);
  return report;
}

}  // namespace banca::audit
