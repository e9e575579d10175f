#include "libs/games/stud_no_draw/rtp_simulation.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/stud_no_draw/round.h"
#include "libs/games/stud_no_draw/strategy.h"

namespace banca::games::stud_no_draw {
namespace {

constexpr int64_t kMaxSimulatedAnte = 1'000'000'000;
constexpr int64_t kMaxRounds = int64_t{1} << 40;
constexpr int64_t kSimulatedAnte = 100;

}  // namespace

absl::StatusOr<RoundStakes> SimulateRound(cards::RandomSource& rng,
                                          int64_t ante) {
  if (ante < 1 || ante > kMaxSimulatedAnte) {
    return absl::InvalidArgumentError(
        absl::StrCat("ante must be 1..", kMaxSimulatedAnte, ", got ", ante));
  }
  TableConfig config;
  config.seats = 1;
  config.min_ante = ante;
  config.max_ante = ante;
  absl::StatusOr<Round> opened = Round::Open(config, 1);
  BANCA_CHECK(opened.ok());
  Round& round = *opened;
  BANCA_CHECK(round.PlaceAnte(1, "player", ante).ok());
  absl::StatusOr<std::vector<cards::Card>> deck = cards::ShuffledDeck(rng);
  BANCA_CHECK(deck.ok());
  BANCA_CHECK(round.Deal(*deck, 0).ok());
  // The seat's cards: the first CardsDealt event.
  const Hand* hand = nullptr;
  for (const Event& e : round.events()) {
    if (const auto* d = std::get_if<CardsDealt>(&e)) hand = &d->cards;
  }
  BANCA_CHECK(hand != nullptr);
  const absl::Status decided =
      ContinueWithAceKingOrBetter(*hand) ? round.Continue(1) : round.Fold(1);
  BANCA_CHECK(decided.ok());
  BANCA_CHECK(round.finished());
  return RoundStakes{round.result().staked, round.result().returned};
}

absl::Status SimulateRounds(int64_t rounds, cards::RandomSource& rng,
                            RtpTally& tally) {
  if (rounds < 0 || rounds > kMaxRounds) {
    return absl::InvalidArgumentError(
        absl::StrCat("rounds must be 0..", kMaxRounds, ", got ", rounds));
  }
  for (int64_t i = 0; i < rounds; ++i) {
    ASSIGN_OR_RETURN(RoundStakes r, SimulateRound(rng, kSimulatedAnte));
    tally.Add(r.staked, r.returned);
  }
  return absl::OkStatus();
}

}  // namespace banca::games::stud_no_draw
