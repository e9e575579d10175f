#include "services/audit/table_audit.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/request_audit.h"

namespace banca::audit {
namespace {

// One step the wallet takes for a request, and the outcome that is its.
struct Step {
  std::string id;
  enum class Kind { kHold, kCapture, kPost } kind;
  std::string player;    // kHold
  int64_t amount = 0;    // kHold, kCapture
  std::string to;        // kCapture: the account credited
  std::string postings;  // kPost
  v1::PostingReason reason = v1::POSTING_REASON_UNSPECIFIED;  // kPost
};

// A money request of a table, and where it is.
struct Request {
  std::string what;
  int partition = 0;
  int64_t offset = 0;
  // The reader that decides it has moved past it.
  bool read = false;
  // In order; a buy-in's steps after a refused hold are not taken.
  std::vector<Step> steps;
  bool buy_in = false;
  int64_t buy_in_rake = 0;
};

// What the wallet logged under one step's id.
struct Seen {
  int times = 0;
  // The first event is the step's outcome; for a hold, a refusal.
  bool matches = false;
  bool refused = false;
  // The first event is of the step's kind (and, for a posting, reason)
  // but moves other money: the request was carried out otherwise than
  // asked, rather than its id taken by another request.
  bool altered = false;
  std::string other;  // the first event, when it is not
};

bool Matches(const Step& step, const v1::WalletEvent& e, bool* refused) {
  switch (step.kind) {
    case Step::Kind::kHold:
      if (e.has_request_rejected()) {
        *refused = true;
        return e.request_rejected().player_id() == step.player;
      }
      return e.has_hold_placed() &&
             e.hold_placed().player_id() == step.player &&
             e.hold_placed().amount_minor() == step.amount;
    case Step::Kind::kCapture:
      return e.has_hold_captured() &&
             e.hold_captured().amount_minor() == step.amount &&
             PostingTo(e.hold_captured().tx(), step.to) == step.amount;
    case Step::Kind::kPost:
      return e.has_transaction_posted() &&
             Postings(e.transaction_posted().tx()) == step.postings;
  }
  return false;
}

// Whether `e` is of `step`'s kind (a posting: of its reason).
bool SameKind(const Step& step, const v1::WalletEvent& e) {
  switch (step.kind) {
    case Step::Kind::kHold:
      return e.has_hold_placed();
    case Step::Kind::kCapture:
      return e.has_hold_captured();
    case Step::Kind::kPost:
      return e.has_transaction_posted() &&
             e.transaction_posted().tx().reason() == step.reason;
  }
  return false;
}

// The first account of a poker table in `tables` that `e` moves money of
// ("table/<id>/..."; settlement::SeatAccount, PotAccount), or "".
std::string PokerTableAccount(const v1::WalletEvent& e,
                              const std::set<std::string>& tables) {
  for (const v1::LedgerTransaction* tx : TransactionsOf(e)) {
    for (const v1::Posting& posting : tx->postings()) {
      const std::string& account = posting.account();
      if (!absl::StartsWith(account, "table/")) continue;
      const std::string_view rest = std::string_view(account).substr(6);
      if (tables.contains(std::string(rest.substr(0, rest.find('/'))))) {
        return account;
      }
    }
  }
  return "";
}

// Whether a wallet request id has the shape of a poker table's step.
bool LooksLikeTableStep(const std::string& id) {
  return absl::StartsWith(id, "hand/") ||
         (absl::StartsWith(id, "table/") && (absl::StrContains(id, "/buyin/") ||
                                             absl::EndsWith(id, "/cash-out")));
}

// `e`, at `partition`/`offset` of the wallet topic, is for no table
// event's step: a problem when its id looks like a step, or when it moves
// money of a poker table in `tables`.
void CheckUnrequested(const v1::WalletEvent& e, int partition, int64_t offset,
                      const std::set<std::string>& tables,
                      TableAuditReport& report) {
  std::string what;
  if (LooksLikeTableStep(e.request_id())) {
    what = absl::StrCat("poker: the wallet carried out request ",
                        e.request_id(), ", which no table event asks for");
  } else if (const std::string account = PokerTableAccount(e, tables);
             !account.empty()) {
    what = absl::StrCat("poker: the wallet moved money of ", account,
                        " under request ", e.request_id(),
                        ", which no table event asks for");
  } else {
    return;
  }
  AddProblem(report.problems, AtRecord("", wire::kWalletTopic, partition,
                                       offset, std::move(what)));
}

// The steps of one table event that asks the wallet for money (none for
// the others); `problems` gets what is wrong in the request itself.
std::vector<Step> StepsOf(const wire::DecodedTableEvent& decoded,
                          std::string* what, TableAuditReport& report) {
  const v1::TableEvent& e = decoded.event;
  const std::string& table_id = e.table_id();
  const std::string& event_id = decoded.envelope.event_id();
  std::vector<Step> steps;
  if (e.has_buy_in_requested()) {
    const v1::BuyInRequested& r = e.buy_in_requested();
    ++report.buy_ins;
    *what = absl::StrCat("the buy-in of ", r.player_id(), " at ", table_id,
                         " (", r.saga_id(), ")");
    steps.push_back({absl::StrCat(r.saga_id(), "/hold"), Step::Kind::kHold,
                     r.player_id(), r.paid_minor(), "", ""});
    steps.push_back({absl::StrCat(r.saga_id(), "/seat"), Step::Kind::kCapture,
                     "", r.paid_minor() - r.rake_minor(),
                     settlement::SeatAccount(table_id, r.player_id()), ""});
    if (r.rake_minor() != 0) {
      steps.push_back({absl::StrCat(r.saga_id(), "/rake"), Step::Kind::kCapture,
                       "", r.rake_minor(),
                       std::string(settlement::kRakeAccount), ""});
    }
  } else if (e.has_hand_settled()) {
    const v1::HandSettled& h = e.hand_settled();
    ++report.settlements;
    *what = absl::StrCat("the settlement of hand ", h.hand_id(), " (", event_id,
                         ")");
    const std::string pot = settlement::PotAccount(table_id);
    int64_t pot_left = 0;
    int64_t rake = 0;
    for (int i = 0; i < h.transactions_size(); ++i) {
      const v1::LedgerTransaction& tx = h.transactions(i);
      ++report.settlement_transactions;
      std::optional<int64_t> sum = Sum(tx);
      if (!sum || *sum != 0) {
        AddProblem(report.problems,
                   absl::StrCat("poker: transaction ", i, " of ", *what,
                                " does not balance"));
      }
      pot_left += PostingTo(tx, pot);
      rake += PostingTo(tx, settlement::kRakeAccount);
      steps.push_back({absl::StrCat("hand/", h.hand_id(), "/", i),
                       Step::Kind::kPost, "", 0, "", Postings(tx),
                       tx.reason()});
    }
    if (pot_left != 0) {
      AddProblem(report.problems, absl::StrCat("poker: ", *what, " leaves ",
                                               pot_left, " in the pot"));
    }
    if (rake != h.rake_minor()) {
      AddProblem(report.problems,
                 absl::StrCat("poker: ", *what, " logs rake ", h.rake_minor(),
                              " but posts ", rake, " to house/rake"));
    }
    report.hand_rake_minor += h.rake_minor();
  } else if (e.has_player_left() && e.player_left().stack_minor() != 0) {
    const v1::PlayerLeft& left = e.player_left();
    ++report.cash_outs;
    *what = absl::StrCat("the cash-out of ", left.player_id(), " from ",
                         table_id, " (", event_id, ")");
    absl::StatusOr<v1::LedgerTransaction> tx = settlement::CashOutTransaction(
        table_id, left.player_id(), left.stack_minor(),
        left.rake_refund_minor());
    // One the wallet cannot build matches nothing it posts.
    steps.push_back({absl::StrCat(event_id, "/cash-out"), Step::Kind::kPost, "",
                     0, "", tx.ok() ? Postings(*tx) : "(invalid)",
                     v1::POSTING_REASON_TABLE_CASH_OUT});
  }
  return steps;
}

// The stream that decides a request (as table_requests.cc chooses it).
std::string DecidingOwner(const v1::TableEvent& e) {
  const std::string& table_id = e.table_id();
  if (e.has_buy_in_requested()) {
    const std::string& player = e.buy_in_requested().player_id();
    return ledger::IsValidId(player) && ledger::IsValidId(table_id)
               ? ledger::PlayerOwner(player)
               : std::string(wire::kUnnamedRequester);
  }
  return ledger::IsValidId(table_id) ? settlement::PotAccount(table_id)
                                     : std::string(wire::kUnnamedRequester);
}

// Whether the wallet carried `r` out exactly once, as asked; what it did
// not is a problem, or pending while it has not read the request.
bool CarriedOut(const Request& r, const std::map<std::string, Seen>& seen,
                TableAuditReport& report) {
  // Where the wallet reads the request: its copy.
  auto problem = [&](std::string what) {
    AddProblem(report.problems,
               AtRecord("", wire::kPokerTableTopics.requests_topic, r.partition,
                        r.offset, std::move(what)));
  };
  bool done = true;
  for (const Step& step : r.steps) {
    auto it = seen.find(step.id);
    if (it == seen.end()) {
      if (r.read) {
        problem(absl::StrCat("poker: ", r.what,
                             " was read by the wallet but neither "
                             "carried out nor quarantined (request ",
                             step.id, " is missing)"));
      } else {
        ++report.pending;
      }
      done = false;
      break;
    }
    const Seen& s = it->second;
    if (!s.matches && s.altered) {
      problem(absl::StrCat("poker: ", r.what,
                           " was carried out otherwise than asked (request ",
                           step.id, ": ", s.other, ")"));
      done = false;
      break;
    }
    if (!s.matches) {
      problem(absl::StrCat(
          "poker: ", r.what, " can never be carried out: ", "its request id ",
          step.id, " is taken by another request (", s.other, ")"));
      done = false;
      break;
    }
    if (s.times > 1) {
      problem(absl::StrCat("poker: ", r.what, " was carried out ", s.times,
                           " times (request ", step.id, ")"));
      done = false;
    }
    if (s.refused) {
      ++report.buy_ins_refused;
      break;  // no money moved; nothing follows a refused hold
    }
  }
  return done;
}

}  // namespace

absl::StatusOr<TableAuditReport> AuditTableTopic(eventlog::EventLog& log) {
  TableAuditReport report;
  const wire::TableTopics& topics = wire::kPokerTableTopics;
  // The wallet reads the copies of the money requests (RequestTopic): its
  // positions, and its quarantines, are on their topic.
  ASSIGN_OR_RETURN(RequestTopic wallet_reads,
                   LoadRequestTopic(log, topics, "poker",
                                    &wire::DecodeTableRecord, report.problems));
  std::vector<Request> requests;
  std::map<std::string, size_t> request_of_step;
  // The poker tables the topic created: their accounts move only for
  // their events.
  std::set<std::string> tables;
  RETURN_IF_ERROR(WalkTableTopic<wire::DecodedTableEvent>(
      log, topics, "poker", &wire::DecodeTableRecord, report,
      [&](const wire::DecodedTableEvent& decoded) {
        const v1::EventEnvelope& env = decoded.envelope;
        if (decoded.event.has_table_created()) {
          ++report.tables;
          tables.insert(decoded.event.table_id());
        }
        if (!wire::IsMoneyRequest(decoded.event)) return;
        const RequestCopies::Copy* copy = wallet_reads.copies.Match(
            env.event_id(), CanonicalBytes(wire::MoneyRequestOf(decoded.event)),
            report.problems);
        Request request;
        request.steps = StepsOf(decoded, &request.what, report);
        if (request.steps.empty() || copy == nullptr) return;
        request.partition = copy->partition;
        request.offset = copy->offset;
        request.read = wallet_reads.positions.Read(
            DecidingOwner(decoded.event), copy->partition, copy->offset);
        request.buy_in = decoded.event.has_buy_in_requested();
        request.buy_in_rake = decoded.event.buy_in_requested().rake_minor();
        for (const Step& step : request.steps) {
          if (!request_of_step.emplace(step.id, requests.size()).second) {
            AddProblem(
                report.problems,
                absl::StrCat("poker: step ", step.id, " of ", request.what,
                             " is asked for twice by the tables"));
          }
        }
        requests.push_back(std::move(request));
      }));

  // What the wallet logged under the steps' ids, and which requests it
  // quarantined.
  std::map<std::string, Seen> seen;
  Quarantined quarantined;
  RETURN_IF_ERROR(WalkWalletEvents(
      log, topics.requests_topic, quarantined,
      [&](int p, int64_t offset, const v1::WalletEvent& e) {
        auto step = request_of_step.find(e.request_id());
        if (step == request_of_step.end()) {
          CheckUnrequested(e, p, offset, tables, report);
          return;
        }
        Seen& s = seen[e.request_id()];
        if (s.times++ > 0) return;
        for (const Step& candidate : requests[step->second].steps) {
          if (candidate.id == e.request_id()) {
            s.matches = Matches(candidate, e, &s.refused);
            s.altered = !s.matches && SameKind(candidate, e);
          }
        }
        if (!s.matches) {
          s.other = wire::DescribeWalletEvent(e).substr(0, kMaxDescribed);
        }
      }));

  wallet_reads.copies.ReportUnmatched(report.problems);
  for (const Request& r : requests) {
    if (quarantined.contains({r.partition, r.offset})) {
      ++report.quarantined;  // reported with the wallet's events
      continue;
    }
    if (!CarriedOut(r, seen, report)) continue;
    ++report.carried_out;
    if (r.buy_in && !seen.at(r.steps.front().id).refused) {
      report.buy_in_rake_minor += r.buy_in_rake;
    }
  }
  return report;
}

}  // namespace banca::audit
