// Random tournaments (a fixed seed: the same cases every run) through the
// money functions: every cent paid in is accounted for.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/cancellation.h"
#include "libs/games/tournament/guarantee.h"
#include "libs/games/tournament/payment.h"

namespace banca::games::tournament {
namespace {

class Random {
 public:
  explicit Random(uint64_t seed) : gen_(seed) {}
  int64_t Between(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen_);
  }
  bool OneIn(int n) { return Between(1, n) == 1; }

 private:
  std::mt19937_64 gen_;
};

Payment RandomPayment(Random& r, PaymentKind kind) {
  const int64_t amount = r.Between(0, 100'000);
  const int32_t fee_bps = IsEntry(kind) || r.OneIn(2)
                              ? static_cast<int32_t>(r.Between(200, 2000))
                              : 0;
  const int64_t bounty = IsEntry(kind) ? r.Between(0, amount * 8 / 10) : 0;
  absl::StatusOr<PaymentSplit> split =
      SplitPayment(kind, amount, fee_bps, bounty);
  EXPECT_TRUE(split.ok()) << split.status();
  return {kind, split.value_or(PaymentSplit{}),
          IsEntry(kind) && r.OneIn(5) ? Source::kTicket : Source::kCash};
}

// One player per entry, so at most one live entry each; entries[0] active.
std::vector<Entry> RandomEntries(Random& r) {
  std::vector<Entry> entries(r.Between(1, 40));
  for (size_t i = 0; i < entries.size(); ++i) {
    Entry& e = entries[i];
    e.player = "p" + std::to_string(i);
    e.payments.push_back(RandomPayment(
        r, r.OneIn(4) ? PaymentKind::kReentry : PaymentKind::kBuyIn));
    for (int64_t n = r.Between(0, 3); n > 0; --n) {
      e.payments.push_back(RandomPayment(
          r, r.OneIn(2) ? PaymentKind::kRebuy : PaymentKind::kAddOn));
    }
    e.active = i == 0 || r.OneIn(3);
    e.chips = e.active ? r.Between(1, 1'000'000) : 0;
    e.seat = static_cast<int>(i);
  }
  return entries;
}

int64_t PaidIn(const std::vector<Entry>& entries) {
  int64_t sum = 0;
  for (const Entry& e : entries) {
    for (const Payment& p : e.payments) sum += p.split.amount();
  }
  return sum;
}

TEST(TournamentProperty, CancellationsAccountForEveryCent_TN36) {
  Random r(20'150'810);
  int settled = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::vector<Entry> entries = RandomEntries(r);
    const int64_t overlay = r.OneIn(2) ? 0 : r.Between(0, 500'000);
    const int64_t credited = r.Between(0, PaidIn(entries) / 4);
    absl::StatusOr<Cancellation> c =
        CancelAfterStart(entries, credited, overlay);
    if (!c.ok()) {
      // Only when the credited prizes exceed the pool and the overlay.
      EXPECT_NE(std::string(c.status().message()).find("prizes_credited"),
                std::string::npos)
          << c.status();
      continue;
    }
    ++settled;
    int64_t refunded = 0;
    for (const Refund& f : c->refunds) refunded += f.amount;
    EXPECT_EQ(refunded + c->fees_kept + c->overlay_returned + credited +
                  c->bounties_paid,
              PaidIn(entries) + overlay);
  }
  // Most random cases settle (2,983 of 3,000 with this seed).
  EXPECT_GT(settled, 2000);
}

TEST(TournamentProperty, FixedPrizesPayThePoolOrTheGuarantee_TN7m_TN9) {
  Random r(810);
  for (int round = 0; round < 3000; ++round) {
    std::vector<int32_t> payouts;
    for (int64_t left = 10'000; left > 0;) {
      const int64_t cap =
          payouts.empty() ? left : std::min<int64_t>(left, payouts.back());
      const int64_t bps = left <= cap && r.OneIn(3) ? left : r.Between(1, cap);
      payouts.push_back(static_cast<int32_t>(bps));
      left -= bps;
    }
    const int64_t collected = r.Between(0, 10'000'000);
    const int64_t guarantee = r.Between(0, 10'000'000);
    absl::StatusOr<FixedPrizes> f =
        FixPrizes(collected, guarantee, payouts, 100'000);
    ASSERT_TRUE(f.ok()) << f.status();
    int64_t paid = 0;
    for (int64_t prize : f->prizes) paid += prize;
    EXPECT_EQ(paid, std::max(collected, guarantee));
  }
}

}  // namespace
}  // namespace banca::games::tournament
