#include "tools/bench/reporting_checks.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "libs/common/status_macros.h"

namespace banca::bench {
namespace {

// Pages read per listing before giving up (a bound, not an expectation).
constexpr int kMaxPages = 10'000;

// The reporting service's route (env.reporting()).
using Stub = ServiceRoute;

// The reporting service's name of a bots' game; "" for the sit and go.
std::string ReportedGame(const std::string& game) {
  if (game == "poker_cash") return "poker";
  if (game == "sit_and_go") return "";
  return game;
}

// Every history of `request`'s query, a page at a time.
absl::StatusOr<std::vector<v1::HistorySummary>> AllHistories(
    Stub& stub, const std::string& token, v1::HistoriesRequest request) {
  std::vector<v1::HistorySummary> all;
  request.set_page_size(100);
  for (int page = 0; page < kMaxPages; ++page) {
    v1::HistoriesPage answer;
    RETURN_IF_ERROR(FromGrpc(
        stub.On<v1::ReportingService>(
            token, "",
            [&](v1::ReportingService::Stub& s, grpc::ClientContext* c) {
              return s.ListHistories(c, request, &answer);
            }),
        "ListHistories"));
    all.insert(all.end(), answer.histories().begin(), answer.histories().end());
    if (answer.next_page_token().empty()) return all;
    request.set_page_token(answer.next_page_token());
  }
  return absl::ResourceExhaustedError("ListHistories: too many pages");
}

using Line = std::tuple<std::string, std::string, int64_t, int64_t>;

Line LineOf(const v1::StatementEntry& e) {
  return {e.tx_id(), e.account(), e.amount_minor(), e.balance_after_minor()};
}

// A player's statement from the reporting service, and from the wallet.
absl::StatusOr<std::vector<Line>> ReportedStatement(Stub& stub,
                                                    const std::string& token,
                                                    const std::string& player) {
  std::vector<Line> lines;
  v1::StatementRequest request;
  request.set_player_id(player);
  request.set_page_size(1000);
  for (int page = 0; page < kMaxPages; ++page) {
    v1::StatementPage answer;
    RETURN_IF_ERROR(FromGrpc(
        stub.On<v1::ReportingService>(
            token, "",
            [&](v1::ReportingService::Stub& s, grpc::ClientContext* c) {
              return s.GetStatement(c, request, &answer);
            }),
        "GetStatement"));
    for (const v1::StatementEntry& e : answer.entries()) {
      lines.push_back(LineOf(e));
    }
    if (answer.next_page_token().empty()) return lines;
    request.set_page_token(answer.next_page_token());
  }
  return absl::ResourceExhaustedError("GetStatement: too many pages");
}

absl::StatusOr<std::vector<Line>> WalletStatement(GameBotsEnv& env,
                                                  const std::string& player) {
  std::vector<Line> lines;
  v1::ListTransactionsRequest request;
  request.set_player_id(player);
  request.set_page_size(500);
  for (int page = 0; page < kMaxPages; ++page) {
    v1::ListTransactionsResponse answer;
    RETURN_IF_ERROR(
        FromGrpc(env.wallet().On<v1::WalletService>(
                     env.office().operator_token, "",
                     [&](v1::WalletService::Stub& s, grpc::ClientContext* c) {
                       return s.ListTransactions(c, request, &answer);
                     }),
                 "ListTransactions"));
    for (const v1::StatementEntry& e : answer.entries()) {
      lines.push_back(LineOf(e));
    }
    if (answer.next_page_token().empty()) return lines;
    request.set_page_token(answer.next_page_token());
  }
  return absl::ResourceExhaustedError("ListTransactions: too many pages");
}

// A bot's statement line for line against the wallet's.
absl::Status CheckStatement(GameBotsEnv& env, Stub& stub,
                            const std::string& player, ReportingTally& tally,
                            std::vector<std::string>& failures) {
  const std::string& token = env.office().operator_token;
  ASSIGN_OR_RETURN(std::vector<Line> reported,
                   ReportedStatement(stub, token, player));
  ASSIGN_OR_RETURN(std::vector<Line> wallet, WalletStatement(env, player));
  tally.statement_lines += static_cast<int64_t>(reported.size());
  std::sort(reported.begin(), reported.end());
  std::sort(wallet.begin(), wallet.end());
  if (reported != wallet) {
    failures.push_back(absl::StrCat(player, ": the statement has ",
                                    reported.size(), " lines, the wallet ",
                                    wallet.size(), ", and they differ"));
  }
  return absl::OkStatus();
}

// The bots' histories of their game, and their sessions.
absl::Status CheckGame(GameBotsEnv& env, Stub& stub, const GamePlay& play,
                       ReportingTally& tally,
                       std::vector<std::string>& failures) {
  const std::string& token = env.office().operator_token;
  const std::string game = ReportedGame(play.tally.game);
  int64_t listed = 0;
  if (play.tally.game == "poker_cash" || play.tally.game == "sit_and_go") {
    // One table or tournament for all the bots: its hands.
    v1::HistoriesRequest by_place;
    if (play.tally.game == "poker_cash") {
      by_place.set_table_id(env.Name("holdem"));
    } else {
      by_place.set_tournament_id(env.Name("sng"));
    }
    ASSIGN_OR_RETURN(auto all, AllHistories(stub, token, by_place));
    for (const v1::HistorySummary& h : all) {
      listed += h.reference().kind() == v1::REFERENCE_KIND_HAND ? 1 : 0;
    }
  } else {
    for (const BotAccount& a : play.accounts) {
      v1::HistoriesRequest mine;
      mine.set_player_id(a.player);
      mine.set_game(game);
      ASSIGN_OR_RETURN(auto all, AllHistories(stub, token, mine));
      listed += static_cast<int64_t>(all.size());
    }
  }
  tally.histories += listed;
  if (listed != play.tally.rounds) {
    failures.push_back(absl::StrCat(play.tally.game, ": ", listed,
                                    " histories, the bots played ",
                                    play.tally.rounds));
  }
  for (const BotAccount& a : play.accounts) {
    v1::SessionsRequest request;
    request.set_player_id(a.player);
    request.set_game(game.empty() ? "tournament" : game);
    v1::SessionsPage page;
    RETURN_IF_ERROR(FromGrpc(
        stub.On<v1::ReportingService>(
            token, "",
            [&](v1::ReportingService::Stub& s, grpc::ClientContext* c) {
              return s.ListSessions(c, request, &page);
            }),
        "ListSessions"));
    tally.sessions += page.sessions_size();
    if (page.sessions_size() == 0) {
      failures.push_back(
          absl::StrCat(play.tally.game, ": ", a.player, " has no session"));
    }
    RETURN_IF_ERROR(CheckStatement(env, stub, a.player, tally, failures));
  }
  return absl::OkStatus();
}

// The close's balances (at the end of the day, so everything so far)
// class by class against the wallet's ledger summary, and its open holds.
absl::Status CheckCloseAgainstLedger(GameBotsEnv& env,
                                     const v1::DailyClose& close,
                                     std::vector<std::string>& failures) {
  ASSIGN_OR_RETURN(v1::LedgerSummaryResponse ledger,
                   LedgerSummary(env.wallet(), env.office()));
  const v1::FinanceHoldings& h = close.at_close();
  std::map<std::string, int64_t> reported = {
      {"player", h.player_cash_minor() + h.player_held_minor()},
      {"table", h.table_seats_minor() + h.table_pots_minor()},
      {"game", h.game_wagers_minor()},
      {"tournament", h.prize_pools_minor() + h.bounties_minor() +
                         h.tickets_minor() + h.tournament_other_minor()},
      {"house", h.house_minor()},
      {"external", h.external_minor()}};
  std::map<std::string, int64_t> booked;
  for (const v1::AccountClassTotal& c : ledger.classes()) {
    booked[c.account_class()] = c.balance_minor();
    reported.try_emplace(c.account_class(), 0);
  }
  for (const auto& [account_class, amount] : reported) {
    if (booked[account_class] != amount) {
      failures.push_back(absl::StrCat(
          "the close of ", close.date(), " holds ", amount, " in ",
          account_class, "/*, the ledger ", booked[account_class]));
    }
  }
  if (h.open_holds() != ledger.open_holds()) {
    failures.push_back(absl::StrCat("the close counts ", h.open_holds(),
                                    " open holds, the ledger ",
                                    ledger.open_holds()));
  }
  return absl::OkStatus();
}

// Today's close in Lisbon, reconciled, and its balances the ledger's.
absl::Status CheckClose(GameBotsEnv& env, Stub& stub, ReportingTally& tally,
                        std::vector<std::string>& failures) {
  absl::TimeZone lisbon;
  if (!absl::LoadTimeZone("Europe/Lisbon", &lisbon)) {
    return absl::FailedPreconditionError("no tzdata for Europe/Lisbon");
  }
  v1::DailyCloseRequest request;
  request.set_date(absl::FormatTime("%Y-%m-%d", absl::Now(), lisbon));
  request.set_time_zone("Europe/Lisbon");
  v1::DailyClose close;
  RETURN_IF_ERROR(
      FromGrpc(stub.On<v1::ReportingService>(
                   env.office().operator_token, "",
                   [&](v1::ReportingService::Stub& s, grpc::ClientContext* c) {
                     return s.GetDailyClose(c, request, &close);
                   }),
               "GetDailyClose"));
  tally.close_date = close.date();
  tally.close_sha256 = close.events_sha256();
  tally.close_events = close.events();
  if (!close.reconciled()) {
    failures.push_back(absl::StrCat("the daily close of ", close.date(),
                                    " is not reconciled"));
  }
  return CheckCloseAgainstLedger(env, close, failures);
}

}  // namespace

absl::Status CheckReporting(GameBotsEnv& env,
                            const std::vector<GamePlay>& plays,
                            ReportingTally& tally,
                            std::vector<std::string>& failures) {
  for (const GamePlay& play : plays) {
    RETURN_IF_ERROR(CheckGame(env, env.reporting(), play, tally, failures));
  }
  return CheckClose(env, env.reporting(), tally, failures);
}

}  // namespace banca::bench
