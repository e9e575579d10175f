#include "tools/bench/ledger_bench.h"

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"

namespace banca::bench {
namespace {

// Transactions made before the clock starts, so the loop measures the
// ledger, not protobuf construction: per thread, used round robin.
constexpr int kPrepared = 4096;

using Prepared = std::vector<std::pair<std::string, v1::LedgerTransaction>>;

void Noop(const ledger::Committed&) {}

// Every player's account, with 10,000,000.00 deposited.
void OpenPlayers(ledger::Ledger& ledger, int players) {
  for (int p = 0; p < players; ++p) {
    const std::string id = absl::StrCat("p", p);
    (void)ledger.OpenAccount({}, id, "EUR", Noop);
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("seed");
    auto* a = tx.add_postings();
    a->set_account("external/payments");
    a->set_amount_minor(-1'000'000'000);
    auto* b = tx.add_postings();
    b->set_account(ledger::PlayerCashAccount(id));
    b->set_amount_minor(1'000'000'000);
    (void)ledger.Post({}, ledger::PlayerOwner(id), tx, Noop);
  }
}

// Thread `t`'s transfers of 10 between random players: 9 to the other
// player, 1 of rake. Each is posted as its payer.
Prepared PrepareTransfers(int t, int players) {
  Prepared prepared;
  std::mt19937_64 rng(t + 1);
  for (int i = 0; i < kPrepared; ++i) {
    const int from = static_cast<int>(rng() % players);
    const int to =
        (from + 1 + static_cast<int>(rng() % (players - 1))) % players;
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_PAYOUT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
    tx.mutable_reference()->set_id(absl::StrCat("h", i));
    auto* a = tx.add_postings();
    a->set_account(ledger::PlayerCashAccount(absl::StrCat("p", from)));
    a->set_amount_minor(-10);
    auto* b = tx.add_postings();
    b->set_account(ledger::PlayerCashAccount(absl::StrCat("p", to)));
    b->set_amount_minor(9);
    auto* c = tx.add_postings();
    c->set_account("house/rake");
    c->set_amount_minor(1);
    prepared.emplace_back(ledger::PlayerOwner(absl::StrCat("p", from)),
                          std::move(tx));
  }
  return prepared;
}

}  // namespace

LedgerBenchResult RunLedgerBench(const LedgerBenchOptions& options) {
  ledger::Ledger ledger(ledger::LedgerOptions{"EUR", options.stripes});
  OpenPlayers(ledger, options.players);
  std::vector<Prepared> prepared;
  for (int t = 0; t < options.threads; ++t) {
    prepared.push_back(PrepareTransfers(t, options.players));
  }
  std::atomic<bool> stop{false};
  std::vector<int64_t> counts(options.threads, 0);
  std::vector<std::thread> workers;
  const absl::Time start = absl::Now();
  for (int t = 0; t < options.threads; ++t) {
    workers.emplace_back([&, t] {
      int64_t n = 0;
      for (int i = 0; !stop.load(std::memory_order_relaxed); ++i) {
        const auto& [owner, tx] = prepared[t][i % kPrepared];
        if (ledger.Post({}, owner, tx, Noop).ok()) ++n;
      }
      counts[t] = n;
    });
  }
  absl::SleepFor(options.duration);
  stop = true;
  for (auto& w : workers) w.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  return {kLedgerBenchPostings * total / seconds, total / seconds};
}

}  // namespace banca::bench
