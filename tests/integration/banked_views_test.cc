// Hidden cards stay hidden at the banked tables from every caller that is
// not the seat's player (issue 17 item 6; docs/security.md "Tables and
// hidden cards"), and spectators never crowd joined players out: over gRPC
// on loopback, against the real banked-table service.
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/banked_table_fixture.h"

namespace banca::testing {
namespace {

// Every role but the player's.
constexpr auth::Role kNotPlayers[] = {
    auth::Role::kAuditor, auth::Role::kGateway, auth::Role::kOperator,
    auth::Role::kFinance, auth::Role::kService};

// A view with nothing private in it: not joined, no seat, no card but the
// bank's up card while the decisions are open, no bet, no session.
void ExpectSpectatorView(const v1::BankedTableView& v) {
  EXPECT_FALSE(v.joined());
  EXPECT_EQ(v.session().rounds(), 0);
  EXPECT_EQ(v.session().total_bet_minor(), 0);
  EXPECT_TRUE(v.notice().empty());
  EXPECT_EQ(v.stud().my_seat(), 0);
  EXPECT_EQ(v.stud().bank_cards_size(), 0);
  EXPECT_FALSE(v.stud().can_bet());
  EXPECT_FALSE(v.stud().can_fold());
  for (const v1::StudSeatView& s : v.stud().seats()) {
    EXPECT_EQ(s.cards_size(), 0) << "the cards of seat " << s.seat() << " ("
                                 << s.player_id() << ") were shown";
  }
  EXPECT_EQ(v.roulette().my_bets_size(), 0);
  EXPECT_EQ(v.blackjack().my_seat(), 0);
}

// Before subjects were namespaced by role, the banked tables keyed views,
// reads and Leave by the token's bare subject: an auditor or gateway token
// issued for "ana" got ana's view (her five cards of póquer sem descarte,
// her roulette bets, her session), her rounds from GetLastRound and
// GetReplay, and its Leave ended her session. Views are now computed for
// players only, and the reads and Leave of a seat are a player's.
TEST_F(BankedTableTest, AuditorAndGatewayNamedAnaSeeNoneOfAnasCards) {
  v1::StudTableConfig config;
  config.set_seats(2);
  ASSERT_TRUE(CreateStud("sv1", config).ok());
  Fund("ana", 10'000);
  Fund("bob", 10'000);
  ASSERT_TRUE(Sit("ana", "sv1", 1).ok());
  ASSERT_TRUE(Sit("bob", "sv1", 2).ok());
  ASSERT_TRUE(PlaceBet("ana", "sv1", {}, 200).ok());
  ASSERT_TRUE(PlaceBet("bob", "sv1", {}, 200).ok());
  clock_.Advance(absl::Seconds(15));
  tables_->Tick();
  const v1::BankedTableView own = View("ana", "sv1");
  ASSERT_EQ(own.stud().phase(), "DECISIONS");
  // The setup shows what is at stake: ana's five cards, in her view.
  ASSERT_NE(StudSeat(own, 1), nullptr);
  ASSERT_EQ(StudSeat(own, 1)->cards_size(), 5);
  ASSERT_TRUE(own.joined());
  const int64_t events = TableEvents();

  v1::GetBankedTableRequest req;
  req.set_table_id("sv1");
  std::vector<std::unique_ptr<BankedWatch>> streams;
  for (const auth::Role role : kNotPlayers) {
    SCOPED_TRACE(auth::RoleName(role));
    v1::BankedTableView view;
    ASSERT_TRUE(stub_->GetTableView(As("ana", role).get(), req, &view).ok());
    ExpectSpectatorView(view);
    EXPECT_FALSE(view.stud().bank_up_card().empty());  // public
    streams.push_back(
        std::make_unique<BankedWatch>(*stub_, As("ana", role), "sv1"));
    std::optional<v1::BankedTableView> first = streams.back()->WaitFor(
        [](const v1::BankedTableView&) { return true; });
    ASSERT_TRUE(first.has_value());
    ExpectSpectatorView(*first);
    v1::BankedRoundRecord round;
    EXPECT_EQ(
        stub_->GetLastRound(As("ana", role).get(), req, &round).error_code(),
        grpc::PERMISSION_DENIED);
    v1::BankedReplayResponse replay;
    EXPECT_EQ(
        stub_->GetReplay(As("ana", role).get(), req, &replay).error_code(),
        grpc::PERMISSION_DENIED);
    v1::BankedSessionSummary summary;
    EXPECT_EQ(stub_->GetSessionSummary(As("ana", role).get(), req, &summary)
                  .error_code(),
              grpc::PERMISSION_DENIED);
    v1::LeaveBankedTableRequest leave;
    leave.set_request_id("attack-leave");
    leave.set_table_id("sv1");
    EXPECT_EQ(stub_->Leave(As("ana", role).get(), leave, &summary).error_code(),
              grpc::PERMISSION_DENIED);
    v1::BankedActRequest fold;
    fold.set_request_id("attack-fold");
    fold.set_table_id("sv1");
    fold.set_round(own.round());
    fold.set_stud_action(v1::STUD_ACTION_TYPE_FOLD);
    EXPECT_EQ(stub_->Act(As("ana", role).get(), fold, &view).error_code(),
              grpc::PERMISSION_DENIED);
  }
  // ana decides: the streams' next views show none of her cards either.
  ASSERT_TRUE(StudAct("ana", "sv1", v1::STUD_ACTION_TYPE_FOLD).ok());
  for (std::unique_ptr<BankedWatch>& w : streams) {
    ASSERT_TRUE(w->WaitFor([&](const v1::BankedTableView& v) {
      return v.version() > own.version();
    }));
    for (const v1::BankedTableView& v : w->views()) {
      EXPECT_FALSE(v.joined());
      EXPECT_EQ(v.stud().my_seat(), 0);
      for (const v1::StudSeatView& s : v.stud().seats()) {
        if (s.seat() == 1) {
          EXPECT_EQ(s.cards_size(), 0);
        }
      }
    }
    // A spectator's stream is no connection of ana's: its end records
    // nothing.
    w->Cancel();
  }
  absl::SleepFor(absl::Milliseconds(500));  // past the server's next look
  EXPECT_EQ(CountEvents(v1::BankedTableEvent::kConnection), 0);
  EXPECT_TRUE(View("ana", "sv1").joined());
  EXPECT_FALSE(View("ana", "sv1").disconnected());
  EXPECT_GT(TableEvents(), events);  // ana's fold, nothing of the callers'

  // Roulette: ana's bets are hers.
  ASSERT_TRUE(Create("rv1", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  ASSERT_TRUE(Join("ana", "rv1").ok());
  ASSERT_TRUE(PlaceBet("ana", "rv1", Bet("red"), 100).ok());
  ASSERT_EQ(View("ana", "rv1").roulette().my_bets_size(), 1);
  req.set_table_id("rv1");
  for (const auth::Role role : kNotPlayers) {
    v1::BankedTableView view;
    ASSERT_TRUE(stub_->GetTableView(As("ana", role).get(), req, &view).ok());
    ExpectSpectatorView(view);
  }
}

// Before, a table's WatchTable streams shared one count (64) whoever held
// them: 64 streams from any token (even one) locked the joined players out
// of their own stream, which is also how the service learns of their
// connection. Now a joined player is always admitted, spectators have
// their own 64 places per table, and one caller holds at most 4 streams
// across the service.
TEST_F(BankedTableTest, SpectatorsNeverCrowdOutJoinedPlayers) {
  ASSERT_TRUE(Create("rc1", v1::BANKED_GAME_ROULETTE_FRENCH).ok());
  Fund("ana", 10'000);
  ASSERT_TRUE(Join("ana", "rc1").ok());
  auto admitted = [](BankedWatch& w) {
    return w.WaitFor([](const v1::BankedTableView&) { return true; })
        .has_value();
  };
  std::vector<std::unique_ptr<BankedWatch>> open;
  // One token, 8 streams: the per-caller cap admits 4.
  for (int i = 0; i < 8; ++i) {
    auto w = std::make_unique<BankedWatch>(
        *stub_, As("fan", auth::Role::kAuditor), "rc1");
    if (admitted(*w)) {
      open.push_back(std::move(w));
      continue;
    }
    std::optional<grpc::Status> s = w->Ended();
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->error_code(), grpc::RESOURCE_EXHAUSTED);
    EXPECT_NE(
        s->error_message().find("at most 4 WatchTable streams per caller"),
        std::string::npos)
        << s->error_message();
  }
  EXPECT_EQ(open.size(), 4u);
  // Many tokens: the 64 spectators' places fill, then the next is refused.
  std::optional<grpc::Status> refused;
  for (int i = 0; i < 100 && !refused; ++i) {
    auto w = std::make_unique<BankedWatch>(
        *stub_,
        As(absl::StrCat("fan", i),
           i % 2 == 0 ? auth::Role::kPlayer : auth::Role::kGateway),
        "rc1");
    if (admitted(*w)) {
      open.push_back(std::move(w));
    } else {
      refused = w->Ended();
    }
  }
  EXPECT_EQ(open.size(), 64u);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->error_code(), grpc::RESOURCE_EXHAUSTED);
  EXPECT_NE(
      refused->error_message().find("at most 64 spectators' streams per table"),
      std::string::npos)
      << refused->error_message();
  // ana, joined, still has her stream (her connection) and plays.
  std::unique_ptr<BankedWatch> ana = Watch("ana", "rc1");
  ASSERT_TRUE(
      ana->WaitFor([](const v1::BankedTableView& v) { return v.joined(); }));
  ASSERT_TRUE(PlaceBet("ana", "rc1", Bet("red"), 100).ok());
  EXPECT_TRUE(ana->WaitFor([](const v1::BankedTableView& v) {
    return v.roulette().my_bets_size() == 1;
  }));
  for (std::unique_ptr<BankedWatch>& w : open) w->Cancel();
  ana->Cancel();
}

}  // namespace
}  // namespace banca::testing
