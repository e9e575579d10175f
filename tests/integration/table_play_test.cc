// TableService.Play: a player's seat over one stream (gRPC over loopback,
// the embedded log on disk, the wallet settling in RocksDB).
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "libs/wire/topics.h"
#include "tests/integration/table_test_fixture.h"
#include "tests/integration/unknown_fields.h"

namespace banca::testing {
namespace {

using PlayStream = grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayUpdate>;

class TablePlayTest : public TableServiceTest {
 protected:
  // A Play stream of `player` (no deadline beyond the test's: every read
  // below is one the service owes).
  struct Open {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<PlayStream> stream;
  };
  Open OpenPlay(const std::string& player,
                auth::Role role = auth::Role::kPlayer) {
    Open o;
    o.ctx = As(player, role);
    o.ctx->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(20));
    o.stream = tables_->Play(o.ctx.get());
    return o;
  }
  // False when the service has ended the stream already (a refused
  // caller): its status then comes from Close.
  static bool Join(Open& o, const std::string& table) {
    v1::PlayRequest join;
    join.mutable_join()->set_table_id(table);
    return o.stream->Write(join);
  }
  static v1::PlayUpdate Next(Open& o) {
    v1::PlayUpdate u;
    EXPECT_TRUE(o.stream->Read(&u)) << "the stream ended";
    return u;
  }
  // The next update that satisfies `wanted` (at most 100 read).
  template <typename Wanted>
  static v1::PlayUpdate NextWhere(Open& o, Wanted wanted) {
    v1::PlayUpdate u;
    for (int i = 0; i < 100; ++i) {
      if (!o.stream->Read(&u)) {
        grpc::Status s = o.stream->Finish();
        ADD_FAILURE() << "the stream ended: " << s.error_code() << " "
                      << s.error_message();
        return v1::PlayUpdate();
      }
      if (wanted(u)) return u;
    }
    ADD_FAILURE() << "100 updates without the one wanted";
    return v1::PlayUpdate();
  }
  static bool SendAct(Open& o, const std::string& id, int64_t hand,
                      v1::PokerActionType action, int64_t amount = 0,
                      const std::string& table = "") {
    v1::PlayRequest r;
    r.mutable_act()->set_request_id(id);
    r.mutable_act()->set_table_id(table);
    r.mutable_act()->set_hand_number(hand);
    r.mutable_act()->set_action(action);
    r.mutable_act()->set_amount_minor(amount);
    return o.stream->Write(r);
  }
  static bool SendRebuy(Open& o, const std::string& id, int64_t amount,
                        const std::string& table = "") {
    v1::PlayRequest r;
    r.mutable_rebuy()->set_request_id(id);
    r.mutable_rebuy()->set_table_id(table);
    r.mutable_rebuy()->set_amount_minor(amount);
    return o.stream->Write(r);
  }
  static grpc::Status Close(Open& o) {
    o.stream->WritesDone();
    v1::PlayUpdate rest;
    while (o.stream->Read(&rest)) {
    }
    return o.stream->Finish();
  }
};

TEST_F(TablePlayTest, TheTurnComesToThePlayerAndTheAnswerFollowsTheAction) {
  TwoAtTable("t1");
  Open ana = OpenPlay("ana");
  Open bob = OpenPlay("bob");
  ASSERT_TRUE(Join(ana, "t1"));
  ASSERT_TRUE(Join(bob, "t1"));
  // The joining views: each player's own cards only (DESIGN invariant 7).
  v1::PlayUpdate a0 = Next(ana);
  v1::PlayUpdate b0 = Next(bob);
  ASSERT_TRUE(a0.has_view());
  ASSERT_TRUE(a0.view().in_hand());
  EXPECT_TRUE(a0.request_id().empty());
  for (const v1::TableView& v : {a0.view(), b0.view()}) {
    for (const v1::SeatState& s : v.seats()) {
      EXPECT_EQ(s.cards_size(), s.seat() == v.my_seat() ? 2 : 0);
    }
  }
  const int first_seat = a0.view().to_act();
  Open& first = PlayerAt(a0.view(), first_seat) == "ana" ? ana : bob;
  Open& second = &first == &ana ? bob : ana;
  const v1::TableView& mine = &first == &ana ? a0.view() : b0.view();
  ASSERT_EQ(mine.to_act(), mine.my_seat());
  ASSERT_GT(mine.legal().actions_size(), 0);
  const int64_t events = TableEvents();

  // Heads-up preflop: the small blind (the button) calls; the answer has no
  // view, and the big blind is told it is their turn, with their options.
  ASSERT_TRUE(
      SendAct(first, "a1", mine.hand_number(), v1::POKER_ACTION_TYPE_CALL));
  v1::PlayUpdate answer = Next(first);
  EXPECT_EQ(answer.request_id(), "a1");
  EXPECT_EQ(answer.code(), 0) << answer.error_message();
  EXPECT_FALSE(answer.has_view());
  EXPECT_GT(answer.version(), mine.version());
  v1::PlayUpdate turn = Next(second);
  EXPECT_TRUE(turn.request_id().empty());
  ASSERT_TRUE(turn.has_view());
  EXPECT_EQ(turn.view().to_act(), turn.view().my_seat());
  EXPECT_EQ(turn.view().version(), answer.version());
  EXPECT_GT(turn.view().legal().actions_size(), 0);
  EXPECT_GT(TableEvents(), events);

  // A retry of the same action: the same outcome, nothing appended.
  const int64_t after = TableEvents();
  ASSERT_TRUE(
      SendAct(first, "a1", mine.hand_number(), v1::POKER_ACTION_TYPE_CALL));
  v1::PlayUpdate retry = Next(first);
  EXPECT_EQ(retry.request_id(), "a1");
  EXPECT_EQ(retry.code(), 0);
  EXPECT_EQ(TableEvents(), after);
  // ... and the same id for another action is refused.
  ASSERT_TRUE(
      SendAct(first, "a1", mine.hand_number(), v1::POKER_ACTION_TYPE_FOLD));
  v1::PlayUpdate reused = Next(first);
  EXPECT_EQ(reused.code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(TableEvents(), after);
  // The Act call shares the stream's idempotency: the same action retried
  // there is recognised (and answered with the current view).
  {
    const std::string player = PlayerAt(a0.view(), first_seat);
    v1::ActRequest req;
    req.set_request_id("a1");
    req.set_table_id("t1");
    req.set_hand_number(mine.hand_number());
    req.set_action(v1::POKER_ACTION_TYPE_CALL);
    v1::TableView view;
    grpc::Status s = tables_->Act(As(player).get(), req, &view);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(view.version(), answer.version());
    EXPECT_EQ(TableEvents(), after);
  }

  EXPECT_TRUE(Close(ana).ok());
  EXPECT_TRUE(Close(bob).ok());
}

TEST_F(TablePlayTest, ARefusedActAppendsNothingAndKeepsTheStreamOpen) {
  TwoAtTable("t1");
  Open ana = OpenPlay("ana");
  Open bob = OpenPlay("bob");
  ASSERT_TRUE(Join(ana, "t1"));
  ASSERT_TRUE(Join(bob, "t1"));
  const v1::TableView a = Next(ana).view();
  (void)Next(bob);
  Open& waiting = PlayerAt(a, a.to_act()) == "ana" ? bob : ana;
  Open& acting = &waiting == &ana ? bob : ana;
  const int64_t events = TableEvents();

  struct Case {
    std::string id;
    v1::PokerActionType action;
    int64_t amount;
    std::string table;
    grpc::StatusCode code;
    std::string message;  // a part of the error message
  };
  const Case cases[] = {
      {"w1", v1::POKER_ACTION_TYPE_CHECK, 0, "", grpc::FAILED_PRECONDITION, ""},
      {"bad id", v1::POKER_ACTION_TYPE_FOLD, 0, "", grpc::INVALID_ARGUMENT,
       "request_id"},
      {"w2", v1::POKER_ACTION_TYPE_UNSPECIFIED, 0, "", grpc::INVALID_ARGUMENT,
       ""},
      {"w3", v1::POKER_ACTION_TYPE_FOLD, 0, "t2", grpc::INVALID_ARGUMENT,
       "plays at table t1"},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(
        SendAct(waiting, c.id, a.hand_number(), c.action, c.amount, c.table));
    v1::PlayUpdate u = Next(waiting);
    EXPECT_EQ(u.request_id(), c.id);
    EXPECT_EQ(u.code(), c.code) << c.id << ": " << u.error_message();
    EXPECT_NE(u.error_message().find(c.message), std::string::npos)
        << u.error_message();
    ASSERT_TRUE(u.has_view()) << "a refused Act carries the current view";
    EXPECT_EQ(u.view().version(), a.version());
  }
  // An illegal amount from the player to act: refused, the turn stays.
  ASSERT_TRUE(SendAct(acting, "big", a.hand_number(),
                      v1::POKER_ACTION_TYPE_RAISE, 1'000'000));
  v1::PlayUpdate refused = Next(acting);
  EXPECT_NE(refused.code(), 0);
  EXPECT_EQ(refused.view().to_act(), refused.view().my_seat());
  EXPECT_EQ(TableEvents(), events);

  // The stream still plays: a legal fold goes through.
  ASSERT_TRUE(
      SendAct(acting, "fold", a.hand_number(), v1::POKER_ACTION_TYPE_FOLD));
  EXPECT_EQ(Next(acting).code(), 0);
  EXPECT_GT(TableEvents(), events);
}

TEST_F(TablePlayTest, BadStreamsEndWithAPreciseStatus) {
  TwoAtTable("t1");
  {
    Open o = OpenPlay("ana");
    ASSERT_TRUE(SendAct(o, "x", 1, v1::POKER_ACTION_TYPE_FOLD));
    grpc::Status s = Close(o);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(s.error_message().find("joins a table"), std::string::npos);
  }
  {
    Open o = OpenPlay("ana");
    ASSERT_TRUE(Join(o, "nope"));
    EXPECT_EQ(Close(o).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  {
    Open o = OpenPlay("op", auth::Role::kOperator);
    Join(o, "t1");
    EXPECT_EQ(Close(o).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  {
    Open o;
    o.ctx = std::make_unique<grpc::ClientContext>();
    o.ctx->AddMetadata("authorization", "Bearer forged");
    o.stream = tables_->Play(o.ctx.get());
    Join(o, "t1");
    EXPECT_EQ(Close(o).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  {
    Open o = OpenPlay("ana");
    ASSERT_TRUE(Join(o, "t1"));
    ASSERT_TRUE(Next(o).has_view());
    ASSERT_TRUE(Join(o, "t1"));
    EXPECT_EQ(Close(o).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  }
  {
    Open o = OpenPlay("ana");
    ASSERT_TRUE(o.stream->Write(v1::PlayRequest()));
    EXPECT_EQ(Close(o).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  }
}

TEST_F(TablePlayTest, AStoppingServiceEndsTheStreamsAndRefusesNewOnes) {
  TwoAtTable("t1");
  Open ana = OpenPlay("ana");
  ASSERT_TRUE(Join(ana, "t1"));
  ASSERT_TRUE(Next(ana).has_view());
  table_->BeginShutdown();
  EXPECT_EQ(Close(ana).error_code(), grpc::StatusCode::UNAVAILABLE);
  Open late = OpenPlay("bob");
  ASSERT_TRUE(Join(late, "t1"));
  EXPECT_EQ(Close(late).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TablePlayTest, ANewerStreamOfThePlayerReplacesTheOlder) {
  TwoAtTable("t1");
  Open old_stream = OpenPlay("ana");
  ASSERT_TRUE(Join(old_stream, "t1"));
  ASSERT_TRUE(Next(old_stream).has_view());
  Open fresh = OpenPlay("ana");
  ASSERT_TRUE(Join(fresh, "t1"));
  ASSERT_TRUE(Next(fresh).has_view());
  grpc::Status s = Close(old_stream);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED) << s.error_message();
  EXPECT_TRUE(Close(fresh).ok());
}

TEST_F(TablePlayTest, AShortStackIsToldAfterTheHand_HE70a) {
  // Both players push every hand until one of them ends below the big
  // blind: that player is invited to rebuy or leave (HE-70a) and hears it
  // on their stream, without polling.
  TwoAtTable("t1");
  std::map<std::string, Open> streams;
  streams["ana"] = OpenPlay("ana");
  streams["bob"] = OpenPlay("bob");
  // The joining views come first; the one of the player to act is their
  // first turn.
  for (auto& [player, o] : streams) ASSERT_TRUE(Join(o, "t1"));
  std::map<std::string, int64_t> acted;  // the version each acted on
  // Notices seen on each stream while it was read for something else (a
  // notice given by the action that ends a hand comes before its answer).
  std::map<std::string, v1::SessionNotice> noticed;
  auto reading = [&](const std::string& player, auto wanted) {
    return NextWhere(streams[player], [&](const v1::PlayUpdate& u) {
      if (u.view().has_notice()) noticed[player] = u.view().notice();
      return wanted(u);
    });
  };
  for (int action = 0; action < 100; ++action) {
    const v1::TableView table = View("op", "t1");
    std::string short_player;
    for (const v1::SeatState& s : table.seats()) {
      if (s.stack_minor() < 100 && !s.in_hand()) short_player = s.player_id();
    }
    if (!short_player.empty()) {
      if (!noticed.contains(short_player)) {
        reading(short_player,
                [](const v1::PlayUpdate& u) { return u.view().has_notice(); });
      }
      EXPECT_EQ(noticed[short_player].reason(),
                v1::SESSION_NOTICE_REASON_SHORT_STACK);
      EXPECT_EQ(noticed[short_player].kind(), v1::SESSION_NOTICE_KIND_INVITED);
      return;
    }
    ASSERT_TRUE(table.in_hand());
    const std::string player = PlayerAt(table, table.to_act());
    Open& o = streams[player];
    // The turn notice for this decision: the player's first view since
    // their last action that says it is their turn.
    const v1::PlayUpdate turn = reading(player, [&](const v1::PlayUpdate& u) {
      return u.has_view() && u.view().version() > acted[player] &&
             u.view().to_act() == u.view().my_seat();
    });
    ASSERT_TRUE(turn.has_view());
    acted[player] = turn.view().version();
    const bool facing_all_in = std::find(turn.view().legal().actions().begin(),
                                         turn.view().legal().actions().end(),
                                         v1::POKER_ACTION_TYPE_CALL) !=
                               turn.view().legal().actions().end();
    const std::string id = absl::StrCat("push-", action);
    ASSERT_TRUE(SendAct(o, id, turn.view().hand_number(),
                        facing_all_in ? v1::POKER_ACTION_TYPE_CALL
                                      : v1::POKER_ACTION_TYPE_ALL_IN));
    const v1::PlayUpdate answer = reading(
        player, [&](const v1::PlayUpdate& u) { return u.request_id() == id; });
    ASSERT_EQ(answer.request_id(), id);
    ASSERT_EQ(answer.code(), 0) << answer.error_message();
  }
  FAIL() << "nobody went short in 100 actions";
}

TEST_F(TablePlayTest, ARebuyIsAnsweredOnceTheWalletHasFundedIt) {
  TwoAtTable("t1");
  Open ana = OpenPlay("ana");
  ASSERT_TRUE(Join(ana, "t1"));
  ASSERT_TRUE(Next(ana).has_view());
  // Asked during the hand: funded now, added to the stack when the hand
  // ends (HE-11b), answered once the wallet's saga is over.
  ASSERT_TRUE(SendRebuy(ana, "rb1", 5'000));
  const v1::PlayUpdate answer = NextWhere(
      ana, [](const v1::PlayUpdate& u) { return u.request_id() == "rb1"; });
  ASSERT_EQ(answer.code(), 0) << answer.error_message();
  ASSERT_TRUE(answer.has_seat());
  EXPECT_EQ(answer.seat().player_id(), "ana");
  EXPECT_EQ(answer.seat().table_id(), "t1");
  EXPECT_EQ(answer.seat().pending_rebuy_minor(), 5'000);
  Settle();
  EXPECT_EQ(Cash("ana"), 50'000 - 10'000 - 5'000);

  // A retry, over the stream or by the Rebuy call: the same answer,
  // nothing appended, no second saga.
  const int64_t events = TableEvents();
  ASSERT_TRUE(SendRebuy(ana, "rb1", 5'000));
  const v1::PlayUpdate retry = Next(ana);
  EXPECT_EQ(retry.request_id(), "rb1");
  EXPECT_EQ(retry.code(), 0);
  EXPECT_EQ(retry.seat().SerializeAsString(),
            answer.seat().SerializeAsString());
  {
    v1::RebuyRequest req;
    req.set_request_id("rb1");
    req.set_table_id("t1");
    req.set_amount_minor(5'000);
    v1::SeatResponse seat;
    grpc::Status s = tables_->Rebuy(As("ana").get(), req, &seat);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(seat.SerializeAsString(), answer.seat().SerializeAsString());
  }
  // The same id for another amount is another request.
  ASSERT_TRUE(SendRebuy(ana, "rb1", 4'000));
  EXPECT_EQ(Next(ana).code(), grpc::StatusCode::ALREADY_EXISTS);
  Settle();
  EXPECT_EQ(TableEvents(), events);
  EXPECT_EQ(Cash("ana"), 50'000 - 10'000 - 5'000);
  EXPECT_TRUE(Close(ana).ok());
}

TEST_F(TablePlayTest, ARefusedRebuyAppendsNothingAndKeepsTheStreamOpen) {
  TwoAtTable("t1");
  Open ana = OpenPlay("ana");
  ASSERT_TRUE(Join(ana, "t1"));
  ASSERT_TRUE(Next(ana).has_view());
  const int64_t events = TableEvents();
  struct Case {
    std::string id;
    int64_t amount;
    std::string table;
    grpc::StatusCode code;
    std::string message;  // a part of the error message
  };
  const Case cases[] = {
      {"r1", 1'000, "t2", grpc::INVALID_ARGUMENT, "plays at table t1"},
      {"bad id", 1'000, "", grpc::INVALID_ARGUMENT, "request_id"},
      {"r2", 0, "", grpc::INVALID_ARGUMENT, "positive"},
      {"r3", 20'000, "", grpc::INVALID_ARGUMENT, "would make the stack"},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(SendRebuy(ana, c.id, c.amount, c.table));
    const v1::PlayUpdate u = Next(ana);
    EXPECT_EQ(u.request_id(), c.id);
    EXPECT_EQ(u.code(), c.code) << c.id << ": " << u.error_message();
    EXPECT_NE(u.error_message().find(c.message), std::string::npos)
        << u.error_message();
    EXPECT_FALSE(u.has_seat());
  }
  EXPECT_EQ(TableEvents(), events);
  // A corrected request with a refused id is decided afresh.
  ASSERT_TRUE(SendRebuy(ana, "r3", 1'000));
  EXPECT_EQ(Next(ana).code(), 0);
  EXPECT_TRUE(Close(ana).ok());
  // And a rebuy is no first message.
  Open early = OpenPlay("bob");
  ASSERT_TRUE(SendRebuy(early, "r9", 1'000, "t1"));
  EXPECT_EQ(Close(early).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(TablePlayTest, ARebuyTheWalletRefusesIsAnsweredWithItsReason) {
  Fund("ana", 10'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Create("t1", Holdem()).ok());
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  Open ana = OpenPlay("ana");
  ASSERT_TRUE(Join(ana, "t1"));
  ASSERT_TRUE(Next(ana).has_view());
  ASSERT_TRUE(SendRebuy(ana, "broke", 5'000));
  const v1::PlayUpdate u = NextWhere(
      ana, [](const v1::PlayUpdate& u) { return u.request_id() == "broke"; });
  EXPECT_EQ(u.code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(u.error_message().find("buy-in refused"), std::string::npos)
      << u.error_message();
  Settle();
  EXPECT_EQ(Cash("ana"), 0);
  // The saga is on the log, with its refusal.
  int requested = 0;
  int failed = 0;
  for (const v1::TableEvent& e : LoggedTableEvents()) {
    requested += e.has_buy_in_requested() && e.buy_in_requested().rebuy();
    failed += e.has_buy_in_failed();
  }
  EXPECT_EQ(requested, 1);
  EXPECT_EQ(failed, 1);
  EXPECT_TRUE(Close(ana).ok());
}

// Unknown fields are dropped from what a Play stream reads too
// (services/common/request_limits.h): an act that carries them is the same
// request as without them, so its retry without them is recognised, not
// refused as another request under the same id.
TEST_F(TablePlayTest, UnknownFieldsOfStreamedActsAreDropped) {
  TwoAtTable("t1");
  const v1::TableView table = View("op", "t1");
  Open acting = OpenPlay(PlayerAt(table, table.to_act()));
  ASSERT_TRUE(Join(acting, "t1"));
  const v1::TableView a = Next(acting).view();
  ASSERT_EQ(a.to_act(), a.my_seat());
  const int64_t events = TableEvents();
  v1::PlayRequest r;
  r.mutable_act()->set_request_id("u1");
  r.mutable_act()->set_hand_number(a.hand_number());
  r.mutable_act()->set_action(v1::POKER_ACTION_TYPE_CALL);
  AddUnknownField(*r.mutable_act(), 200'000);
  AddUnknownField(r, 20'000);
  ASSERT_TRUE(acting.stream->Write(r));
  auto answer_to_u1 = [](const v1::PlayUpdate& u) {
    return u.request_id() == "u1";
  };
  const v1::PlayUpdate answer = NextWhere(acting, answer_to_u1);
  EXPECT_EQ(answer.code(), 0) << answer.error_message();
  const int64_t after = TableEvents();
  EXPECT_GT(after, events);
  EXPECT_LT(LargestRecord(*log_, wire::kTableTopic), kSmallRecordBytes);

  ASSERT_TRUE(
      SendAct(acting, "u1", a.hand_number(), v1::POKER_ACTION_TYPE_CALL));
  const v1::PlayUpdate retry = NextWhere(acting, answer_to_u1);
  EXPECT_EQ(retry.code(), 0) << retry.error_message();
  EXPECT_EQ(TableEvents(), after);
  EXPECT_TRUE(Close(acting).ok());
}

}  // namespace
}  // namespace banca::testing
