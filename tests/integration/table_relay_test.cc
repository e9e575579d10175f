// TableService.Relay: a connection gateway carrying many players' sessions
// over one stream (gRPC over loopback, the embedded log on disk, the wallet
// settling in RocksDB).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "libs/wire/topics.h"
#include "services/common/request_limits.h"
#include "tests/integration/table_test_fixture.h"
#include "tests/integration/unknown_fields.h"

namespace banca::testing {
namespace {

using RelayClient = grpc::ClientReaderWriter<v1::RelayRequest, v1::RelayUpdate>;

class TableRelayTest : public TableServiceTest {
 protected:
  struct Gateway {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<RelayClient> stream;
    // Deliveries read but not yet taken, by session.
    std::map<uint32_t, std::vector<v1::RelayDelivery>> unread;
  };
  Gateway OpenRelay(const std::string& caller = "gw-1",
                    auth::Role role = auth::Role::kGateway) {
    Gateway g;
    g.ctx = As(caller, role);
    g.ctx->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(20));
    g.stream = tables_->Relay(g.ctx.get());
    return g;
  }
  static v1::RelayMessage OpenMessage(uint32_t session,
                                      const std::string& token,
                                      const std::string& table) {
    v1::RelayMessage m;
    m.set_session(session);
    m.mutable_open()->set_player_token(token);
    m.mutable_open()->set_table_id(table);
    return m;
  }
  static v1::RelayMessage ActMessage(uint32_t session, const std::string& id,
                                     int64_t hand, v1::PokerActionType action,
                                     int64_t amount = 0) {
    v1::RelayMessage m;
    m.set_session(session);
    m.mutable_act()->set_request_id(id);
    m.mutable_act()->set_hand_number(hand);
    m.mutable_act()->set_action(action);
    m.mutable_act()->set_amount_minor(amount);
    return m;
  }
  static bool Send(Gateway& g, std::vector<v1::RelayMessage> messages) {
    v1::RelayRequest r;
    for (v1::RelayMessage& m : messages) *r.add_messages() = std::move(m);
    return g.stream->Write(r);
  }
  // The next delivery for `session` (every delivery read meanwhile is kept
  // for its own session).
  static v1::RelayDelivery Next(Gateway& g, uint32_t session) {
    for (int i = 0; i < 100; ++i) {
      std::vector<v1::RelayDelivery>& mine = g.unread[session];
      if (!mine.empty()) {
        v1::RelayDelivery d = std::move(mine.front());
        mine.erase(mine.begin());
        return d;
      }
      v1::RelayUpdate u;
      if (!g.stream->Read(&u)) {
        ADD_FAILURE() << "the relay stream ended";
        return v1::RelayDelivery();
      }
      EXPECT_GT(u.deliveries_size(), 0) << "an update delivers something";
      for (const v1::RelayDelivery& d : u.deliveries()) {
        g.unread[d.session()].push_back(d);
      }
    }
    ADD_FAILURE() << "100 reads without a delivery for session " << session;
    return v1::RelayDelivery();
  }
  static grpc::Status Close(Gateway& g) {
    g.stream->WritesDone();
    v1::RelayUpdate rest;
    while (g.stream->Read(&rest)) {
    }
    return g.stream->Finish();
  }
};

TEST_F(TableRelayTest, EachSessionPlaysAsItsOwnPlayerOverOneStream) {
  TwoAtTable("t1");
  Gateway g = OpenRelay();
  ASSERT_TRUE(Send(g, {OpenMessage(1, Token("ana"), "t1"),
                       OpenMessage(2, Token("bob"), "t1")}));
  // The joining views: each session sees its own player's cards only
  // (DESIGN invariant 7).
  const v1::RelayDelivery a0 = Next(g, 1);
  const v1::RelayDelivery b0 = Next(g, 2);
  ASSERT_TRUE(a0.update().has_view());
  ASSERT_TRUE(b0.update().has_view());
  EXPECT_FALSE(a0.ended());
  for (const v1::RelayDelivery* d : {&a0, &b0}) {
    const v1::TableView& v = d->update().view();
    EXPECT_EQ(PlayerAt(v, v.my_seat()), d == &a0 ? "ana" : "bob");
    for (const v1::SeatState& s : v.seats()) {
      EXPECT_EQ(s.cards_size(), s.seat() == v.my_seat() ? 2 : 0);
    }
  }
  const v1::TableView& first_view = a0.update().view();
  const uint32_t first =
      PlayerAt(first_view, first_view.to_act()) == "ana" ? 1 : 2;
  const uint32_t second = 3 - first;
  const v1::TableView& mine =
      first == 1 ? a0.update().view() : b0.update().view();
  ASSERT_EQ(mine.to_act(), mine.my_seat());
  const int64_t events = TableEvents();

  // The player to act calls: the answer comes to that session, and the
  // other session is told it is its turn.
  ASSERT_TRUE(Send(g, {ActMessage(first, "r1", mine.hand_number(),
                                  v1::POKER_ACTION_TYPE_CALL)}));
  const v1::RelayDelivery answer = Next(g, first);
  EXPECT_EQ(answer.update().request_id(), "r1");
  EXPECT_EQ(answer.update().code(), 0) << answer.update().error_message();
  EXPECT_FALSE(answer.update().has_view());
  const v1::RelayDelivery turn = Next(g, second);
  ASSERT_TRUE(turn.update().has_view());
  EXPECT_EQ(turn.update().view().to_act(), turn.update().view().my_seat());
  EXPECT_EQ(turn.update().view().version(), answer.update().version());
  EXPECT_GT(TableEvents(), events);

  // The same request again is recognised as a retry: nothing appended. And
  // the session's player is the actor: the same id is the player's own,
  // shared with the Act call.
  const int64_t after = TableEvents();
  ASSERT_TRUE(Send(g, {ActMessage(first, "r1", mine.hand_number(),
                                  v1::POKER_ACTION_TYPE_CALL)}));
  EXPECT_EQ(Next(g, first).update().code(), 0);
  EXPECT_EQ(TableEvents(), after);
  {
    v1::ActRequest req;
    req.set_request_id("r1");
    req.set_table_id("t1");
    req.set_hand_number(mine.hand_number());
    req.set_action(v1::POKER_ACTION_TYPE_CALL);
    v1::TableView view;
    const std::string player = first == 1 ? "ana" : "bob";
    EXPECT_TRUE(tables_->Act(As(player).get(), req, &view).ok());
    EXPECT_EQ(TableEvents(), after);
  }

  // Not the second player's turn for the first session: refused with its
  // view, nothing appended, the session still plays.
  ASSERT_TRUE(Send(g, {ActMessage(first, "r2", mine.hand_number(),
                                  v1::POKER_ACTION_TYPE_CHECK)}));
  const v1::RelayDelivery refused = Next(g, first);
  EXPECT_EQ(refused.update().code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(refused.update().has_view());
  EXPECT_EQ(TableEvents(), after);

  // A closed session ends without an answer; the stream goes on.
  ASSERT_TRUE(Send(g, {[] {
                     v1::RelayMessage m;
                     m.set_session(1);
                     m.mutable_close();
                     return m;
                   }()}));
  ASSERT_TRUE(Send(g, {OpenMessage(1, Token("ana"), "t1")}));
  EXPECT_TRUE(Next(g, 1).update().has_view());
  EXPECT_TRUE(Close(g).ok());
}

TEST_F(TableRelayTest, ASessionRebuysOverTheRelay) {
  TwoAtTable("t1");
  Gateway g = OpenRelay();
  ASSERT_TRUE(Send(g, {OpenMessage(1, Token("ana"), "t1")}));
  ASSERT_TRUE(Next(g, 1).update().has_view());
  v1::RelayMessage rebuy;
  rebuy.set_session(1);
  rebuy.mutable_rebuy()->set_request_id("rb1");
  rebuy.mutable_rebuy()->set_amount_minor(5'000);
  ASSERT_TRUE(Send(g, {rebuy}));
  v1::RelayDelivery answer;
  for (int i = 0; i < 10 && answer.update().request_id() != "rb1"; ++i) {
    answer = Next(g, 1);
  }
  ASSERT_EQ(answer.update().request_id(), "rb1");
  EXPECT_EQ(answer.update().code(), 0) << answer.update().error_message();
  EXPECT_EQ(answer.update().seat().player_id(), "ana");
  EXPECT_EQ(answer.update().seat().pending_rebuy_minor(), 5'000);
  Settle();
  EXPECT_EQ(Cash("ana"), 50'000 - 10'000 - 5'000);
  EXPECT_TRUE(Close(g).ok());
}

TEST_F(TableRelayTest, ASessionNeedsThePlayersOwnValidToken) {
  TwoAtTable("t1");
  Gateway g = OpenRelay();
  const int64_t events = TableEvents();
  struct Case {
    uint32_t session;
    std::string token;
    std::string table;
    grpc::StatusCode code;
  };
  const Case cases[] = {
      {1, "forged", "t1", grpc::StatusCode::UNAUTHENTICATED},
      {2, "", "t1", grpc::StatusCode::UNAUTHENTICATED},
      {3, Token("op", auth::Role::kOperator), "t1",
       grpc::StatusCode::PERMISSION_DENIED},
      // A gateway cannot play as itself.
      {4, Token("gw-1", auth::Role::kGateway), "t1",
       grpc::StatusCode::PERMISSION_DENIED},
      {5, Token("ana"), "nope", grpc::StatusCode::NOT_FOUND},
  };
  for (const Case& c : cases) {
    // The gateway's acts behind a refused open are dropped, not protocol
    // errors: it cannot know of the refusal yet.
    ASSERT_TRUE(
        Send(g, {OpenMessage(c.session, c.token, c.table),
                 ActMessage(c.session, "x", 1, v1::POKER_ACTION_TYPE_FOLD)}));
    const v1::RelayDelivery d = Next(g, c.session);
    EXPECT_TRUE(d.ended()) << c.session;
    EXPECT_EQ(d.end_code(), c.code) << c.session << ": " << d.end_message();
    EXPECT_FALSE(d.end_message().empty());
  }
  EXPECT_EQ(TableEvents(), events);
  // The stream still carries good sessions, also on a refused number.
  ASSERT_TRUE(Send(g, {OpenMessage(1, Token("bob"), "t1")}));
  const v1::RelayDelivery bob = Next(g, 1);
  ASSERT_TRUE(bob.update().has_view());
  EXPECT_EQ(PlayerAt(bob.update().view(), bob.update().view().my_seat()),
            "bob");
  EXPECT_TRUE(Close(g).ok());
}

TEST_F(TableRelayTest, BadRelayStreamsEndWithAPreciseStatusAndAppendNothing) {
  TwoAtTable("t1");
  const int64_t events = TableEvents();
  {
    Gateway g = OpenRelay("ana", auth::Role::kPlayer);
    Send(g, {OpenMessage(1, Token("ana"), "t1")});
    EXPECT_EQ(Close(g).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  {
    Gateway g;
    g.ctx = std::make_unique<grpc::ClientContext>();
    g.ctx->AddMetadata("authorization", "Bearer forged");
    g.stream = tables_->Relay(g.ctx.get());
    Send(g, {OpenMessage(1, Token("ana"), "t1")});
    EXPECT_EQ(Close(g).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  struct Case {
    std::vector<v1::RelayMessage> messages;
    std::string message;  // a part of the error message
  };
  const Case cases[] = {
      {{OpenMessage(0, Token("ana"), "t1")}, "session 0"},
      {{ActMessage(7, "x", 1, v1::POKER_ACTION_TYPE_FOLD)},
       "session 7 is not open"},
      {{OpenMessage(1, Token("ana"), "t1"), OpenMessage(1, Token("bob"), "t1")},
       "session 1 is open"},
      {{[] {
         v1::RelayMessage m;
         m.set_session(3);
         return m;
       }()},
       "an open, an act, a rebuy or a close"},
      {std::vector<v1::RelayMessage>(4'097, OpenMessage(9, "", "t1")),
       "at most 4096 messages"},
  };
  for (const Case& c : cases) {
    Gateway g = OpenRelay();
    Send(g, c.messages);
    grpc::Status s = Close(g);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
        << c.message << ": " << s.error_message();
    EXPECT_NE(s.error_message().find(c.message), std::string::npos)
        << s.error_message();
  }
  EXPECT_EQ(TableEvents(), events);
}

TEST_F(TableRelayTest, ARelaySessionReplacesThePlayersPlayStream) {
  TwoAtTable("t1");
  auto ctx = As("ana");
  auto play = tables_->Play(ctx.get());
  v1::PlayRequest join;
  join.mutable_join()->set_table_id("t1");
  ASSERT_TRUE(play->Write(join));
  v1::PlayUpdate first;
  ASSERT_TRUE(play->Read(&first));
  Gateway g = OpenRelay();
  ASSERT_TRUE(Send(g, {OpenMessage(1, Token("ana"), "t1")}));
  ASSERT_TRUE(Next(g, 1).update().has_view());
  play->WritesDone();
  v1::PlayUpdate rest;
  while (play->Read(&rest)) {
  }
  EXPECT_EQ(play->Finish().error_code(), grpc::StatusCode::ABORTED);
  // And a newer session (on another gateway) replaces this one.
  Gateway other = OpenRelay("gw-2");
  ASSERT_TRUE(Send(other, {OpenMessage(5, Token("ana"), "t1")}));
  ASSERT_TRUE(Next(other, 5).update().has_view());
  const v1::RelayDelivery ended = Next(g, 1);
  EXPECT_TRUE(ended.ended());
  EXPECT_EQ(ended.end_code(), grpc::StatusCode::ABORTED);
  EXPECT_TRUE(Close(g).ok());
  EXPECT_TRUE(Close(other).ok());
}

TEST_F(TableRelayTest, AStoppingServiceEndsRelayStreamsAndRefusesNewOnes) {
  TwoAtTable("t1");
  Gateway g = OpenRelay();
  ASSERT_TRUE(Send(g, {OpenMessage(1, Token("ana"), "t1")}));
  ASSERT_TRUE(Next(g, 1).update().has_view());
  table_->BeginShutdown();
  const v1::RelayDelivery ended = Next(g, 1);
  EXPECT_TRUE(ended.ended());
  EXPECT_EQ(ended.end_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Close(g).error_code(), grpc::StatusCode::UNAVAILABLE);
  Gateway late = OpenRelay();
  Send(late, {OpenMessage(1, Token("bob"), "t1")});
  EXPECT_EQ(Close(late).error_code(), grpc::StatusCode::UNAVAILABLE);
}

// Unknown fields are dropped from what a Relay stream reads too
// (services/common/request_limits.h), at every depth: a relayed act that
// carries them is the same request as without them, so its retry without
// them is recognised, not refused as another request under the same id.
TEST_F(TableRelayTest, UnknownFieldsOfRelayedActsAreDropped) {
  TwoAtTable("t1");
  const v1::TableView table = View("op", "t1");
  Gateway g = OpenRelay();
  constexpr uint32_t first = 7;  // the session of the player to act
  ASSERT_TRUE(Send(
      g, {OpenMessage(first, Token(PlayerAt(table, table.to_act())), "t1")}));
  const v1::TableView v = Next(g, first).update().view();
  ASSERT_EQ(v.to_act(), v.my_seat());
  const int64_t events = TableEvents();
  v1::RelayRequest r;
  v1::RelayMessage* act = r.add_messages();
  *act = ActMessage(first, "u1", v.hand_number(), v1::POKER_ACTION_TYPE_CALL);
  AddUnknownField(*act->mutable_act(), 200'000);
  AddUnknownField(*act, 20'000);
  AddUnknownField(r, 20'000);
  ASSERT_TRUE(g.stream->Write(r));
  const v1::RelayDelivery answer = Next(g, first);
  EXPECT_EQ(answer.update().request_id(), "u1");
  EXPECT_EQ(answer.update().code(), 0) << answer.update().error_message();
  const int64_t after = TableEvents();
  EXPECT_GT(after, events);
  EXPECT_LT(LargestRecord(*log_, wire::kTableTopic), kSmallRecordBytes);

  ASSERT_TRUE(Send(g, {ActMessage(first, "u1", v.hand_number(),
                                  v1::POKER_ACTION_TYPE_CALL)}));
  const v1::RelayDelivery retry = Next(g, first);
  EXPECT_EQ(retry.update().request_id(), "u1");
  EXPECT_EQ(retry.update().code(), 0) << retry.update().error_message();
  EXPECT_EQ(TableEvents(), after);
  EXPECT_TRUE(Close(g).ok());
}

// The server's receive limit is sized to the largest legal request
// (services/common/request_limits.h): a full Relay batch of 4,096 messages
// (services/table/relay_stream.h), each a session opening with a token of
// the longest length the service reads (512 bytes, libs/auth/token.cc) and
// the longest table id. It arrives: each session is refused on its own
// (these tokens are no tokens), and the stream goes on.
TEST_F(TableRelayTest, TheLargestLegalBatchArrives) {
  constexpr uint32_t kBatch = 4'096;
  v1::RelayRequest r;
  for (uint32_t s = 1; s <= kBatch; ++s) {
    *r.add_messages() =
        OpenMessage(s, std::string(512, 't'), std::string(32, 'x'));
  }
  ASSERT_GT(r.ByteSizeLong(), size_t{2'000'000});
  ASSERT_LE(r.ByteSizeLong(), size_t{edge::kMaxReceiveMessageBytes});
  Gateway g = OpenRelay();
  ASSERT_TRUE(g.stream->Write(r));
  for (uint32_t s = 1; s <= kBatch && !HasFailure(); ++s) {
    const v1::RelayDelivery d = Next(g, s);
    EXPECT_TRUE(d.ended()) << s;
    EXPECT_EQ(d.end_code(), grpc::StatusCode::UNAUTHENTICATED)
        << s << ": " << d.end_message();
  }
  EXPECT_TRUE(Close(g).ok());
}

}  // namespace
}  // namespace banca::testing
