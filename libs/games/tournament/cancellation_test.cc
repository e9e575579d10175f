#include "libs/games/tournament/cancellation.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Refunds = std::vector<Refund>;
constexpr RefundForm kCash = RefundForm::kCash;
constexpr RefundForm kTicket = RefundForm::kTicketCredit;
constexpr RefundReason kEntry = RefundReason::kEntry;
constexpr RefundReason kShare = RefundReason::kPoolShare;

// €11 at 909 bps: fee 99, prize part 1001 (payment_test.cc).
constexpr PaymentSplit k1100 = {1001, 99, 0};
// €22 at 10 % with a €10 bounty.
constexpr PaymentSplit kBounty2200 = {980, 220, 1000};

Payment BuyIn(PaymentSplit split, Source source = Source::kCash) {
  return {PaymentKind::kBuyIn, split, source};
}
Payment Reentry(PaymentSplit split) { return {PaymentKind::kReentry, split}; }
Payment Rebuy(PaymentSplit split) { return {PaymentKind::kRebuy, split}; }
Payment AddOn(PaymentSplit split) { return {PaymentKind::kAddOn, split}; }

Entry Out(std::string player, std::vector<Payment> payments) {
  return {std::move(player), std::move(payments), false, 0, 0};
}
Entry In(std::string player, std::vector<Payment> payments, int64_t chips,
         int seat) {
  return {std::move(player), std::move(payments), true, chips, seat};
}

Cancellation Before(const std::vector<Entry>& entries) {
  absl::StatusOr<Cancellation> c = CancelBeforeStart(entries);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : Cancellation{};
}

Cancellation After(const std::vector<Entry>& entries, int64_t credited = 0,
                   int64_t overlay = 0) {
  absl::StatusOr<Cancellation> c = CancelAfterStart(entries, credited, overlay);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : Cancellation{};
}

TEST(TournamentCancel, BeforeTheStartEveryPaymentBackInFull_TN36a) {
  const Cancellation c = Before({In("ana", {BuyIn(k1100)}, 0, 0),
                                 Out("bia", {BuyIn(k1100, Source::kTicket)}),
                                 Out("cai", {BuyIn(kBounty2200)})});
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 1100, kCash, kEntry},
                                {"bia", 1100, kTicket, kEntry},
                                {"cai", 2200, kCash, kEntry}}));
  EXPECT_EQ(c.from_pool, 1001 + 1001 + 980);
  EXPECT_EQ(c.from_fees, 99 + 99 + 220);
  EXPECT_EQ(c.from_bounties, 1000);
  EXPECT_EQ(c.fees_kept, 0);
  EXPECT_EQ(c.pool_shared, 0);
}

TEST(TournamentCancel, UnregisteringRefundsTheBuyInFeeIncluded_TN24_TN25) {
  absl::StatusOr<Cancellation> c = Unregister(Out("cai", {BuyIn(kBounty2200)}));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->refunds, (Refunds{{"cai", 2200, kCash, kEntry}}));
  EXPECT_EQ(c->from_fees, 220);
}

TEST(TournamentCancel, AWonEntryComesBackAsATicket_TN37_TN28_TN30) {
  absl::StatusOr<Cancellation> c =
      Unregister(Out("bia", {BuyIn(k1100, Source::kTicket)}));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->refunds, (Refunds{{"bia", 1100, kTicket, kEntry}}));
}

TEST(TournamentCancel, AFreeEntryHasNothingToRefund_TN36a) {
  EXPECT_TRUE(Before({Out("ana", {BuyIn({0, 0, 0})})}).refunds.empty());
}

TEST(TournamentCancel, BeforeTheStartOnlyBuyInsOnePerPlayer_TN36a_TN19) {
  EXPECT_TRUE(IsInvalid(
      CancelBeforeStart({Out("ana", {BuyIn(k1100), Rebuy(k1100)})}).status(),
      "entries[0].payments"));
  EXPECT_TRUE(
      IsInvalid(CancelBeforeStart({Out("ana", {Reentry(k1100)})}).status(),
                "entries[0].payments"));
  EXPECT_TRUE(IsInvalid(CancelBeforeStart({Out("ana", {BuyIn(k1100)}),
                                           Out("ana", {BuyIn(k1100)})})
                            .status(),
                        "TN-19"));
  EXPECT_TRUE(IsInvalid(CancelBeforeStart({}).status(), "entries"));
}

// docs/tournaments.md: 30 entries of €11 (prize part 1001, fee 99), the
// prizes fixed with a 470 overlay, place 4 (4,270) already credited,
// cancelled with three players left.
std::vector<Entry> DocsExample() {
  std::vector<Entry> entries = {
      In("ana", {BuyIn(k1100)}, 70'000, 3),
      In("bia", {BuyIn(k1100, Source::kTicket)}, 50'000, 1),
      In("cai", {BuyIn(k1100)}, 30'000, 2)};
  for (int i = 1; i <= 27; ++i) {
    entries.push_back(Out("p" + std::to_string(i), {BuyIn(k1100)}));
  }
  return entries;
}

TEST(TournamentCancel, AfterThePaidPlacesWorkedExample_TN36c_TN37) {
  // pool = 27 × 1001 − 4,270 credited = 22,757, shared by chips
  // (ChipShare.FlooredByChipsLeftoverToTheLargestStacks_TN36_Gap3).
  const Cancellation c = After(DocsExample(), 4'270, 470);
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 1100, kCash, kEntry},
                                {"bia", 1100, kTicket, kEntry},
                                {"cai", 1100, kCash, kEntry},
                                {"ana", 10'620, kCash, kShare},
                                {"bia", 7'586, kCash, kShare},
                                {"cai", 4'551, kCash, kShare}}));
  EXPECT_EQ(c.pool_shared, 22'757);
  EXPECT_EQ(c.fees_kept, 27 * 99);
  EXPECT_EQ(c.overlay_returned, 470);
  EXPECT_EQ(c.from_pool, 3 * 1001 + 22'757);
  EXPECT_EQ(c.from_fees, 3 * 99);
  // 33,000 paid in + 470 overlay = 26,057 refunded + 2,673 fees kept +
  // 470 overlay returned + 4,270 credited.
}

TEST(TournamentCancel, EliminatedEntriesGetNothingBack_TN38) {
  for (const Refund& r : After(DocsExample(), 4'270, 470).refunds) {
    EXPECT_TRUE(r.player == "ana" || r.player == "bia" || r.player == "cai")
        << r.player;
  }
}

TEST(TournamentCancel, BeforeThePaidPlacesWithRebuysAndAReentry_TN36b) {
  // Buy-in and reentry €10 at 10 % (900 + 100), rebuy €10 without fee,
  // add-on €5.01 at 10 % (451 + 50).
  const PaymentSplit buy = {900, 100, 0}, rebuy = {1000, 0, 0},
                     addon = {451, 50, 0};
  const Cancellation c =
      After({Out("ana", {BuyIn(buy)}),
             In("ana", {Reentry(buy), Rebuy(rebuy)}, 6000, 1),
             In("bia", {BuyIn(buy), Rebuy(rebuy), AddOn(addon)}, 3000, 2),
             Out("cai", {BuyIn(buy)}),
             In("dani", {BuyIn(buy), AddOn(addon)}, 1000, 5)});
  // pool = 900 + 900 (ana's first entry, cai) + 1000 + 1000 + 451 + 451
  // (every rebuy and add-on) = 4,702; by 6,000 / 3,000 / 1,000 chips:
  // 2,821.2, 1,410.6, 470.2 floored to 4,701: one cent to ana's stack.
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 1000, kCash, kEntry},
                                {"bia", 1000, kCash, kEntry},
                                {"dani", 1000, kCash, kEntry},
                                {"ana", 2822, kCash, kShare},
                                {"bia", 1410, kCash, kShare},
                                {"dani", 470, kCash, kShare}}));
  // Fees of ana's first entry, cai's, and the two add-ons.
  EXPECT_EQ(c.fees_kept, 100 + 100 + 50 + 50);
  EXPECT_EQ(c.pool_shared, 4702);
  // 8,002 paid in = 7,702 refunded + 300 kept.
}

TEST(TournamentCancel, EliminatedBountiesAreAlreadyPaid_TN7p_TN36b) {
  // Pool 980 by 2,000 / 1,000 chips: 653.3, 326.7 → 653 + 326, one cent
  // to the larger stack.
  const Cancellation c = After({Out("ana", {BuyIn(kBounty2200)}),
                                In("bia", {BuyIn(kBounty2200)}, 2000, 1),
                                In("cai", {BuyIn(kBounty2200)}, 1000, 2)});
  EXPECT_EQ(c.refunds, (Refunds{{"bia", 2200, kCash, kEntry},
                                {"cai", 2200, kCash, kEntry},
                                {"bia", 654, kCash, kShare},
                                {"cai", 326, kCash, kShare}}));
  EXPECT_EQ(c.bounties_paid, 1000);
  EXPECT_EQ(c.from_bounties, 2000);
  EXPECT_EQ(c.fees_kept, 220);
}

TEST(TournamentCancel, ThreeEqualStacksOddCentByLowerSeat_TN36b_Gap3) {
  // 2 × 1001 = 2,002 = 3 × 667 + 1: the cent to seat 4.
  const Cancellation c = After(
      {Out("x", {BuyIn(k1100)}), Out("y", {BuyIn(k1100)}),
       In("ana", {BuyIn(k1100)}, 500, 9), In("bia", {BuyIn(k1100)}, 500, 4),
       In("cai", {BuyIn(k1100)}, 500, 6)});
  const Refunds shares(c.refunds.begin() + 3, c.refunds.end());
  EXPECT_EQ(shares, (Refunds{{"ana", 667, kCash, kShare},
                             {"bia", 668, kCash, kShare},
                             {"cai", 667, kCash, kShare}}));
}

TEST(TournamentCancel, NobodyEliminatedNothingToShare_TN36b) {
  const Cancellation c = After(
      {In("ana", {BuyIn(k1100)}, 500, 1), In("bia", {BuyIn(k1100)}, 700, 2)});
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 1100, kCash, kEntry},
                                {"bia", 1100, kCash, kEntry}}));
  EXPECT_EQ(c.pool_shared, 0);
  EXPECT_EQ(c.fees_kept, 0);
}

TEST(TournamentCancel, ALastPlayerTakesTheWholePool_TN36c) {
  const Cancellation c =
      After({Out("x", {BuyIn(k1100)}), Out("y", {BuyIn(k1100)}),
             In("ana", {BuyIn(k1100)}, 1, 1)});
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 1100, kCash, kEntry},
                                {"ana", 2002, kCash, kShare}}));
}

TEST(TournamentCancel, CreditedPrizesUseTheOverlayOnlyPastThePool_TN36c) {
  // Guarantee 10,000 on 3 × 1001: overlay 6,997. Place 3 was credited
  // 2,000, more than the 1,001 eliminated prize part: 999 of it came from
  // the overlay, the house takes back 5,998 and nothing is shared.
  const std::vector<Entry> entries = {Out("x", {BuyIn(k1100)}),
                                      In("ana", {BuyIn(k1100)}, 100, 1),
                                      In("bia", {BuyIn(k1100)}, 100, 2)};
  const Cancellation c = After(entries, 2000, 6997);
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 1100, kCash, kEntry},
                                {"bia", 1100, kCash, kEntry}}));
  EXPECT_EQ(c.overlay_returned, 5998);
  EXPECT_EQ(c.pool_shared, 0);
  // 3,300 + 6,997 = 2,200 + 99 + 5,998 + 2,000.
  EXPECT_EQ(After(entries, 1001 + 6997, 6997).overlay_returned, 0);
  EXPECT_TRUE(
      IsInvalid(CancelAfterStart(entries, 1001 + 6997 + 1, 6997).status(),
                "prizes_credited"));
}

TEST(TournamentCancel, LargestAmountsWithoutOverflow_TN36b) {
  // 999,999,999,998,999 + 1 + 2 × 500 = 10^15 paid in. The pool is odd:
  // 499,999,999,999,499 each and the cent to seat 1.
  const std::vector<Entry> entries = {
      Out("x", {BuyIn({999'999'999'998'999, 1, 0})}),
      In("ana", {BuyIn({500, 0, 0})}, kMaxChips, 2),
      In("bia", {BuyIn({500, 0, 0})}, kMaxChips, 1)};
  const Cancellation c = After(entries);
  EXPECT_EQ(c.refunds, (Refunds{{"ana", 500, kCash, kEntry},
                                {"bia", 500, kCash, kEntry},
                                {"ana", 499'999'999'999'499, kCash, kShare},
                                {"bia", 499'999'999'999'500, kCash, kShare}}));
  std::vector<Entry> more = entries;
  more[0].payments[0].split.fee = 2;
  EXPECT_TRUE(IsInvalid(CancelAfterStart(more, 0, 0).status(), "entries"));
}

TEST(TournamentCancel, BadStateIsRejected) {
  auto cancel = [](std::vector<Entry> entries) {
    return CancelAfterStart(entries, 0, 0).status();
  };
  const Entry ana = In("ana", {BuyIn(k1100)}, 100, 1);
  Entry chips_out = Out("x", {BuyIn(k1100)});
  chips_out.chips = 5;
  EXPECT_TRUE(IsInvalid(cancel({ana, chips_out}), "entries[1].chips"));
  EXPECT_TRUE(
      IsInvalid(cancel({In("ana", {BuyIn(k1100)}, 0, 1)}), "entries[0].chips"));
  EXPECT_TRUE(IsInvalid(cancel({In("ana", {BuyIn(k1100)}, kMaxChips + 1, 1)}),
                        "entries[0].chips"));
  EXPECT_TRUE(IsInvalid(cancel({Out("x", {BuyIn(k1100)})}), "no active"));
  EXPECT_TRUE(
      IsInvalid(cancel({ana, In("bia", {BuyIn(k1100)}, 100, 1)}), "seat 1"));
  EXPECT_TRUE(IsInvalid(cancel({In("ana", {BuyIn(k1100)}, 100, -1)}), "seat"));
  EXPECT_TRUE(IsInvalid(
      cancel({In("ana", {BuyIn(k1100)}, 100, kMaxSeatNumber + 1)}), "seat"));
  EXPECT_TRUE(
      IsInvalid(cancel({ana, In("ana", {Reentry(k1100)}, 100, 2)}), "TN-19"));
  EXPECT_TRUE(
      IsInvalid(CancelAfterStart({ana}, -1, 0).status(), "prizes_credited"));
  EXPECT_TRUE(IsInvalid(
      CancelAfterStart({ana}, 0, kMaxAmountMinor + 1).status(), "overlay"));
}

TEST(TournamentCancel, BadPaymentsAreRejected) {
  auto cancel = [](std::vector<Payment> payments) {
    return CancelAfterStart({In("ana", std::move(payments), 100, 1)}, 0, 0)
        .status();
  };
  EXPECT_TRUE(IsInvalid(cancel({BuyIn({-1, 99, 0})}),
                        "entries[0].payments[0].prize_part"));
  EXPECT_TRUE(IsInvalid(cancel({BuyIn({1, kMaxAmountMinor + 1, 0})}),
                        "entries[0].payments[0].fee"));
  EXPECT_TRUE(IsInvalid(cancel({Rebuy(k1100)}), "entries[0].payments[0].kind"));
  EXPECT_TRUE(IsInvalid(cancel({BuyIn(k1100), BuyIn(k1100)}),
                        "entries[0].payments[1].kind"));
  EXPECT_TRUE(IsInvalid(cancel({BuyIn(k1100), Rebuy(kBounty2200)}),
                        "entries[0].payments[1].bounty"));
  EXPECT_TRUE(IsInvalid(
      cancel({BuyIn(k1100), {PaymentKind::kAddOn, k1100, Source::kTicket}}),
      "entries[0].payments[1].source"));
  EXPECT_TRUE(IsInvalid(cancel({}), "entries[0].payments"));
  std::vector<Payment> many = {BuyIn(k1100)};
  many.resize(kMaxPaymentsPerEntry, Rebuy(k1100));
  EXPECT_TRUE(CancelAfterStart({In("ana", many, 100, 1)}, 0, 0).ok());
  many.push_back(Rebuy(k1100));
  EXPECT_TRUE(IsInvalid(cancel(many), "entries[0].payments"));
  EXPECT_TRUE(IsInvalid(
      CancelAfterStart({In("", {BuyIn(k1100)}, 100, 1)}, 0, 0).status(),
      "entries[0].player"));
}

}  // namespace
}  // namespace banca::games::tournament
