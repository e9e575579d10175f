#include "libs/games/roulette/rtp_simulation.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
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

absl::StatusOr<RtpTally> SimulateRtp(WheelKind wheel, const BetRequest& bet,
                                     int64_t rounds, cards::RandomSource& rng) {
  if (rounds < 1 || rounds > kMaxSimulatedRounds) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rounds must be 1..", kMaxSimulatedRounds, ", got ", rounds));
  }
  TableConfig config;
  config.wheel = wheel;
  config.players = WheelMode::kIndividual;
  config.launch = LaunchMode::kPlayerTriggered;
  // The table minimum is the bet's smallest chip, so the bet fits its
  // limits (a chip is at most two units, the maximum 30).
  absl::StatusOr<std::vector<Chip>> chips = LayOut(wheel, bet);
  if (!chips.ok()) return chips.status();
  config.min_bet = chips->front().amount;
  for (const Chip& chip : *chips) {
    config.min_bet = std::min(config.min_bet, chip.amount);
  }
  absl::Time now = absl::UnixEpoch();
  absl::StatusOr<Table> table = Table::Create(config, now);
  if (!table.ok()) return table.status();
  // Checked once up front: afterwards every placement is the same bet.
  if (absl::StatusOr<BetPlaced> first = table->PlaceBet("sim", "b", bet, now);
      !first.ok()) {
    return first.status();
  } else if (absl::Status s = table->Withdraw("sim", "b", now).status();
             !s.ok()) {
    return s;
  }
  absl::Span<const Pocket> order = WheelOrder(wheel);
  RtpTally tally;
  for (int64_t i = 0; i < rounds; ++i) {
    // Bet ids need only be unique within a round.
    absl::StatusOr<BetPlaced> placed =
        table->PlaceBet("sim", i == 0 ? "b0" : "b", bet, now);
    BANCA_CHECK(placed.ok());
    const Pocket pocket =
        order[cards::UniformInt(rng, static_cast<uint32_t>(order.size()))];
    absl::StatusOr<SpinResult> spin =
        table->Spin(SpinOutcome{pocket, kMinRevolutions, false}, now);
    BANCA_CHECK(spin.ok());
    const RoundSettled& settled = std::get<RoundSettled>(*spin);
    tally.Add(settled.total_staked, settled.total_returned);
  }
  return tally;
}

}  // namespace banca::games::roulette
