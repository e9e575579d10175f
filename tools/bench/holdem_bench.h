// `banca bench holdem`, the service part: the wallet and the table service
// in this process on an embedded log in a scratch directory, served over
// gRPC on loopback; `tables` 6-max no-limit Hold'em tables, each with six
// bot players (their own tokens and cash), all played at once by an
// asynchronous client. By default four connection gateways each carry the
// sessions of a quarter of the bots over one Relay stream; every bot sends
// a random legal action whenever the service tells it that it is its turn,
// and buys back in over its session when it is short. The other clients:
// a Play stream per bot, or one Act call per action. Measures settled
// hands per second and each action's latency (sent to answered). Figures
// are measured here, never typed in.
#ifndef BANCA_TOOLS_BENCH_HOLDEM_BENCH_H_
#define BANCA_TOOLS_BENCH_HOLDEM_BENCH_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace banca::bench {

struct HoldemBenchOptions {
  std::string dir;  // scratch directory (emptied)
  int tables = 100;
  int players = 6;  // per table
  absl::Duration warmup = absl::Seconds(2);
  absl::Duration duration = absl::Seconds(10);
  // The embedded log's fsync (false only to measure durability's cost).
  bool fsync = true;
  // How the client talks to the table service.
  enum class Api {
    // A Play stream per bot: the turn comes to the bot, one message each
    // way per action (and the next player's turn notice).
    kPlay,
    // Connection gateways (one per channel), each a Relay stream carrying
    // the sessions of its tables' bots: the same messages as Play,
    // batched into one gRPC message each way per batch.
    kRelay,
    // One Act call per action, the player to act taken from the last
    // answer's to_act_legal; a fresh view when nobody is to act.
    kAct,
    // The actor's own view, then Act: two calls per action (the client
    // before to_act_legal existed).
    kViewAndAct,
  };
  Api api = Api::kRelay;
  uint64_t seed = 1;
};

struct HoldemBenchResult {
  double seconds = 0;  // the measured window (wall clock)
  int64_t hands = 0;   // settled in the window (TableInfo, all tables)
  int64_t actions = 0;
  int64_t rejected = 0;  // Act calls the service refused (a bot bug)
  int64_t rebuys = 0;
  // Bots that sat down again after the table ended their session (HE-71:
  // their rebuy came too late), over the whole run.
  int64_t resits = 0;
  // Seated players per table when the window closed (6 when the tables
  // stayed full).
  double players_per_table_at_end = 0;
  // Table records the wallet had yet to carry out when the window closed.
  int64_t wallet_lag_records = 0;
  int64_t views = 0;   // GetTableView calls in the window (Act clients)
  int64_t pauses = 0;  // 1 ms waits with nobody to act, in the window
  int64_t turns = 0;   // turn notices received in the window (Play)
  double hands_per_sec = 0;
  double actions_per_sec = 0;
  double p50_action_ms = 0;
  double p99_action_ms = 0;
  double max_action_ms = 0;
  // Rebuy and Sit calls of broke or removed bots, sent to answered (the
  // wallet saga through the log), in the window.
  double p50_rebuy_ms = 0;
  double p99_rebuy_ms = 0;
  double setup_seconds = 0;  // tables, accounts, deposits, buy-ins
  // CPU seconds of the whole process (server and clients) per hand.
  double cpu_ms_per_hand = 0;
};

absl::StatusOr<HoldemBenchResult> RunHoldemServiceBench(
    const HoldemBenchOptions& options);

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_HOLDEM_BENCH_H_
