#include "tools/banca/banked_audit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/table/banked_codec.h"
#include "services/wallet/banked_requests.h"
#include "services/wallet/wallet_events.h"

namespace banca::cli {
namespace {

constexpr size_t kMaxProblems = 50;

void Problem(BankedAuditReport& report, std::string what) {
  if (report.problems.size() < kMaxProblems) {
    report.problems.push_back(std::move(what));
  } else if (report.problems.size() == kMaxProblems) {
    report.problems.push_back("… more problems not shown");
  }
}

// What a table asked the wallet to do, by the wallet's request id.
struct Request {
  std::string what;
  // The postings asked for, "account:amount;...", to compare with what the
  // wallet posted.
  std::string postings;
  bool stake = false;
  // Logged after the wallet's committed position.
  bool pending = false;
};

// What the wallet did under one request id.
struct Outcome {
  int times = 0;
  bool rejected = false;
  std::string postings;
};

std::string Postings(const v1::LedgerTransaction& tx) {
  std::string out;
  for (const v1::Posting& p : tx.postings()) {
    absl::StrAppend(&out, p.account(), ":", p.amount_minor(), ";");
  }
  return out;
}

// The sum of the postings; nullopt when it overflows (not money then).
std::optional<int64_t> Sum(const v1::LedgerTransaction& tx) {
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) {
    if (__builtin_add_overflow(sum, p.amount_minor(), &sum)) {
      return std::nullopt;
    }
  }
  return sum;
}

int Partitions(eventlog::EventLog& log, std::string_view topic) {
  absl::StatusOr<int> n = log.PartitionCount(topic);
  return n.ok() ? *n : 0;  // no topic: nothing logged there
}

}  // namespace

absl::StatusOr<BankedAuditReport> AuditBankedTopic(eventlog::EventLog& log) {
  BankedAuditReport report;
  const std::string topic(table::kBankedTopic);
  std::map<std::string, Request> requests;
  std::map<std::string, uint64_t> last_sequence;
  std::set<std::string> tables;
  auto expect = [&](const std::string& id, Request r) {
    if (!requests.emplace(id, std::move(r)).second) {
      Problem(report, absl::StrCat("banked: request ", id,
                                   " is asked for twice by the tables"));
    }
  };
  auto balanced = [&](const v1::LedgerTransaction& tx,
                      const std::string& what) {
    std::optional<int64_t> sum = Sum(tx);
    if (!sum || *sum != 0) {
      Problem(report,
              absl::StrCat("banked: ", what, " does not balance (sum ",
                           sum ? absl::StrCat(*sum) : "overflows", ")"));
    }
  };
  for (int p = 0; p < Partitions(log, topic); ++p) {
    absl::StatusOr<int64_t> committed = log.CommittedOffset(
        wallet::kBankedRequestsGroup, table::kBankedTopic, p);
    if (!committed.ok()) return committed.status();
    auto visit = [&](const eventlog::StoredRecord& record) {
      ++report.events;
      const std::string where = absl::StrCat(topic, "/", p, "@", record.offset);
      absl::StatusOr<table::DecodedBankedEvent> decoded =
          table::DecodeBankedRecord(record);
      if (!decoded.ok()) {
        Problem(report, absl::StrCat("banked: ", where, ": ",
                                     decoded.status().message()));
        return absl::OkStatus();
      }
      const v1::EventEnvelope& env = decoded->envelope;
      const v1::BankedTableEvent& e = decoded->event;
      uint64_t& last = last_sequence[env.stream_id()];
      if (env.sequence() != last + 1) {
        Problem(report,
                absl::StrCat("banked: stream ", env.stream_id(), ": sequence ",
                             env.sequence(), " follows ", last,
                             env.sequence() <= last ? " (repeat)" : " (gap)"));
      }
      last = std::max(last, env.sequence());
      if (env.event_id() !=
          absl::StrCat(env.stream_id(), "#", env.sequence())) {
        Problem(report, absl::StrCat("banked: event id ", env.event_id(),
                                     " does not match its stream/sequence"));
      }
      if (e.has_created()) tables.insert(e.table_id());
      const bool pending = record.offset >= *committed;
      if (e.has_stake_requested()) {
        const v1::StakeRequested& r = e.stake_requested();
        ++report.stakes;
        const std::string what =
            absl::StrCat("the stake of ", r.player_id(), " on ", r.bet_id(),
                         " (", env.event_id(), ")");
        balanced(r.tx(), what);
        expect(wallet::BankedStakeRequestId(r.saga_id()),
               {what, Postings(r.tx()), true, pending});
      }
      if (e.has_money()) {
        const v1::BankedMoney& m = e.money();
        for (int i = 0; i < m.transactions_size(); ++i) {
          ++report.transactions;
          const std::string what =
              absl::StrCat("transaction ", i, " of ", env.event_id(), " (",
                           m.cause(), ", round ", m.round(), ")");
          balanced(m.transactions(i), what);
          expect(wallet::BankedMoneyRequestId(env.event_id(), i),
                 {what, Postings(m.transactions(i)), false, pending});
        }
      }
      return absl::OkStatus();
    };
    if (absl::StatusOr<int64_t> read =
            eventlog::ReadPartitionToEnd(log, topic, p, 0, visit);
        !read.ok()) {
      return read.status();
    }
  }
  report.tables = static_cast<int64_t>(tables.size());

  // What the wallet did under the banked request ids (all "banked/...").
  std::map<std::string, Outcome> outcomes;
  const std::string wallet_topic(wallet::kWalletTopic);
  for (int p = 0; p < Partitions(log, wallet_topic); ++p) {
    auto visit = [&](const eventlog::StoredRecord& record) {
      absl::StatusOr<wallet::DecodedWalletEvent> decoded =
          wallet::DecodeWalletRecord(record);
      if (!decoded.ok()) return absl::OkStatus();  // the wallet check says so
      const v1::WalletEvent& e = decoded->event;
      if (!absl::StartsWith(e.request_id(), "banked/")) {
        return absl::OkStatus();
      }
      if (!e.has_transaction_posted() && !e.has_request_rejected()) {
        return absl::OkStatus();
      }
      Outcome& o = outcomes[e.request_id()];
      ++o.times;
      o.rejected = e.has_request_rejected();
      if (e.has_transaction_posted()) {
        o.postings = Postings(e.transaction_posted().tx());
      }
      return absl::OkStatus();
    };
    if (absl::StatusOr<int64_t> read =
            eventlog::ReadPartitionToEnd(log, wallet_topic, p, 0, visit);
        !read.ok()) {
      return read.status();
    }
  }

  for (const auto& [id, r] : requests) {
    auto it = outcomes.find(id);
    if (it == outcomes.end()) {
      if (r.pending) {
        ++report.pending;
      } else {
        Problem(report,
                absl::StrCat("banked: ", r.what,
                             " is missing in the wallet (request ", id, ")"));
      }
      continue;
    }
    const Outcome& o = it->second;
    if (o.times > 1) {
      Problem(report, absl::StrCat("banked: ", r.what, " was carried out ",
                                   o.times, " times (request ", id, ")"));
    } else if (o.rejected && !r.stake) {
      Problem(report, absl::StrCat("banked: the wallet refused ", r.what,
                                   " (request ", id, ")"));
    } else if (!o.rejected && o.postings != r.postings) {
      Problem(report, absl::StrCat("banked: the wallet posted ", r.what,
                                   " with other postings (request ", id, ")"));
    } else {
      ++report.carried_out;
    }
  }
  for (const auto& [id, o] : outcomes) {
    if (!requests.contains(id)) {
      Problem(report, absl::StrCat("banked: the wallet carried out request ",
                                   id, ", which no banked event asks for"));
    }
  }
  return report;
}

}  // namespace banca::cli
