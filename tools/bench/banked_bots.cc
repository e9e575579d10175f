// The banked games' bots (game_bots.h): each bot at a table of its own,
// an individual one (RF-4 with player launch, BJ-35a, SD-15), so that a
// round goes as fast as the bot and the service do; it plays rounds while
// the run lasts, then leaves, and its money is its session summary's.
#include <functional>
#include <random>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/common/status_macros.h"
#include "tools/bench/game_bot_policy.h"
#include "tools/bench/game_bots_env.h"

namespace banca::bench {
namespace {

// A round not over by then is an error.
constexpr absl::Duration kRoundWait = absl::Seconds(60);
// How long Leave is tried again while a round settles.
constexpr absl::Duration kLeaveWait = absl::Seconds(60);
constexpr int kMaxBotRounds = 100'000;
// Between rounds, as a player would (and so that a demo's log stays small
// enough to audit in seconds).
constexpr absl::Duration kThinkTime = absl::Milliseconds(50);

// A bot's calls at its table.
class BankedPlayer {
 public:
  BankedPlayer(GameBotsEnv& env, std::string table, std::string token)
      : env_(env), table_(std::move(table)), token_(std::move(token)) {}

  absl::StatusOr<v1::BankedTableView> View() {
    v1::GetBankedTableRequest req;
    req.set_table_id(table_);
    v1::BankedTableView view;
    RETURN_IF_ERROR(Call("GetTableView", [&](v1::BankedTableService::Stub& t,
                                             grpc::ClientContext* c) {
      return t.GetTableView(c, req, &view);
    }));
    return view;
  }
  absl::Status Join(int seat) {
    v1::JoinBankedTableRequest req;
    req.set_request_id(env_.RequestId("join"));
    req.set_table_id(table_);
    req.set_seat(seat);
    v1::BankedTableView view;
    return Call("Join",
                [&](v1::BankedTableService::Stub& t, grpc::ClientContext* c) {
                  return t.Join(c, req, &view);
                });
  }
  absl::Status Bet(int64_t round, int64_t amount,
                   const v1::RouletteBet* roulette = nullptr) {
    v1::PlaceBankedBetRequest req;
    req.set_request_id(env_.RequestId("bet"));
    req.set_table_id(table_);
    req.set_round(round);
    req.set_amount_minor(amount);
    if (roulette != nullptr) *req.mutable_roulette() = *roulette;
    v1::BankedTableView view;
    return Call("PlaceBet",
                [&](v1::BankedTableService::Stub& t, grpc::ClientContext* c) {
                  return t.PlaceBet(c, req, &view);
                });
  }
  absl::Status Act(v1::BankedActRequest req) {
    req.set_request_id(env_.RequestId("act"));
    req.set_table_id(table_);
    v1::BankedTableView view;
    return Call("Act",
                [&](v1::BankedTableService::Stub& t, grpc::ClientContext* c) {
                  return t.Act(c, req, &view);
                });
  }
  absl::Status Launch(int64_t round) {
    v1::LaunchRequest req;
    req.set_request_id(env_.RequestId("launch"));
    req.set_table_id(table_);
    req.set_round(round);
    v1::BankedTableView view;
    return Call("Launch",
                [&](v1::BankedTableService::Stub& t, grpc::ClientContext* c) {
                  return t.Launch(c, req, &view);
                });
  }
  // Leaves (tried again while a bet is still on the board).
  absl::StatusOr<v1::BankedSessionSummary> Leave() {
    v1::LeaveBankedTableRequest req;
    req.set_request_id(env_.RequestId("leave"));
    req.set_table_id(table_);
    const absl::Time until = absl::Now() + kLeaveWait;
    while (true) {
      v1::BankedSessionSummary summary;
      absl::Status s = Call("Leave", [&](v1::BankedTableService::Stub& t,
                                         grpc::ClientContext* c) {
        return t.Leave(c, req, &summary);
      });
      if (s.ok()) return summary;
      if (!absl::IsFailedPrecondition(s) || absl::Now() > until) return s;
      absl::SleepFor(kGameBotPoll);
    }
  }

 private:
  // `call(stub, context)` through the tables' route.
  template <typename Do>
  absl::Status Call(const std::string& what, Do&& call) {
    return FromGrpc(env_.tables().On<v1::BankedTableService>(
                        token_, table_, std::forward<Do>(call)),
                    absl::StrCat(what, " ", table_));
  }

  GameBotsEnv& env_;
  const std::string table_;
  const std::string token_;
};

// One round: the bot's bets and decisions, until the round is over.
using PlayRound = std::function<absl::Status(BankedPlayer& player,
                                             uint32_t roll, GameTally& tally)>;

// The wallet refused a stake: the bot has lost its cash.
bool Broke(const absl::Status& s) {
  return absl::IsFailedPrecondition(s) &&
         absl::StrContains(absl::AsciiStrToLower(s.message()), "insufficient");
}

// The table gave up waiting for the wallet's answer to a stake (a wallet
// process died meanwhile and its partitions were still moving): the bet
// is not on the board, and the bot bets again, as a player would.
bool StakeTimedOut(const absl::Status& s) {
  return absl::IsFailedPrecondition(s) &&
         absl::StrContains(s.message(), "did not answer in time");
}

// A bot `name`: funded, at a table of its own made from `create`, seated
// at `seat`, playing rounds while the run lasts; then it leaves.
BotOutcome PlayBankedBot(GameBotsEnv& env, const std::string& name,
                         v1::CreateBankedTableRequest create, int seat,
                         const PlayRound& round) {
  BotOutcome out;
  GameTally& tally = out.tally;
  tally.players = 1;
  absl::StatusOr<std::string> token = env.NewPlayer(name, out.account);
  if (!token.ok()) {
    NoteError(tally, "set-up", token.status());
    return out;
  }
  create.set_request_id(env.RequestId("create"));
  create.set_table_id(env.Name(name));
  create.set_name(absl::StrCat("bots ", name));
  v1::BankedTableInfo info;
  absl::Status made = FromGrpc(
      env.tables().On<v1::BankedTableService>(
          env.office().operator_token, create.table_id(),
          [&](v1::BankedTableService::Stub& t, grpc::ClientContext* c) {
            return t.CreateTable(c, create, &info);
          }),
      "CreateTable " + create.table_id());
  BankedPlayer player(env, create.table_id(), *token);
  if (made.ok()) made = player.Join(seat);
  if (!made.ok()) {
    NoteError(tally, "set-up", made);
    return out;
  }
  std::mt19937 rng(env.Seed(name));
  for (int i = 0; i < kMaxBotRounds && env.Playing(); ++i) {
    const absl::Status s = round(player, rng() % 100, tally);
    if (Broke(s)) {
      ++tally.counts["broke"];
      break;
    }
    if (StakeTimedOut(s)) {
      ++tally.counts["stakes_timed_out"];
      continue;
    }
    if (!s.ok()) {
      NoteError(tally, "round", s);
      break;
    }
    absl::SleepFor(kThinkTime);
  }
  absl::StatusOr<v1::BankedSessionSummary> summary = player.Leave();
  if (!summary.ok()) {
    NoteError(tally, "leave", summary.status());
    return out;
  }
  tally.rounds += summary->rounds();
  tally.staked_minor += summary->total_bet_minor();
  tally.won_minor += summary->total_returned_minor();
  out.account.net_minor += summary->net_minor();
  return out;
}

// Waits until the table has moved past `round`, calling `decide` on every
// view of it meanwhile (it returns whether it acted).
absl::Status UntilRoundEnds(
    BankedPlayer& player, int64_t round,
    const std::function<absl::StatusOr<bool>(const v1::BankedTableView&)>&
        decide) {
  const absl::Time until = absl::Now() + kRoundWait;
  v1::BankedTableView view;
  while (absl::Now() < until) {
    ASSIGN_OR_RETURN(view, player.View());
    if (view.round() > round) return absl::OkStatus();
    ASSIGN_OR_RETURN(bool acted, decide(view));
    if (!acted) absl::SleepFor(kGameBotPoll);
  }
  return absl::DeadlineExceededError(absl::StrCat(
      "round ", round, " was not over after ", absl::FormatDuration(kRoundWait),
      ": ", view.ShortDebugString()));
}

absl::Status RouletteRound(bool american, BankedPlayer& player, uint32_t roll,
                           GameTally& tally) {
  ASSIGN_OR_RETURN(v1::BankedTableView view, player.View());
  const int64_t round = view.round();
  for (const RouletteStake& s : ChooseRouletteBets(american, roll)) {
    if (absl::Status bet = player.Bet(round, s.amount_minor, &s.bet);
        StakeTimedOut(bet)) {
      ++tally.counts["stakes_timed_out"];
    } else {
      RETURN_IF_ERROR(bet);
      ++tally.counts["bets"];
    }
  }
  // Every stake timed out: nothing to launch (the bot bets again).
  ASSIGN_OR_RETURN(view, player.View());
  if (view.round() == round && view.roulette().my_bets_size() == 0) {
    return absl::OkStatus();
  }
  // The ball waits until every stake is captured (the wallet, in another
  // process, takes it a moment after the bet is answered): launched again
  // until then (a refused launch appended nothing).
  const absl::Time until = absl::Now() + kRoundWait;
  absl::Status launched = player.Launch(round);
  while (absl::IsFailedPrecondition(launched) &&
         absl::StrContains(launched.message(), "being captured") &&
         absl::Now() < until) {
    ++tally.counts["launch_waits"];
    absl::SleepFor(kGameBotPoll);
    launched = player.Launch(round);
  }
  return launched;
}

const v1::BlackjackHandView* HandToAct(const v1::BlackjackView& bj) {
  for (const v1::BlackjackSeatView& seat : bj.seats()) {
    if (seat.seat() != bj.my_seat()) continue;
    for (const v1::BlackjackHandView& hand : seat.hands()) {
      if (hand.number() == bj.to_act_hand()) return &hand;
    }
  }
  return nullptr;
}

absl::Status BlackjackRound(BankedPlayer& player, uint32_t roll,
                            GameTally& tally) {
  ASSIGN_OR_RETURN(v1::BankedTableView view, player.View());
  const int64_t round = view.round();
  RETURN_IF_ERROR(player.Bet(round, 100 * (1 + roll % 5)));
  return UntilRoundEnds(
      player, round, [&](const v1::BankedTableView& v) -> absl::StatusOr<bool> {
        const v1::BlackjackView& bj = v.blackjack();
        if (!bj.in_round() || bj.to_act_seat() != bj.my_seat() ||
            bj.legal().actions_size() == 0) {
          return false;
        }
        // No hand is to act while insurance is offered (an ace up).
        const v1::BlackjackHandView* hand = HandToAct(bj);
        const BlackjackChoice choice = DecideBlackjack(
            bj.legal(), hand != nullptr ? *hand : v1::BlackjackHandView(),
            bj.dealer_cards_size() > 0 ? bj.dealer_cards(0) : "", roll);
        v1::BankedActRequest act;
        act.set_round(round);
        act.set_action(choice.action);
        act.set_amount_minor(choice.amount_minor);
        // A double, split or insurance whose stake timed out is not
        // taken: the bot decides again.
        if (absl::Status s = player.Act(act); StakeTimedOut(s)) {
          ++tally.counts["stakes_timed_out"];
          return true;
        } else {
          RETURN_IF_ERROR(s);
        }
        ++tally.counts[absl::AsciiStrToLower(
            v1::BlackjackActionType_Name(choice.action).substr(22))];
        return true;
      });
}

absl::Status StudRound(BankedPlayer& player, uint32_t roll, GameTally& tally) {
  ASSIGN_OR_RETURN(v1::BankedTableView view, player.View());
  const int64_t round = view.round();
  RETURN_IF_ERROR(player.Bet(round, 100 * (1 + roll % 3)));
  return UntilRoundEnds(
      player, round, [&](const v1::BankedTableView& v) -> absl::StatusOr<bool> {
        const v1::StudView& stud = v.stud();
        if (!stud.can_bet() && !stud.can_fold()) return false;
        std::vector<std::string> cards;
        for (const v1::StudSeatView& s : stud.seats()) {
          if (s.seat() == stud.my_seat()) {
            cards.assign(s.cards().begin(), s.cards().end());
          }
        }
        v1::StudActionType action = DecideStud(cards, roll);
        if (!stud.can_bet()) action = v1::STUD_ACTION_TYPE_FOLD;
        v1::BankedActRequest act;
        act.set_round(round);
        act.set_stud_action(action);
        // A second bet whose stake timed out: the bot decides again.
        if (absl::Status s = player.Act(act); StakeTimedOut(s)) {
          ++tally.counts["stakes_timed_out"];
          return true;
        } else {
          RETURN_IF_ERROR(s);
        }
        ++tally.counts[action == v1::STUD_ACTION_TYPE_BET ? "bets" : "folds"];
        return true;
      });
}

}  // namespace

absl::StatusOr<GamePlay> PlayRoulette(GameBotsEnv& env, bool american) {
  v1::CreateBankedTableRequest create;
  create.set_game(american ? v1::BANKED_GAME_ROULETTE_AMERICAN
                           : v1::BANKED_GAME_ROULETTE_FRENCH);
  create.mutable_roulette()->set_individual(true);
  create.mutable_roulette()->set_player_launches(true);
  const std::string code = american ? "ra" : "rf";
  return env.RunBots(
      american ? "roulette_american" : "roulette_french", env.options().players,
      [&](int i) {
        return PlayBankedBot(
            env, absl::StrCat(code, i), create, 0,
            [american](BankedPlayer& p, uint32_t roll, GameTally& t) {
              return RouletteRound(american, p, roll, t);
            });
      });
}

absl::StatusOr<GamePlay> PlayBlackjack(GameBotsEnv& env) {
  v1::CreateBankedTableRequest create;
  create.set_game(v1::BANKED_GAME_BLACKJACK);
  create.mutable_blackjack()->set_seats(1);
  return env.RunBots("blackjack", env.options().players, [&](int i) {
    return PlayBankedBot(env, absl::StrCat("bj", i), create, 1, BlackjackRound);
  });
}

absl::StatusOr<GamePlay> PlayStudNoDraw(GameBotsEnv& env) {
  v1::CreateBankedTableRequest create;
  create.set_game(v1::BANKED_GAME_STUD_NO_DRAW);
  create.mutable_stud()->set_seats(1);
  return env.RunBots("stud_no_draw", env.options().players, [&](int i) {
    return PlayBankedBot(env, absl::StrCat("sd", i), create, 1, StudRound);
  });
}

}  // namespace banca::bench
