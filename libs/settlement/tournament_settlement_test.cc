#include "libs/settlement/tournament_settlement.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/games/tournament/autoplay.h"
#include "libs/games/tournament/director.h"
#include "libs/ledger/posting_rules.h"

namespace banca::settlement {
namespace {

namespace tn = games::tournament;

tn::TournamentConfig Config(tn::TournamentKind kind) {
  tn::TournamentConfig c;
  c.kind = kind;
  c.seats_per_table = 6;
  c.starting_chips = 1'000;
  c.buy_in = kind == tn::TournamentKind::kFreeroll ? 0 : 1'000;
  c.fee_bps = kind == tn::TournamentKind::kFreeroll ? 0 : 1'000;
  c.bounty = kind == tn::TournamentKind::kScheduled ? 100 : 0;
  c.guarantee = 50'000;  // an overlay
  c.payouts_bps = {6'000, 4'000};
  c.levels = {tn::BlindLevel{10, 20, 0, 600'000'000},
              tn::BlindLevel{20, 40, 0, 600'000'000}};
  c.rebuy = kind == tn::TournamentKind::kScheduled
                ? std::optional<tn::ChipPurchase>(
                      tn::ChipPurchase{500, 1'000, 0, 1, 1})
                : std::nullopt;
  return c;
}

// Every movement a tournament makes, as the wallet posts it, balances and
// follows the posting rules the audit checks (libs/ledger/posting_rules.h):
// entries by cash and by ticket, rebuys, bounties, the overlay, prizes in
// cash and as tickets, and a cancellation's refunds.
TEST(TournamentSettlementTest, EveryMoveFollowsThePostingRules) {
  for (tn::TournamentKind kind :
       {tn::TournamentKind::kScheduled, tn::TournamentKind::kSatellite,
        tn::TournamentKind::kFreeroll}) {
    for (bool cancel : {false, true}) {
      std::mt19937_64 rng(7);
      absl::StatusOr<tn::Director> d = tn::Director::Create(
          "tn1", Config(kind),
          [&](int n) { return static_cast<int>(rng() % n); });
      ASSERT_TRUE(d.ok()) << d.status();
      std::vector<tn::MoneyMove> moves;
      for (int i = 0; i < 8; ++i) {
        const bool ticket = i == 0 && kind != tn::TournamentKind::kFreeroll;
        ASSERT_TRUE(d->Register(absl::StrCat("p", i), ticket
                                                          ? tn::Source::kTicket
                                                          : tn::Source::kCash)
                        .ok());
      }
      for (tn::MoneyMove& m : d->TakeMoves()) moves.push_back(std::move(m));
      int64_t hands = 0;
      absl::StatusOr<tn::AutoplayReport> r = tn::Autoplay(
          *d, [&] { return rng(); },
          [&](std::vector<tn::MoneyMove> batch) -> absl::Status {
            for (tn::MoneyMove& m : batch) moves.push_back(std::move(m));
            if (cancel && ++hands == 30) return absl::CancelledError("now");
            return absl::OkStatus();
          });
      if (cancel && d->phase() == tn::Phase::kRunning) {
        ASSERT_TRUE(d->Cancel().ok());
        for (tn::MoneyMove& m : d->TakeMoves()) moves.push_back(std::move(m));
      }
      ASSERT_FALSE(moves.empty());
      for (const tn::MoneyMove& m : moves) {
        absl::StatusOr<v1::LedgerTransaction> tx =
            TournamentTransaction("tn1", m);
        ASSERT_TRUE(tx.ok()) << tx.status();
        EXPECT_TRUE(ledger::CheckLoggedTransaction(*tx).ok())
            << ledger::CheckLoggedTransaction(*tx) << " " << m.memo;
      }
    }
  }
}

}  // namespace
}  // namespace banca::settlement
