#include "libs/games/stud_no_draw/describe.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/games/stud_no_draw/test_util.h"

namespace banca::games::stud_no_draw {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Round Played() {
  TableConfig c;
  c.seats = 3;
  absl::StatusOr<Round> r = Round::Open(c, 4);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r->PlaceAnte(1, "ana", 100).ok());
  EXPECT_TRUE(r->PlaceAnte(3, "rui", 100).ok());
  EXPECT_TRUE(r->Deal(DeckFor("2c", {"Qh Qs 5c 7s 6c", "Jd 9c 8h 4d 3h"},
                              "Ad Kc 4h 3s 5s"),
                      0)
                  .ok());
  EXPECT_TRUE(r->Continue(1).ok());
  EXPECT_TRUE(r->Timeout(3, 30'000).ok());
  EXPECT_TRUE(r->Timeout(3, 45'000).ok());
  return *std::move(r);
}

TEST(StudNoDrawDescribe, EventsAsText_SD_19a) {
  const Round r = Played();
  std::string all;
  for (const Event& e : r.events()) absl::StrAppend(&all, Describe(e), "\n");
  EXPECT_THAT(all, HasSubstr("CardsDealt seat=1 cards=QhQs5c7s6c\n"));
  EXPECT_THAT(all, HasSubstr("BankUpCard card=5s\n"));
  EXPECT_THAT(all, HasSubstr("Folded seat=3 cause=timeout\n"));
  EXPECT_THAT(all, HasSubstr("SeatSettled seat=1 player=ana outcome=won "
                             "ante=100/200 bet=200/400 x1\n"));
  EXPECT_THAT(all, HasSubstr("RoundFinished staked=400 returned=600"));
  // The burn card is in no event (gap 8).
  EXPECT_THAT(all, Not(HasSubstr("2c")));
}

TEST(StudNoDrawDescribe, RoundResultSaysWhoWonAndHow_SD_37) {
  const std::string text = DescribeResult(Played().result());
  EXPECT_THAT(text, HasSubstr("bank AdKc4h3s5s plays ("));
  EXPECT_THAT(text, HasSubstr("ana (seat 1) "));
  EXPECT_THAT(text, HasSubstr(": won, bet pays 1:1"));
  EXPECT_THAT(text, HasSubstr("rui (seat 3) folded (timeout)"));
}

}  // namespace
}  // namespace banca::games::stud_no_draw
