#include "libs/games/roulette/rtp_simulation.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/roulette/table.h"
#include "libs/games/roulette/wheel.h"

namespace banca::games::roulette {

BetRequest DefaultRtpBet() {
  BetRequest bet;
  bet.kind = BetKind::kStraight;
  bet.numbers = {17};
  bet.amount = 100;
  return bet;
}

double TheoreticalRtp(WheelKind wheel) { return 36.0 / PocketCount(wheel); }

std::vector<BetRequest> BenchRtpStrategy() {
  auto bet = [](BetKind kind, std::vector<Pocket> numbers,
                std::vector<int> index, int count, int64_t amount) {
    BetRequest r;
    r.kind = kind;
    r.numbers = std::move(numbers);
    r.index = std::move(index);
    r.count = count;
    r.amount = amount;
    return r;
  };
  return {
      bet(BetKind::kStraight, {0}, {}, 0, 100),
      bet(BetKind::kStraight, {17}, {}, 0, 100),
      bet(BetKind::kSplit, {17, 20}, {}, 0, 100),
      bet(BetKind::kStreet, {16, 17, 18}, {}, 0, 100),
      bet(BetKind::kCorner, {17, 18, 20, 21}, {}, 0, 100),
      bet(BetKind::kLine, {13, 14, 15, 16, 17, 18}, {}, 0, 100),
      bet(BetKind::kDozen, {}, {2}, 0, 100),
      bet(BetKind::kColumn, {}, {2}, 0, 100),
      bet(BetKind::kDozenSplit, {}, {1, 2}, 0, 200),
      bet(BetKind::kColumnSplit, {}, {2, 3}, 0, 200),
      bet(BetKind::kEven, {}, {}, 0, 100),
      bet(BetKind::kOdd, {}, {}, 0, 100),
      bet(BetKind::kLow, {}, {}, 0, 100),
      bet(BetKind::kHigh, {}, {}, 0, 100),
      bet(BetKind::kRed, {}, {}, 0, 100),
      bet(BetKind::kBlack, {}, {}, 0, 100),
      bet(BetKind::kNeighbours, {17}, {}, 2, 300),
      bet(BetKind::kFinals, {7}, {}, 0, 300),
  };
}

absl::StatusOr<RtpTally> SimulateRtp(WheelKind wheel, const BetRequest& bet,
                                     int64_t rounds, cards::RandomSource& rng) {
  return SimulateRtp(wheel, absl::MakeConstSpan(&bet, 1), rounds, rng);
}

absl::StatusOr<RtpTally> SimulateRtp(WheelKind wheel,
                                     absl::Span<const BetRequest> bets,
                                     int64_t rounds, cards::RandomSource& rng) {
  if (rounds < 1 || rounds > kMaxSimulatedRounds) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rounds must be 1..", kMaxSimulatedRounds, ", got ", rounds));
  }
  if (bets.empty()) return absl::InvalidArgumentError("no bets to simulate");
  TableConfig config;
  config.wheel = wheel;
  config.players = WheelMode::kIndividual;
  config.launch = LaunchMode::kPlayerTriggered;
  // The table minimum is the strategy's smallest chip, so that every bet
  // fits its limits (a chip is at most a few units, a maximum 30 or more).
  config.min_bet = 0;
  for (const BetRequest& bet : bets) {
    ASSIGN_OR_RETURN(std::vector<Chip> chips, LayOut(wheel, bet));
    for (const Chip& chip : chips) {
      if (config.min_bet == 0 || chip.amount < config.min_bet) {
        config.min_bet = chip.amount;
      }
    }
  }
  absl::Time now = absl::UnixEpoch();
  ASSIGN_OR_RETURN(Table table, Table::Create(config, now));
  // Bet ids need only be unique within a round.
  std::vector<std::string> ids;
  for (size_t i = 0; i < bets.size(); ++i) ids.push_back(absl::StrCat("b", i));
  // Checked once up front, on a copy: afterwards every round places the
  // same bets, which the engine has accepted.
  Table probe = table;
  for (size_t i = 0; i < bets.size(); ++i) {
    RETURN_IF_ERROR(probe.PlaceBet("sim", ids[i], bets[i], now).status());
  }
  absl::Span<const Pocket> order = WheelOrder(wheel);
  RtpTally tally;
  for (int64_t r = 0; r < rounds; ++r) {
    const size_t i = static_cast<size_t>(r % static_cast<int64_t>(bets.size()));
    absl::StatusOr<BetPlaced> placed =
        table.PlaceBet("sim", ids[i], bets[i], now);
    BANCA_CHECK(placed.ok());
    const Pocket pocket =
        order[cards::UniformInt(rng, static_cast<uint32_t>(order.size()))];
    absl::StatusOr<SpinResult> spin =
        table.Spin(SpinOutcome{pocket, kMinRevolutions, false}, now);
    BANCA_CHECK(spin.ok());
    const RoundSettled& settled = std::get<RoundSettled>(*spin);
    tally.Add(settled.total_staked, settled.total_returned);
  }
  return tally;
}

}  // namespace banca::games::roulette
