#include "libs/games/tournament/bounty.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/games/tournament/limits.h"
#include "libs/games/tournament/test_util.h"

namespace banca::games::tournament {
namespace {

using Shares = std::vector<PlayerAmount>;

Shares Pay(int64_t bounty, const std::vector<SeatedPlayer>& winners) {
  absl::StatusOr<Shares> s = PayBounty(bounty, "zoe", winners);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : Shares{};
}

TEST(TournamentBounty, TheEliminatorTakesTheBounty_TN7p) {
  EXPECT_EQ(Pay(1000, {{"ana", 3}}), (Shares{{"ana", 1000}}));
}

TEST(TournamentBounty, ASplitPotSharesItOddCentFromTheButton_TN7p) {
  // 1,001 between two: 500 each, the odd cent to bia (order 2 < 4).
  EXPECT_EQ(Pay(1001, {{"ana", 4}, {"bia", 2}}),
            (Shares{{"bia", 501}, {"ana", 500}}));
  // 1,000 among three: 333 each, one cent to the first from the button.
  EXPECT_EQ(Pay(1000, {{"ana", 9}, {"bia", 6}, {"cai", 1}}),
            (Shares{{"cai", 334}, {"bia", 333}, {"ana", 333}}));
  // 1,001 among three: two cents odd.
  EXPECT_EQ(Pay(1001, {{"ana", 9}, {"bia", 6}, {"cai", 1}}),
            (Shares{{"cai", 334}, {"bia", 334}, {"ana", 333}}));
}

TEST(TournamentBounty, NoBountyPaysNothing_TN7p) {
  EXPECT_EQ(Pay(0, {{"ana", 1}, {"bia", 2}}), (Shares{{"ana", 0}, {"bia", 0}}));
}

TEST(TournamentBounty, LargestBountyWithoutOverflow_TN7p) {
  // 10^15 = 3 × 333,333,333,333,333 + 1.
  EXPECT_EQ(Pay(kMaxAmountMinor, {{"ana", 3}, {"bia", 2}, {"cai", 1}}),
            (Shares{{"cai", 333'333'333'333'334},
                    {"bia", 333'333'333'333'333},
                    {"ana", 333'333'333'333'333}}));
}

TEST(TournamentBounty, BadInputIsRejected) {
  EXPECT_TRUE(IsInvalid(PayBounty(-1, "zoe", {{"ana", 1}}).status(), "bounty"));
  EXPECT_TRUE(IsInvalid(
      PayBounty(kMaxAmountMinor + 1, "zoe", {{"ana", 1}}).status(), "bounty"));
  EXPECT_TRUE(
      IsInvalid(PayBounty(100, "", {{"ana", 1}}).status(), "eliminated"));
  EXPECT_TRUE(IsInvalid(PayBounty(100, "zoe", {}).status(), "pot_winners"));
  EXPECT_TRUE(
      IsInvalid(PayBounty(100, "zoe", {{"zoe", 1}}).status(), "pot_winners"));
  EXPECT_TRUE(IsInvalid(
      PayBounty(100, "zoe", {{"ana", 1}, {"ana", 2}}).status(), "pot_winners"));
  std::vector<SeatedPlayer> eleven;
  for (int i = 1; i <= kMaxPotWinners + 1; ++i) {
    eleven.push_back({"p" + std::to_string(i), i});
  }
  EXPECT_TRUE(IsInvalid(PayBounty(100, "zoe", eleven).status(), "pot_winners"));
  eleven.pop_back();
  EXPECT_TRUE(PayBounty(100, "zoe", eleven).ok());
}

}  // namespace
}  // namespace banca::games::tournament
