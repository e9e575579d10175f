#include "libs/games/poker/engine_bench.h"

#include <ctime>
#include <string>
#include <utility>

#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"
#include "libs/games/poker/deterministic_bits.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/random_play.h"

namespace banca::games::poker {
namespace {

// Thread CPU time: the machines are shared (as libs/cards/eval_bench.cc).
double CpuNow() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

}  // namespace

EngineBenchResult RunEngineBench(const EngineBenchOptions& options) {
  EngineBenchResult out;
  DeterministicBits bits{options.seed};
  HandSetup setup;
  setup.config = options.config;
  setup.config.seats = std::max(setup.config.seats, options.players);
  setup.table_id = "bench";
  for (int i = 0; i < options.players; ++i) {
    setup.players.push_back(
        {i + 1, "p" + std::to_string(i + 1), 100 * setup.config.big_blind});
  }
  setup.deck = cards::StandardDeck();
  // The evaluator builds its tables on first use: not part of a hand.
  cards::Evaluator::Get();
  const double start = CpuNow();
  for (int64_t k = 0; k < options.hands; ++k) {
    setup.hand_number = k + 1;
    setup.button = static_cast<int>(k % options.players) + 1;
    // Stacks vary so that all-ins and side pots happen.
    for (SeatedPlayer& p : setup.players) {
      p.stack =
          setup.config.big_blind * (1 + static_cast<int64_t>(bits() % 200));
    }
    ShuffleDeck(bits, setup.deck);
    absl::StatusOr<Hand> hand = Hand::Start(setup);
    if (!hand.ok() || !PlayRandomly(*hand, [&bits] { return bits(); }).ok()) {
      out.hands_per_sec = -1;
      return out;
    }
    ++out.hands;
    out.actions += static_cast<int64_t>(hand->actions().size());
    out.showdowns += !hand->result().showdown_order.empty();
  }
  out.seconds = CpuNow() - start;
  out.hands_per_sec = out.seconds > 0 ? out.hands / out.seconds : 0;
  return out;
}

}  // namespace banca::games::poker
