// `banca bench holdem`, its engine part: single-thread throughput of the
// hand engine alone.
#ifndef BANCA_LIBS_GAMES_POKER_ENGINE_BENCH_H_
#define BANCA_LIBS_GAMES_POKER_ENGINE_BENCH_H_

#include <cstdint>

#include "libs/games/poker/table_config.h"

namespace banca::games::poker {

struct EngineBenchOptions {
  int64_t hands = 200'000;
  int players = 6;
  TableConfig config;  // 6-max no-limit hold'em by default
  uint64_t seed = 1;
};

struct EngineBenchResult {
  int64_t hands = 0;
  int64_t actions = 0;
  int64_t showdowns = 0;
  double seconds = 0;  // thread CPU time
  double hands_per_sec = 0;
};

// Plays `hands` complete hands with random legal actions (random_play.h)
// and a fresh shuffle each, on one thread; -1 hands_per_sec on an engine
// error (a bug).
EngineBenchResult RunEngineBench(const EngineBenchOptions& options = {});

}  // namespace banca::games::poker

#endif  // BANCA_LIBS_GAMES_POKER_ENGINE_BENCH_H_
