// The cash poker bots (game_bots.h): No-Limit Hold'em, all the bots at one
// table. Each sits with the table's largest buy-in (a hold on its cash,
// captured by the wallet), acts on its turn by DecideCashPoker, rebuys
// between hands when its stack is below the smallest buy-in (so that
// HE-70a does not end its session; if it does, the bot sits again), and
// at the end of the run leaves (HE-10: at once between hands, else after
// the hand) and is cashed out; its money is its sessions' summaries.
#include <algorithm>
#include <random>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "tools/bench/game_bot_policy.h"
#include "tools/bench/game_bots_env.h"

namespace banca::bench {
namespace {

constexpr int64_t kSmallBlind = 10;
constexpr int64_t kBigBlind = 20;
constexpr int64_t kBuyInMin = 400;
constexpr int64_t kBuyInMax = 2'000;
// A hand not over by then, after the bot asked to leave, is an error.
constexpr absl::Duration kLeaveWait = absl::Seconds(60);

class PokerBot {
 public:
  PokerBot(GameBotsEnv& env, std::string table, int index)
      : env_(env), table_(std::move(table)), index_(index) {}

  BotOutcome Play();

 private:
  // `call(stub, context)` through the tables' route.
  template <typename Do>
  absl::Status Call(const std::string& what, Do&& call) {
    return FromGrpc(env_.tables().On<v1::TableService>(token_, table_,
                                                       std::forward<Do>(call)),
                    absl::StrCat(what, " ", table_));
  }
  absl::StatusOr<v1::TableView> View();
  absl::Status Sit();
  void Turn(const v1::TableView& view, bool leaving);
  void MaybeRebuy(const v1::TableView& view);
  // Leave; true once the bot is no longer seated (its summary recorded).
  absl::StatusOr<bool> Leave();
  void Record(const v1::SessionSummary& s);

  GameBotsEnv& env_;
  const std::string table_;
  const int index_;
  std::string token_;
  std::mt19937 rng_;
  BotOutcome out_;
  int64_t rebuy_hand_ = -1;  // the hand of its last rebuy
};

absl::StatusOr<v1::TableView> PokerBot::View() {
  v1::WatchTableRequest req;
  req.set_table_id(table_);
  v1::TableView view;
  RETURN_IF_ERROR(Call("GetTableView",
                       [&](v1::TableService::Stub& t, grpc::ClientContext* c) {
                         return t.GetTableView(c, req, &view);
                       }));
  return view;
}

absl::Status PokerBot::Sit() {
  v1::SitRequest sit;
  sit.set_request_id(env_.RequestId("sit"));
  sit.set_table_id(table_);
  sit.set_seat(index_ + 1);
  sit.set_buy_in_minor(kBuyInMax);
  v1::SeatResponse seat;
  RETURN_IF_ERROR(
      Call("Sit", [&](v1::TableService::Stub& t, grpc::ClientContext* c) {
        return t.Sit(c, sit, &seat);
      }));
  ++out_.tally.counts["sessions"];
  return absl::OkStatus();
}

void PokerBot::Turn(const v1::TableView& view, bool leaving) {
  PokerChoice choice = DecideCashPoker(view.legal(), kBigBlind,
                                       static_cast<uint32_t>(rng_() % 100));
  if (leaving) {  // on its way out: nothing more in the pot
    const bool check =
        std::find(view.legal().actions().begin(), view.legal().actions().end(),
                  v1::POKER_ACTION_TYPE_CHECK) != view.legal().actions().end();
    choice = {check ? v1::POKER_ACTION_TYPE_CHECK : v1::POKER_ACTION_TYPE_FOLD,
              0};
  }
  v1::ActRequest act;
  act.set_request_id(env_.RequestId("act"));
  act.set_table_id(table_);
  act.set_hand_number(view.hand_number());
  act.set_action(choice.action);
  act.set_amount_minor(choice.amount_minor);
  v1::TableView after;
  const absl::Status s =
      Call("Act", [&](v1::TableService::Stub& t, grpc::ClientContext* c) {
        return t.Act(c, act, &after);
      });
  // FAILED_PRECONDITION: the turn passed meanwhile (the decision timer).
  if (!s.ok() && !absl::IsFailedPrecondition(s)) {
    NoteError(out_.tally, "act", s);
  }
  if (s.ok()) ++out_.tally.counts["actions"];
}

void PokerBot::MaybeRebuy(const v1::TableView& view) {
  int64_t stack = 0;
  for (const v1::SeatState& s : view.seats()) {
    if (s.seat() == view.my_seat()) stack = s.stack_minor();
  }
  // Between hands only: during one the stack may yet grow, and a rebuy
  // taking it past the table's maximum is refused (HE-12).
  if (view.in_hand() || stack >= kBuyInMin ||
      rebuy_hand_ == view.hand_number()) {
    return;
  }
  rebuy_hand_ = view.hand_number();
  v1::RebuyRequest req;
  req.set_request_id(env_.RequestId("rebuy"));
  req.set_table_id(table_);
  req.set_amount_minor(kBuyInMax - stack);
  v1::SeatResponse seat;
  const absl::Status s =
      Call("Rebuy", [&](v1::TableService::Stub& t, grpc::ClientContext* c) {
        return t.Rebuy(c, req, &seat);
      });
  // FAILED_PRECONDITION: one is already under way, or the table is at
  // its maximum with it.
  if (s.ok()) {
    ++out_.tally.counts["rebuys"];
  } else if (!absl::IsFailedPrecondition(s)) {
    NoteError(out_.tally, "rebuy", s);
  }
}

absl::StatusOr<bool> PokerBot::Leave() {
  v1::LeaveRequest req;
  req.set_request_id(env_.RequestId("leave"));
  req.set_table_id(table_);
  v1::LeaveResponse left;
  RETURN_IF_ERROR(
      Call("Leave", [&](v1::TableService::Stub& t, grpc::ClientContext* c) {
        return t.Leave(c, req, &left);
      }));
  if (left.left()) Record(left.summary());
  return left.left();
}

void PokerBot::Record(const v1::SessionSummary& s) {
  GameTally& t = out_.tally;
  t.staked_minor += s.total_bet_minor();
  t.won_minor += s.total_won_minor();
  t.counts["player_hands"] += s.hands_played();
  out_.account.net_minor += s.net_minor();
}

BotOutcome PokerBot::Play() {
  out_.tally.players = 1;
  absl::StatusOr<std::string> token =
      env_.NewPlayer(absl::StrCat("he", index_), out_.account);
  rng_.seed(env_.Seed(out_.account.player));
  absl::Status s = token.status();
  if (s.ok()) {
    token_ = *token;
    s = Sit();
  }
  if (!s.ok()) {
    NoteError(out_.tally, "set-up", s);
    return out_;
  }
  while (env_.Playing()) {
    absl::StatusOr<v1::TableView> view = View();
    if (!view.ok()) {
      NoteError(out_.tally, "view", view.status());
      return out_;
    }
    if (view->my_seat() == 0) {  // the table ended the session (HE-71)
      ++out_.tally.counts["sessions_ended_by_the_table"];
      absl::StatusOr<bool> gone = Leave();  // its summary
      if (s = gone.ok() ? Sit() : gone.status(); !s.ok()) {
        NoteError(out_.tally, "sit again", s);
        return out_;
      }
      continue;
    }
    MaybeRebuy(*view);
    if (view->legal().actions_size() > 0) {
      Turn(*view, false);
    } else {
      absl::SleepFor(kGameBotPoll);
    }
  }
  // Out: at once between hands, else once the hand is over.
  const absl::Time until = absl::Now() + kLeaveWait;
  for (absl::StatusOr<bool> gone = Leave(); gone.ok() && !*gone;
       gone = Leave()) {
    absl::StatusOr<v1::TableView> view = View();
    if (!view.ok() || absl::Now() > until) {
      NoteError(out_.tally, "leave",
                view.ok() ? absl::DeadlineExceededError("still seated")
                          : view.status());
      return out_;
    }
    if (view->legal().actions_size() > 0) Turn(*view, true);
    absl::SleepFor(kGameBotPoll);
  }
  return out_;
}

}  // namespace

absl::StatusOr<GamePlay> PlayCashPoker(GameBotsEnv& env) {
  const std::string table = env.Name("holdem");
  v1::CreateTableRequest create;
  create.set_request_id(env.RequestId("create"));
  create.set_table_id(table);
  create.set_name("bots' Hold'em");
  v1::PokerTableConfig* c = create.mutable_config();
  c->set_variant(v1::POKER_VARIANT_HOLDEM);
  c->set_limit(v1::BETTING_LIMIT_NO_LIMIT);
  c->set_seats(kMaxGameBotsPlayers);
  c->set_small_blind_minor(kSmallBlind);
  c->set_big_blind_minor(kBigBlind);
  c->set_buy_in_min_minor(kBuyInMin);
  c->set_buy_in_max_minor(kBuyInMax);
  c->set_rake_mode(v1::RAKE_MODE_SETTING_POT);
  c->set_rake_bps(500);
  c->set_rake_cap_minor(100);
  c->set_action_seconds(30);
  c->set_hand_interval_ms(100);
  v1::TableInfo info;
  RETURN_IF_ERROR(
      FromGrpc(env.tables().On<v1::TableService>(
                   env.office().operator_token, table,
                   [&](v1::TableService::Stub& t, grpc::ClientContext* ctx) {
                     return t.CreateTable(ctx, create, &info);
                   }),
               "CreateTable " + table));
  GamePlay play = env.RunBots("poker_cash", env.options().players, [&](int i) {
    return PokerBot(env, table, i).Play();
  });
  // A table process lists the tables it decides for: each is asked.
  for (const std::string& member : env.tables().members()) {
    v1::ListTablesResponse list;
    RETURN_IF_ERROR(FromGrpc(
        env.tables().CallAt(member, env.office().operator_token,
                            [&](const std::shared_ptr<grpc::Channel>& ch,
                                grpc::ClientContext* ctx) {
                              return v1::TableService::NewStub(ch)->ListTables(
                                  ctx, {}, &list);
                            }),
        "ListTables at " + member));
    for (const v1::TableInfo& t : list.tables()) {
      if (t.table_id() == table) play.tally.rounds = t.hands_played();
    }
  }
  // The rake: what the pots took in and did not pay out.
  play.tally.house_minor = play.tally.staked_minor - play.tally.won_minor;
  return play;
}

}  // namespace banca::bench
