// The banked API's wire format across renames: a field keeps its number
// and type, so what an older build wrote still decodes.
#include <string>

#include "banca/v1/banked_table.pb.h"
#include "gtest/gtest.h"

namespace banca::wire {
namespace {

// BankedRoundRecord field 12 was `blackjack_bets`; it carries the stud
// game's stakes too and is now `stake_results`.
TEST(BankedWire, RoundRecordStakeResultsAreStillFieldTwelve) {
  // As the old schema encoded one bet {bet_id "seat1.main", stake 1000}:
  // tag 12 length-delimited (0x62), then the BlackjackBetView.
  const std::string old_bytes = std::string("\x62\x0f", 2) +
                                std::string("\x0a\x0aseat1.main", 12) +
                                std::string("\x10\xe8\x07", 3);
  v1::BankedRoundRecord rec;
  ASSERT_TRUE(rec.ParseFromString(old_bytes));
  ASSERT_EQ(rec.stake_results_size(), 1);
  EXPECT_EQ(rec.stake_results(0).bet_id(), "seat1.main");
  EXPECT_EQ(rec.stake_results(0).stake_minor(), 1'000);
  EXPECT_TRUE(rec.GetReflection()->GetUnknownFields(rec).empty());
  std::string again;
  ASSERT_TRUE(rec.SerializeToString(&again));
  EXPECT_EQ(again, old_bytes);
}

}  // namespace
}  // namespace banca::wire
