#include "tools/bench/reporting_workload.h"

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/games/tournament/money_move.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/settlement/banked_settlement.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/settlement/tournament_settlement.h"
#include "libs/settlement/transaction_parts.h"
#include "libs/wire/topics.h"
#include "tools/bench/wallet_event_writer.h"

namespace banca::bench {
namespace {

namespace tn = games::tournament;

constexpr int kMaxSeats = 6;
constexpr int64_t kBigBlind = 100;
constexpr int64_t kPokerBuyIn = 100 * kBigBlind;
constexpr int64_t kTournamentBuyIn = 1'000;
constexpr int64_t kTournamentFee = 100;
// Between two activities the clock moves on 1 µs..50 ms: ten million
// events span about three days (finance reports close by day).
constexpr int64_t kMaxGapMicros = 50'000;

struct BankedTable {
  std::string id;
  std::string game;
  int64_t round = 0;
};

struct PokerTable {
  std::string id;
  int64_t hand = 0;
  std::vector<std::string> seated;
};

class Workload {
 public:
  Workload(eventlog::EventLog& log, const ReportingWorkloadOptions& options)
      : options_(options),
        writer_(log),
        rng_(options.seed),
        opened_(static_cast<size_t>(options.players), false) {
    static constexpr const char* kGames[] = {"roulette_french", "blackjack",
                                             "stud_no_draw"};
    const int tables = std::clamp(options.players / 50, 1, 300);
    for (int t = 0; t < tables; ++t) {
      banked_.push_back({absl::StrCat("bk", t), kGames[t % 3]});
      poker_.push_back({absl::StrCat("pk", t)});
    }
  }

  absl::StatusOr<ReportingWorkloadCounts> Run() {
    counts_.first_micros = writer_.now_micros();
    while (writer_.events() < options_.events) {
      writer_.Advance(Uniform(1, kMaxGapMicros));
      const int64_t pick = Uniform(0, 99);
      if (pick < 45) {
        RETURN_IF_ERROR(BankedRound());
      } else if (pick < 90) {
        RETURN_IF_ERROR(PokerHand());
      } else if (pick < 95) {
        const std::string player = RandomPlayer();
        RETURN_IF_ERROR(Deposit(player, Uniform(10, 500) * 100));
      } else if (pick < 99) {
        RETURN_IF_ERROR(Withdrawal(RandomPlayer()));
      } else {
        RETURN_IF_ERROR(Tournament());
      }
      RETURN_IF_ERROR(writer_.Flush());
    }
    RETURN_IF_ERROR(writer_.Flush(/*all=*/true));
    counts_.events = writer_.events();
    counts_.last_micros = writer_.now_micros();
    return counts_;
  }

 private:
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  std::string RandomPlayer() {
    return WorkloadPlayer(static_cast<int>(Uniform(0, options_.players - 1)));
  }
  ledger::CommandMeta Meta() {
    return {absl::StrCat("bench-", ++requests_), "f", "bench"};
  }

  auto Writer() {
    return [this](const ledger::Committed& c) { writer_(c); };
  }

  absl::Status Post(std::string_view owner, v1::LedgerTransaction tx) {
    return ledger_.Post(Meta(), owner, std::move(tx), Writer());
  }

  // Opens the player's account on their first visit and deposits when
  // their cash is short of `need`.
  absl::Status Fund(const std::string& player, int64_t need) {
    const size_t index = static_cast<size_t>(std::stoi(player.substr(1)));
    if (!opened_[index]) {
      RETURN_IF_ERROR(ledger_.OpenAccount(Meta(), player, "EUR", Writer()));
      opened_[index] = true;
      ++counts_.accounts;
    }
    const int64_t cash =
        ledger_.AccountBalance(ledger::PlayerCashAccount(player));
    if (cash >= need) return absl::OkStatus();
    return Deposit(player, need - cash + Uniform(10, 500) * 100);
  }

  absl::Status Deposit(const std::string& player, int64_t amount) {
    RETURN_IF_ERROR(Fund(player, 0));
    v1::LedgerTransaction tx = settlement::NewTx(
        v1::POSTING_REASON_DEPOSIT,
        settlement::MakeReference(v1::REFERENCE_KIND_PAYMENT,
                                  absl::StrCat("psp-", requests_)),
        "");
    settlement::AddPosting(tx, "external/payments", -amount);
    settlement::AddPosting(tx, ledger::PlayerCashAccount(player), amount);
    ++counts_.deposits;
    return Post(ledger::PlayerOwner(player), std::move(tx));
  }

  absl::Status Withdrawal(const std::string& player) {
    RETURN_IF_ERROR(Fund(player, 0));
    const int64_t amount =
        ledger_.AccountBalance(ledger::PlayerCashAccount(player)) / 2;
    if (amount <= 0) return absl::OkStatus();
    v1::LedgerTransaction tx = settlement::NewTx(
        v1::POSTING_REASON_WITHDRAWAL,
        settlement::MakeReference(v1::REFERENCE_KIND_PAYMENT,
                                  absl::StrCat("psp-", requests_)),
        "");
    settlement::AddPosting(tx, ledger::PlayerCashAccount(player), -amount);
    settlement::AddPosting(tx, "external/payments", amount);
    ++counts_.withdrawals;
    return Post(ledger::PlayerOwner(player), std::move(tx));
  }

  // What a bet of `stake` returns: mostly lost or doubled, now and then a
  // push or a straight-up win (the house keeps about 1.6%).
  int64_t Returned(int64_t stake) {
    const int64_t r = Uniform(0, 999);
    if (r < 500) return 0;
    if (r < 550) return stake;
    if (r < 999) return 2 * stake;
    return 36 * stake;
  }

  // One to three bets staked, then settled.
  absl::Status BankedRound() {
    BankedTable& table = banked_[Uniform(0, banked_.size() - 1)];
    ++table.round;
    std::vector<settlement::BankedBet> bets;
    const int64_t n = Uniform(1, 3);
    for (int64_t b = 0; b < n; ++b) {
      settlement::BankedBet bet{table.game,     table.id, table.round,
                                RandomPlayer(), "",       Uniform(1, 50) * 100};
      bet.bet_id = absl::StrCat(bet.player, ".", b);
      RETURN_IF_ERROR(Fund(bet.player, bet.stake));
      ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                       settlement::StakeTransaction(bet));
      RETURN_IF_ERROR(Post(ledger::PlayerOwner(bet.player), std::move(tx)));
      bets.push_back(std::move(bet));
    }
    for (const settlement::BankedBet& bet : bets) {
      ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                       settlement::SettleTransaction(bet, Returned(bet.stake)));
      RETURN_IF_ERROR(Post(settlement::WagersAccount(table.id), std::move(tx)));
    }
    ++counts_.banked_rounds;
    counts_.banked_bets += n;
    return absl::OkStatus();
  }

  int64_t Stack(const PokerTable& table, const std::string& player) const {
    return ledger_.AccountBalance(settlement::SeatAccount(table.id, player));
  }

  absl::Status Sit(PokerTable& table) {
    const std::string player = RandomPlayer();
    if (std::find(table.seated.begin(), table.seated.end(), player) !=
        table.seated.end()) {
      return absl::OkStatus();
    }
    RETURN_IF_ERROR(Fund(player, kPokerBuyIn));
    ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                     settlement::BuyInTransaction(table.id, player, kPokerBuyIn,
                                                  /*rake=*/0, /*rebuy=*/false));
    RETURN_IF_ERROR(Post(ledger::PlayerOwner(player), std::move(tx)));
    table.seated.push_back(player);
    ++counts_.poker_buy_ins;
    return absl::OkStatus();
  }

  // The player at `seat` leaves with their stack.
  absl::Status Leave(PokerTable& table, size_t seat) {
    const std::string player = table.seated[seat];
    table.seated.erase(table.seated.begin() + static_cast<ptrdiff_t>(seat));
    const int64_t stack = Stack(table, player);
    if (stack == 0) return absl::OkStatus();
    ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                     settlement::CashOutTransaction(table.id, player, stack));
    ++counts_.poker_cash_outs;
    return Post(settlement::PotAccount(table.id), std::move(tx));
  }

  // Players come and go, then a hand: every seat's bets into the pot, the
  // pot to one winner, the rake to the house.
  absl::Status PokerHand() {
    PokerTable& table = poker_[Uniform(0, poker_.size() - 1)];
    if (!table.seated.empty() && Uniform(0, 19) == 0) {
      RETURN_IF_ERROR(Leave(table, Uniform(0, table.seated.size() - 1)));
    }
    while (table.seated.size() < 2) RETURN_IF_ERROR(Sit(table));
    if (table.seated.size() < kMaxSeats && Uniform(0, 9) == 0) {
      RETURN_IF_ERROR(Sit(table));
    }
    const v1::Reference ref = settlement::HandReference(table.id, ++table.hand);
    const std::string pot = settlement::PotAccount(table.id);
    v1::LedgerTransaction bets =
        settlement::NewTx(v1::POSTING_REASON_POT_CONTRIBUTION, ref, "bets");
    int64_t in_pot = 0;
    for (const std::string& player : table.seated) {
      const int64_t bet =
          std::min(Stack(table, player), Uniform(1, 20) * kBigBlind);
      settlement::AddPosting(bets, settlement::SeatAccount(table.id, player),
                             -bet);
      in_pot += bet;
    }
    settlement::AddPosting(bets, pot, in_pot);
    RETURN_IF_ERROR(Post(pot, std::move(bets)));
    const std::string& winner =
        table.seated[Uniform(0, table.seated.size() - 1)];
    const int64_t rake = std::min<int64_t>(in_pot / 20, 3 * kBigBlind);
    v1::LedgerTransaction award =
        settlement::NewTx(v1::POSTING_REASON_POT_AWARD, ref, "main pot");
    settlement::AddPosting(award, pot, -(in_pot - rake));
    settlement::AddPosting(award, settlement::SeatAccount(table.id, winner),
                           in_pot - rake);
    RETURN_IF_ERROR(Post(pot, std::move(award)));
    if (rake > 0) {
      v1::LedgerTransaction tx =
          settlement::NewTx(v1::POSTING_REASON_RAKE, ref, "rake");
      settlement::AddPosting(tx, pot, -rake);
      settlement::AddPosting(tx, std::string(settlement::kRakeAccount), rake);
      RETURN_IF_ERROR(Post(pot, std::move(tx)));
    }
    ++counts_.poker_hands;
    // The busted leave (nothing to cash out).
    for (size_t s = table.seated.size(); s-- > 0;) {
      if (Stack(table, table.seated[s]) == 0) RETURN_IF_ERROR(Leave(table, s));
    }
    return absl::OkStatus();
  }

  absl::Status PostMove(const std::string& id, const tn::MoneyMove& move) {
    ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                     settlement::TournamentTransaction(id, move));
    return Post(settlement::TournamentStreamOwner(id, move), std::move(tx));
  }

  // Six to forty entries, then three prizes (50/30/20 of the pool).
  absl::Status Tournament() {
    const std::string id = absl::StrCat("tn", ++counts_.tournaments);
    const int64_t entries = Uniform(6, 40);
    std::vector<std::string> entrants;
    for (int64_t e = 1; e <= entries; ++e) {
      tn::MoneyMove move{tn::MoveKind::kBuyIn, RandomPlayer(),
                         static_cast<int>(e)};
      RETURN_IF_ERROR(Fund(move.player, kTournamentBuyIn));
      tn::AddPosting(move, tn::CashAccount(move.player), -kTournamentBuyIn);
      tn::AddPosting(move, tn::PrizePoolAccount(id),
                     kTournamentBuyIn - kTournamentFee);
      tn::AddPosting(move, std::string(tn::kFeesAccount), kTournamentFee);
      RETURN_IF_ERROR(PostMove(id, move));
      entrants.push_back(move.player);
    }
    const int64_t pool = entries * (kTournamentBuyIn - kTournamentFee);
    const int64_t prizes[] = {pool - pool * 3 / 10 - pool / 5, pool * 3 / 10,
                              pool / 5};
    for (int place = 0; place < 3; ++place) {
      tn::MoneyMove move{tn::MoveKind::kPrize,
                         entrants[Uniform(0, entrants.size() - 1)]};
      tn::AddPosting(move, tn::PrizePoolAccount(id), -prizes[place]);
      tn::AddPosting(move, tn::CashAccount(move.player), prizes[place]);
      RETURN_IF_ERROR(PostMove(id, move));
    }
    counts_.tournament_entries += entries;
    counts_.tournament_prizes += 3;
    return absl::OkStatus();
  }

  const ReportingWorkloadOptions options_;
  WalletEventWriter writer_;
  std::mt19937_64 rng_;
  ledger::Ledger ledger_;
  std::vector<bool> opened_;
  std::vector<BankedTable> banked_;
  std::vector<PokerTable> poker_;
  ReportingWorkloadCounts counts_;
  int64_t requests_ = 0;
};

}  // namespace

std::string WorkloadPlayer(int index) { return absl::StrCat("p", index); }

absl::StatusOr<ReportingWorkloadCounts> WriteReportingWorkload(
    eventlog::EventLog& log, const ReportingWorkloadOptions& options) {
  if (options.events < 1 || options.events > kMaxWorkloadEvents) {
    return absl::InvalidArgumentError(
        absl::StrCat("events must be 1..", kMaxWorkloadEvents));
  }
  if (options.players < 2 || options.players > kMaxWorkloadPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("players must be 2..", kMaxWorkloadPlayers));
  }
  RETURN_IF_ERROR(log.EnsureTopic(
      {std::string(wire::kWalletTopic), wire::kDefaultWalletPartitions}));
  return Workload(log, options).Run();
}

}  // namespace banca::bench
