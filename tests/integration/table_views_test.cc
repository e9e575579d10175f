// Hidden cards stay hidden from every caller that is not the seat's player
// (issue 17 item 6; docs/security.md "Tables and hidden cards"), and
// spectators never crowd seated players out of a table: over gRPC on
// loopback, against the real table service, as an attacker would try it.
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/table_test_fixture.h"

namespace banca::testing {
namespace {

using PlayClient = grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayUpdate>;
using RelayClient = grpc::ClientReaderWriter<v1::RelayRequest, v1::RelayUpdate>;

// Every role but the player's.
constexpr auth::Role kNotPlayers[] = {
    auth::Role::kAuditor, auth::Role::kGateway, auth::Role::kOperator,
    auth::Role::kFinance, auth::Role::kService};

// A view with nothing private in it: no seat of the viewer's, no hole
// card of anyone (the hand has not reached a showdown), no options, no
// session notice, no rest.
void ExpectSpectatorView(const v1::TableView& v) {
  EXPECT_EQ(v.my_seat(), 0);
  for (const v1::SeatState& s : v.seats()) {
    EXPECT_EQ(s.cards_size(), 0) << "the cards of seat " << s.seat() << " ("
                                 << s.player_id() << ") were shown";
  }
  EXPECT_EQ(v.legal().actions_size(), 0);
  EXPECT_FALSE(v.has_notice());
  EXPECT_EQ(v.rest_ends_micros(), 0);
}

class TableViewsTest : public TableServiceTest {
 protected:
  // A WatchTable stream with the caller's token `token`.
  struct Watch {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<grpc::ClientReader<v1::TableView>> reader;
    // The first view, when the service admitted the stream.
    bool admitted = false;
    v1::TableView first;

    grpc::Status Cancel() {
      ctx->TryCancel();
      v1::TableView rest;
      while (reader->Read(&rest)) {
      }
      return reader->Finish();
    }
  };
  std::unique_ptr<Watch> OpenWatch(const std::string& token,
                                   const std::string& table) {
    auto w = std::make_unique<Watch>();
    w->ctx = std::make_unique<grpc::ClientContext>();
    w->ctx->AddMetadata("authorization", "Bearer " + token);
    w->ctx->set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(60));
    v1::WatchTableRequest req;
    req.set_table_id(table);
    w->reader = tables_->WatchTable(w->ctx.get(), req);
    w->admitted = w->reader->Read(&w->first);
    return w;
  }
  // The status of a stream the service refused.
  static grpc::Status Refusal(Watch& w) {
    EXPECT_FALSE(w.admitted);
    return w.reader->Finish();
  }

  struct Play {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<PlayClient> stream;
  };
  // A Play stream joined to `table` as `subject` with `role`.
  Play JoinPlay(const std::string& subject, const std::string& table,
                auth::Role role = auth::Role::kPlayer) {
    Play p;
    p.ctx = As(subject, role);
    p.ctx->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(60));
    p.stream = tables_->Play(p.ctx.get());
    v1::PlayRequest join;
    join.mutable_join()->set_table_id(table);
    p.stream->Write(join);
    return p;
  }
  // Reads to the end of a stream the service ends.
  static grpc::Status Ended(Play& p) {
    v1::PlayUpdate u;
    while (p.stream->Read(&u)) {
      ADD_FAILURE() << "a refused stream sent an update";
    }
    return p.stream->Finish();
  }
  static grpc::Status Close(Play& p) {
    p.stream->WritesDone();
    v1::PlayUpdate rest;
    while (p.stream->Read(&rest)) {
    }
    return p.stream->Finish();
  }
};

// Before subjects were namespaced by role, the table keyed every view,
// stream and command by the token's bare subject, whatever its role: an
// auditor (or a gateway) token issued for "ana" got ana's own view, her
// two hole cards in it, in GetTableView and in every WatchTable update,
// and her last hand from GetLastHand. Views are now computed for players
// only: any other role sees what a spectator sees.
TEST_F(TableViewsTest, AuditorAndGatewayNamedAnaSeeNoneOfAnasCards) {
  TwoAtTable("t1");
  PlayHands("t1", 1, 7, /*all_in=*/false);  // ana has a last hand
  const v1::TableView own = View("ana", "t1");
  ASSERT_TRUE(own.in_hand());
  ASSERT_NE(own.my_seat(), 0);
  for (const v1::SeatState& s : own.seats()) {
    // The setup shows what is at stake: ana's two cards, in her view.
    EXPECT_EQ(s.cards_size(), s.seat() == own.my_seat() ? 2 : 0);
  }
  v1::WatchTableRequest req;
  req.set_table_id("t1");
  std::vector<std::unique_ptr<Watch>> streams;
  for (const auth::Role role : kNotPlayers) {
    SCOPED_TRACE(auth::RoleName(role));
    v1::TableView view;
    ASSERT_TRUE(tables_->GetTableView(As("ana", role).get(), req, &view).ok());
    ExpectSpectatorView(view);
    EXPECT_EQ(view.version(), own.version());
    streams.push_back(OpenWatch(Token("ana", role), "t1"));
    ASSERT_TRUE(streams.back()->admitted);
    ExpectSpectatorView(streams.back()->first);
    // Her hands' records are hers alone.
    v1::GetLastHandRequest last;
    last.set_table_id("t1");
    v1::LastHandResponse hand;
    EXPECT_EQ(
        tables_->GetLastHand(As("ana", role).get(), last, &hand).error_code(),
        grpc::PERMISSION_DENIED);
    v1::GetSessionSummaryRequest summary_req;
    summary_req.set_table_id("t1");
    v1::SessionSummary summary;
    EXPECT_EQ(
        tables_->GetSessionSummary(As("ana", role).get(), summary_req, &summary)
            .error_code(),
        grpc::PERMISSION_DENIED);
    // Nor may it play her seat over a stream.
    Play play = JoinPlay("ana", "t1", role);
    EXPECT_EQ(Ended(play).error_code(), grpc::PERMISSION_DENIED);
  }
  // ana herself still reads hers.
  {
    v1::GetLastHandRequest last;
    last.set_table_id("t1");
    v1::LastHandResponse hand;
    EXPECT_TRUE(tables_->GetLastHand(As("ana").get(), last, &hand).ok());
  }
  // The next views on the streams, after an action, show no card either.
  const std::string first = PlayerAt(own, own.to_act());
  ASSERT_TRUE(Act(first, "t1", v1::POKER_ACTION_TYPE_CALL).ok());
  const v1::TableView after = View("ana", "t1");
  ASSERT_TRUE(after.in_hand());
  ASSERT_EQ(after.hand_number(), own.hand_number());
  for (std::unique_ptr<Watch>& w : streams) {
    v1::TableView next;
    ASSERT_TRUE(w->reader->Read(&next));
    EXPECT_GT(next.version(), own.version());
    ExpectSpectatorView(next);
    w->Cancel();
  }
  // A gateway named ana cannot open her session with its own token, nor
  // with an auditor's named ana: only a player's token plays.
  auto ctx = As("ana", auth::Role::kGateway);
  std::unique_ptr<RelayClient> relay = tables_->Relay(ctx.get());
  v1::RelayRequest open;
  uint32_t number = 0;
  for (const auth::Role role : {auth::Role::kGateway, auth::Role::kAuditor}) {
    v1::RelayMessage* m = open.add_messages();
    m->set_session(++number);
    m->mutable_open()->set_player_token(Token("ana", role));
    m->mutable_open()->set_table_id("t1");
  }
  ASSERT_TRUE(relay->Write(open));
  int ended = 0;
  v1::RelayUpdate update;
  while (ended < 2 && relay->Read(&update)) {
    for (const v1::RelayDelivery& d : update.deliveries()) {
      EXPECT_FALSE(d.update().has_view()) << "session " << d.session();
      ASSERT_TRUE(d.ended());
      EXPECT_EQ(d.end_code(), grpc::PERMISSION_DENIED);
      ++ended;
    }
  }
  EXPECT_EQ(ended, 2);
  relay->WritesDone();
  while (relay->Read(&update)) {
  }
  EXPECT_TRUE(relay->Finish().ok());
}

// Before, Leave, SitOut and SitIn acted for the token's bare subject: an
// auditor or gateway token named "ana" made ana leave the table (her stack
// paid out) or sit out. Now every role but the player's is refused
// (PERMISSION_DENIED) before anything is decided, and nothing is appended.
TEST_F(TableViewsTest, AuditorAndGatewayNamedAnaCannotMakeHerLeaveOrSitOut) {
  TwoAtTable("t1");
  const int64_t events = TableEvents();
  const int64_t stack = Seat("t1", "ana");
  int n = 0;
  for (const auth::Role role : kNotPlayers) {
    SCOPED_TRACE(auth::RoleName(role));
    const std::string id = absl::StrCat("attack-", ++n);
    v1::LeaveRequest leave;
    leave.set_request_id(id);
    leave.set_table_id("t1");
    v1::LeaveResponse left;
    EXPECT_EQ(tables_->Leave(As("ana", role).get(), leave, &left).error_code(),
              grpc::PERMISSION_DENIED);
    v1::SitOutRequest out;
    out.set_request_id(id);
    out.set_table_id("t1");
    v1::SeatResponse seat;
    EXPECT_EQ(tables_->SitOut(As("ana", role).get(), out, &seat).error_code(),
              grpc::PERMISSION_DENIED);
    v1::SitInRequest in;
    in.set_request_id(id);
    in.set_table_id("t1");
    EXPECT_EQ(tables_->SitIn(As("ana", role).get(), in, &seat).error_code(),
              grpc::PERMISSION_DENIED);
  }
  EXPECT_EQ(TableEvents(), events);
  const v1::TableView view = View("ana", "t1");
  ASSERT_NE(view.my_seat(), 0);
  for (const v1::SeatState& s : view.seats()) {
    if (s.seat() == view.my_seat()) {
      EXPECT_FALSE(s.sitting_out());
    }
  }
  Settle();
  EXPECT_EQ(Seat("t1", "ana"), stack);
  // ana herself still can.
  v1::SitOutRequest out;
  out.set_request_id("rest");
  out.set_table_id("t1");
  v1::SeatResponse seat;
  ASSERT_TRUE(tables_->SitOut(As("ana").get(), out, &seat).ok());
  EXPECT_TRUE(seat.sitting_out());
}

// Before, WatchTable streams and Play sessions shared one count per table
// (64): 64 WatchTable streams from any token, even one, left no place for
// the seated players' Play streams. Now a player with a seat is always
// admitted, spectators have their own 64 places per table, and one caller
// holds at most 4 WatchTable streams across the service.
TEST_F(TableViewsTest, SpectatorsNeverCrowdOutSeatedPlayers) {
  TwoAtTable("t1");
  std::vector<std::unique_ptr<Watch>> open;
  // One token, 70 streams: the per-caller cap admits 4.
  const std::string one = Token("fan", auth::Role::kAuditor);
  for (int i = 0; i < 70; ++i) {
    std::unique_ptr<Watch> w = OpenWatch(one, "t1");
    if (w->admitted) {
      ExpectSpectatorView(w->first);
      open.push_back(std::move(w));
      continue;
    }
    const grpc::Status s = Refusal(*w);
    EXPECT_EQ(s.error_code(), grpc::RESOURCE_EXHAUSTED);
    EXPECT_NE(s.error_message().find("at most 4 WatchTable streams per caller"),
              std::string::npos)
        << s.error_message();
  }
  EXPECT_EQ(open.size(), 4u);
  // Many tokens (players without a seat and other roles): the table's 64
  // spectators' places fill, then the next is refused.
  const auth::Role roles[] = {auth::Role::kPlayer, auth::Role::kAuditor,
                              auth::Role::kGateway, auth::Role::kOperator};
  grpc::Status refused;
  for (int i = 0; i < 100; ++i) {
    std::unique_ptr<Watch> w =
        OpenWatch(Token(absl::StrCat("fan", i), roles[i % 4]), "t1");
    if (!w->admitted) {
      refused = Refusal(*w);
      break;
    }
    open.push_back(std::move(w));
  }
  EXPECT_EQ(open.size(), 64u);
  EXPECT_EQ(refused.error_code(), grpc::RESOURCE_EXHAUSTED);
  EXPECT_NE(
      refused.error_message().find("at most 64 spectators' streams per table"),
      std::string::npos)
      << refused.error_message();
  // A player without a seat joining over Play is a spectator too.
  Play carol = JoinPlay("carol", "t1");
  EXPECT_EQ(Ended(carol).error_code(), grpc::RESOURCE_EXHAUSTED);

  // The seated players are always admitted: their WatchTable streams and
  // their Play streams, and they play.
  std::unique_ptr<Watch> ana_watch = OpenWatch(Token("ana"), "t1");
  ASSERT_TRUE(ana_watch->admitted);
  EXPECT_NE(ana_watch->first.my_seat(), 0);
  Play ana = JoinPlay("ana", "t1");
  Play bob = JoinPlay("bob", "t1");
  v1::PlayUpdate a0, b0;
  ASSERT_TRUE(ana.stream->Read(&a0));
  ASSERT_TRUE(bob.stream->Read(&b0));
  ASSERT_TRUE(a0.has_view());
  ASSERT_TRUE(b0.has_view());
  EXPECT_NE(a0.view().my_seat(), 0);
  const v1::TableView& av = a0.view();
  Play& first = PlayerAt(av, av.to_act()) == "ana" ? ana : bob;
  v1::PlayRequest act;
  act.mutable_act()->set_request_id("crowded-1");
  act.mutable_act()->set_hand_number(av.hand_number());
  act.mutable_act()->set_action(v1::POKER_ACTION_TYPE_CALL);
  const int64_t events = TableEvents();
  ASSERT_TRUE(first.stream->Write(act));
  v1::PlayUpdate answer;
  for (int i = 0; i < 10 && answer.request_id().empty(); ++i) {
    ASSERT_TRUE(first.stream->Read(&answer));
  }
  EXPECT_EQ(answer.request_id(), "crowded-1");
  EXPECT_EQ(answer.code(), 0) << answer.error_message();
  EXPECT_GT(TableEvents(), events);
  // Still no place for another spectator, while the players have theirs.
  std::unique_ptr<Watch> late =
      OpenWatch(Token("late", auth::Role::kAuditor), "t1");
  EXPECT_EQ(Refusal(*late).error_code(), grpc::RESOURCE_EXHAUSTED);

  // A spectator's stream that ends gives its place back (the service sees
  // the end within its 500 ms wait).
  open.back()->Cancel();
  open.pop_back();
  bool readmitted = false;
  for (int i = 0; i < 100 && !readmitted; ++i) {
    std::unique_ptr<Watch> w =
        OpenWatch(Token("again", auth::Role::kAuditor), "t1");
    readmitted = w->admitted;
    if (readmitted) {
      open.push_back(std::move(w));
    } else {
      Refusal(*w);
      absl::SleepFor(absl::Milliseconds(50));
    }
  }
  EXPECT_TRUE(readmitted);

  for (std::unique_ptr<Watch>& w : open) w->Cancel();
  ana_watch->Cancel();
  EXPECT_TRUE(Close(ana).ok());
  EXPECT_TRUE(Close(bob).ok());
}

}  // namespace
}  // namespace banca::testing
