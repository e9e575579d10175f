// What a caller may see of a history (history_view.h): hole cards and the
// PHH text cut per audience; a banked round cut to the player's own part.
#include "libs/projection/history_view.h"

#include <string>

#include "gtest/gtest.h"

namespace banca::projection {
namespace {

// Three seats (2, 5, 7), the button at 5: p1 = 7, p2 = 2, p3 = 5. Seat 2
// folded; 5 and 7 were shown.
v1::GameHistory Hand() {
  v1::GameHistory h;
  h.mutable_summary()->set_game("poker");
  v1::PokerHandHistory& p = *h.mutable_poker();
  p.set_button(5);
  struct Seat {
    int seat;
    const char* player;
    const char* c1;
    const char* c2;
    bool shown;
  };
  for (const Seat& s :
       {Seat{2, "ana", "Ac", "Kd", false}, Seat{5, "bob", "2h", "2s", true},
        Seat{7, "cy", "Qc", "Jc", true}}) {
    v1::PokerSeatHistory* seat = p.add_seats();
    seat->set_seat(s.seat);
    seat->set_player_id(s.player);
    seat->add_hole_cards(s.c1);
    seat->add_hole_cards(s.c2);
    seat->set_folded(!s.shown);
    seat->set_shown(s.shown);
    h.mutable_summary()->add_players(s.player);
  }
  p.set_phh(
      "variant = \"NT\"\n"
      "_banca_deck = \"QcAc2hJcKd2s\"\n"
      "actions = [\"d dh p1 QcJc\", \"d dh p2 AcKd\", \"d dh p3 2h2s\", "
      "\"p2 f\", \"p3 cc\", \"p1 cc\", \"p3 sm 2h2s\", \"p1 sm QcJc\"]\n");
  return h;
}

TEST(HistoryView, PhhNumbersStartLeftOfTheButton) {
  EXPECT_EQ(PhhNumbers(Hand().poker()), (std::vector<int>{2, 3, 1}));
}

TEST(HistoryView, APlayerSeesTheirOwnAndTheShownCardsOnly) {
  v1::GameHistory h = Hand();
  CutHistory(h, HistoryAudience::kPlayer, "bob");
  EXPECT_TRUE(h.poker().seats(0).hole_cards().empty());
  EXPECT_TRUE(h.poker().seats(0).cards_hidden());
  EXPECT_EQ(h.poker().seats(1).hole_cards_size(), 2);
  EXPECT_EQ(h.poker().seats(2).hole_cards_size(), 2);
  const std::string& phh = h.poker().phh();
  EXPECT_EQ(phh.find("AcKd"), std::string::npos) << phh;
  EXPECT_EQ(phh.find("_banca_deck"), std::string::npos) << phh;
  EXPECT_NE(phh.find("\"d dh p2 ????\""), std::string::npos) << phh;
  EXPECT_NE(phh.find("\"d dh p1 QcJc\""), std::string::npos) << phh;
  EXPECT_NE(phh.find("\"p3 sm 2h2s\""), std::string::npos) << phh;
}

TEST(HistoryView, TheFolderSeesTheirOwnCards) {
  v1::GameHistory h = Hand();
  CutHistory(h, HistoryAudience::kPlayer, "ana");
  EXPECT_EQ(h.poker().seats(0).hole_cards_size(), 2);
  EXPECT_NE(h.poker().phh().find("AcKd"), std::string::npos);
  EXPECT_EQ(h.poker().phh().find("_banca_deck"), std::string::npos);
}

TEST(HistoryView, FinanceSeesOnlyShownCardsAndStaffEverything) {
  v1::GameHistory fin = Hand();
  CutHistory(fin, HistoryAudience::kFinance, "");
  EXPECT_TRUE(fin.poker().seats(0).cards_hidden());
  EXPECT_EQ(fin.poker().phh().find("AcKd"), std::string::npos);
  v1::GameHistory staff = Hand();
  CutHistory(staff, HistoryAudience::kStaff, "");
  EXPECT_EQ(staff.SerializeAsString(), Hand().SerializeAsString());
}

TEST(HistoryView, APlayerSeesOnlyTheirPartOfABankedRound) {
  v1::GameHistory h;
  h.mutable_summary()->set_game("roulette_french");
  for (const char* p : {"ana", "bob"}) {
    h.mutable_summary()->add_players(p);
    v1::BankedPlayerRound* part = h.mutable_banked()->add_players();
    part->set_player_id(p);
    part->mutable_record()->set_staked_minor(p[0] == 'a' ? 100 : 300);
  }
  h.mutable_summary()->set_staked_minor(400);
  CutHistory(h, HistoryAudience::kPlayer, "bob");
  ASSERT_EQ(h.banked().players_size(), 1);
  EXPECT_EQ(h.banked().players(0).player_id(), "bob");
  EXPECT_EQ(h.summary().staked_minor(), 300);
  ASSERT_EQ(h.summary().players_size(), 1);
}

}  // namespace
}  // namespace banca::projection
