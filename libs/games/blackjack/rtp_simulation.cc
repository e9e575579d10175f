#include "libs/games/blackjack/rtp_simulation.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/games/blackjack/basic_strategy.h"
#include "libs/games/blackjack/round.h"

namespace banca::games::blackjack {
namespace {

// The fewest cards a round starts with: far above what one seat can use
// (four hands and the dealer), so a round never runs the shoe out.
constexpr size_t kMinCardsPerRound = 40;

// Basic strategy for the hand the engine asks about.
Action Decide(const Round& round) {
  const LegalActions l = round.legal();
  if (l.insurance) return Action{ActionType::kInsurance, 0};  // never
  const SeatState* seat = round.seat_state(l.seat);
  BANCA_CHECK(seat != nullptr);
  for (const PlayerHand& h : seat->hands) {
    if (h.number == l.hand) {
      return Action{
          BasicStrategy(h.cards, round.up_card(), round.settings(), l), 0};
    }
  }
  BANCA_CHECK(false);
  return Action{};
}

}  // namespace

absl::StatusOr<RtpSimulation> SimulateRtp(const RtpSimulationOptions& options,
                                          cards::RandomSource& rng) {
  const TableSettings& settings = options.settings;
  RETURN_IF_ERROR(settings.Validate());
  if (options.rounds < 1 || options.rounds > kMaxSimulatedRounds) {
    return absl::InvalidArgumentError(
        absl::StrCat("rounds must be 1..", kMaxSimulatedRounds));
  }
  if (options.stake < settings.min_bet || options.stake > settings.max_bet) {
    return absl::InvalidArgumentError(
        absl::StrCat("stake ", options.stake, " is outside the table limits"));
  }
  if (options.reshuffle_below_bps < 1 || options.reshuffle_below_bps > 5000) {
    return absl::InvalidArgumentError("reshuffle_below_bps must be 1..5000");
  }
  ASSIGN_OR_RETURN(
      std::vector<cards::Card> shoe,
      cards::BuildDeck(cards::DeckSpec{cards::Rank::kTwo, settings.decks}));
  const size_t reshuffle_below = std::max(
      kMinCardsPerRound,
      shoe.size() * static_cast<size_t>(options.reshuffle_below_bps) / 10'000);

  RtpSimulation out;
  size_t next = shoe.size();  // empty: shuffle before the first round
  RoundSetup setup;
  setup.settings = settings;
  setup.bets = {{1, "sim", options.stake}};
  for (int64_t i = 0; i < options.rounds; ++i) {
    if (shoe.size() - next < reshuffle_below) {
      cards::Shuffle(absl::MakeSpan(shoe), rng);
      next = 0;
      ++out.shuffles;
    }
    setup.round_number = i + 1;
    setup.deck.assign(shoe.begin() + static_cast<std::ptrdiff_t>(next),
                      shoe.end());
    ASSIGN_OR_RETURN(Round round, Round::Start(setup));
    // Bounded: each decision ends a hand or adds a card to it.
    for (int step = 0; !round.finished(); ++step) {
      BANCA_CHECK(step < 100);
      const LegalActions l = round.legal();
      BANCA_CHECK(round.Act(l.seat, Decide(round)).ok());
    }
    const RoundResult& r = round.result();
    BANCA_CHECK(
        !r.voided);  // kMinCardsPerRound keeps the shoe from running out
    next += static_cast<size_t>(r.cards_used);
    out.tally.Add(r.staked, r.returned);
    for (const BetResult& b : r.bets) {
      // A doubled hand's prize is on two bets but is one prize.
      if (b.prize > 0 && b.kind != BetKind::kDouble) ++out.prizes;
      out.prize_returned += b.prize;
    }
  }
  return out;
}

}  // namespace banca::games::blackjack
