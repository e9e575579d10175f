#include "tools/bench/tournament_bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/autoplay.h"
#include "libs/games/tournament/director.h"
#include "libs/games/tournament/limits.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/settlement/tournament_settlement.h"

namespace banca::bench {
namespace {

namespace tn = games::tournament;

constexpr char kTournament[] = "bench1";
constexpr int64_t kBuyIn = 10'000;          // cents, the fee included
constexpr int64_t kStartingChips = 10'000;  // 200 big blinds at level 1
// Each player's deposit: the buy-in, two rebuys and an add-on.
constexpr int64_t kDeposit = 4 * kBuyIn;
// Paid places: 15 % of the field, at most this many.
constexpr int kMaxPaidPlaces = 5'000;
// Twenty-minute levels, big blinds rising about 1.3–1.5× a level.
constexpr int64_t kLevelMicros = 20 * 60 * 1'000'000LL;
constexpr int64_t kBigBlinds[] = {
    50,      100,     150,     200,     300,     400,     500,     600,
    800,     1'000,   1'200,   1'600,   2'000,   2'500,   3'000,   4'000,
    5'000,   6'000,   8'000,   10'000,  12'000,  15'000,  20'000,  25'000,
    30'000,  40'000,  50'000,  60'000,  80'000,  100'000, 120'000, 150'000,
    200'000, 250'000, 300'000, 400'000, 500'000, 600'000, 800'000, 1'000'000};

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double PeakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

tn::TournamentConfig BenchConfig(const TournamentBenchOptions& o) {
  tn::TournamentConfig c;
  c.seats_per_table = o.seats;
  c.starting_chips = kStartingChips;
  c.buy_in = kBuyIn;
  c.fee_bps = 1'000;
  c.max_players = o.entrants;
  c.payouts_bps = BenchPayouts(std::clamp(
      o.entrants * 15 / 100, 1, std::min(kMaxPaidPlaces, o.entrants)));
  for (int64_t bb : kBigBlinds) {
    c.levels.push_back(tn::BlindLevel{bb / 2, bb, 0, kLevelMicros});
  }
  if (o.rebuys) {
    c.rebuy = tn::ChipPurchase{kBuyIn, kStartingChips, 1'000, 2, 4};
    c.addon = tn::ChipPurchase{kBuyIn, kStartingChips * 3 / 2, 1'000, 1, 4};
  }
  return c;
}

void Noop(const ledger::Committed&) {}

// Every entrant's account, funded from external/payments.
absl::Status OpenPlayers(ledger::Ledger& ledger, int entrants) {
  for (int i = 0; i < entrants; ++i) {
    const std::string id = absl::StrCat("p", i);
    RETURN_IF_ERROR(ledger.OpenAccount({}, id, "EUR", Noop));
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("bench-deposit");
    v1::Posting* from = tx.add_postings();
    from->set_account("external/payments");
    from->set_amount_minor(-kDeposit);
    v1::Posting* to = tx.add_postings();
    to->set_account(ledger::PlayerCashAccount(id));
    to->set_amount_minor(kDeposit);
    RETURN_IF_ERROR(ledger.Post({}, ledger::PlayerOwner(id), tx, Noop));
  }
  return absl::OkStatus();
}

// Posts the director's moves, one ledger transaction each.
class Books {
 public:
  explicit Books(ledger::Ledger& ledger) : ledger_(ledger) {}

  absl::Status Post(const std::vector<tn::MoneyMove>& moves) {
    for (const tn::MoneyMove& move : moves) {
      ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                       settlement::TournamentTransaction(kTournament, move));
      RETURN_IF_ERROR(
          ledger_.Post({}, settlement::TournamentStreamOwner(kTournament, move),
                       std::move(tx), Noop));
      ++posted_;
    }
    return absl::OkStatus();
  }

  int64_t posted() const { return posted_; }

 private:
  ledger::Ledger& ledger_;
  int64_t posted_ = 0;
};

absl::Status CheckOptions(const TournamentBenchOptions& o) {
  if (o.entrants < 2 || o.entrants > kMaxBenchEntrants) {
    return absl::InvalidArgumentError(absl::StrCat(
        "entrants: ", o.entrants, " is outside 2..", kMaxBenchEntrants));
  }
  if (o.seats < tn::kMinSeatsPerTable || o.seats > tn::kMaxSeatsPerTable) {
    return absl::InvalidArgumentError(
        absl::StrCat("seats: ", o.seats, " is outside ", tn::kMinSeatsPerTable,
                     "..", tn::kMaxSeatsPerTable));
  }
  if (o.all_in_percent < 0 || o.all_in_percent > 100) {
    return absl::InvalidArgumentError(absl::StrCat(
        "all_in_percent: ", o.all_in_percent, " is outside 0..100"));
  }
  if (o.hands_per_level < 0) {
    return absl::InvalidArgumentError("hands_per_level: below 0");
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<int32_t> BenchPayouts(int places) {
  // Integer weights ~ 1 / place; one bps each, the rest by weight, the
  // bps lost to rounding one each to the best places.
  constexpr int64_t kScale = 1'000'000'000;
  std::vector<int64_t> weight(places);
  int64_t total = 0;
  for (int i = 0; i < places; ++i) {
    weight[i] = kScale / (i + 1);
    total += weight[i];
  }
  const int64_t spread = 10'000 - places;
  std::vector<int32_t> bps(places);
  int64_t sum = 0;
  for (int i = 0; i < places; ++i) {
    bps[i] = static_cast<int32_t>(1 + spread * weight[i] / total);
    sum += bps[i];
  }
  for (int i = 0; sum < 10'000; ++i, ++sum) ++bps[i];
  return bps;
}

absl::StatusOr<TournamentBenchResult> RunTournamentBench(
    const TournamentBenchOptions& options) {
  RETURN_IF_ERROR(CheckOptions(options));
  TournamentBenchResult out;
  out.entrants = options.entrants;
  std::mt19937_64 rng(options.seed);
  const absl::Time setup = absl::Now();
  ledger::Ledger ledger;
  RETURN_IF_ERROR(OpenPlayers(ledger, options.entrants));
  const tn::TournamentConfig config = BenchConfig(options);
  out.paid_places = static_cast<int>(config.payouts_bps.size());
  ASSIGN_OR_RETURN(tn::Director director,
                   tn::Director::Create(kTournament, config, [&](int n) {
                     return std::uniform_int_distribution<int>(0, n - 1)(rng);
                   }));
  Books books(ledger);
  for (int i = 0; i < options.entrants; ++i) {
    RETURN_IF_ERROR(director.Register(absl::StrCat("p", i), tn::Source::kCash));
  }
  RETURN_IF_ERROR(books.Post(director.TakeMoves()));
  director.TakeNotices();
  out.tables = (options.entrants + options.seats - 1) / options.seats;
  out.setup_seconds = absl::ToDoubleSeconds(absl::Now() - setup);

  tn::AutoplayOptions play;
  play.hands_per_level = options.hands_per_level > 0
                             ? options.hands_per_level
                             : std::max<int64_t>(10LL * out.tables, 20);
  play.all_in_percent = options.all_in_percent;
  const double cpu = CpuSeconds();
  const absl::Time start = absl::Now();
  absl::StatusOr<tn::AutoplayReport> report = tn::Autoplay(
      director, [&] { return rng(); },
      [&](std::vector<tn::MoneyMove> moves) {
        director.TakeNotices();  // the log's lines: not kept here
        return books.Post(moves);
      },
      play);
  out.seconds_to_finish = absl::ToDoubleSeconds(absl::Now() - start);
  out.cpu_seconds = CpuSeconds() - cpu;
  if (!report.ok()) return report.status();
  out.hands = report->hands;
  out.levels = report->levels;
  out.rebuys = report->rebuys;
  out.addons = report->addons;
  out.balancing_moves = director.balancing_moves();
  out.ledger_transactions = books.posted();
  out.finished = director.phase() == tn::Phase::kFinished;
  out.prize_pool = director.prize_pool();
  out.prize_pool_left =
      ledger.AccountBalance(tn::PrizePoolAccount(kTournament));
  out.ledger_sum = ledger.Summarize().sum;
  out.peak_rss_mb = PeakRssMb();
  return out;
}

}  // namespace banca::bench
