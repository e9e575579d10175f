// `banca bench rtp --game G --rounds N`: the measured return to player of a
// banked game, drawn from the production CSPRNG, with its 99% confidence
// interval beside the theoretical value. Exits 1 when the theory falls
// outside the interval (with a correct engine, 1% of runs per game); the
// seeded, reproducible gate of CI is tests/rtp/rtp_test.cc.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "libs/cards/random.h"
#include "libs/common/json_text.h"
#include "libs/games/rtp_games.h"
#include "nlohmann/json.hpp"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

constexpr int64_t kMaxRounds = int64_t{1} << 36;

struct RtpFlags {
  std::string game;
  int64_t rounds = 1'000'000;
};

int BenchRtp(const RtpFlags& flags) {
  const games::RtpGame* game = nullptr;
  for (const games::RtpGame& g : games::RtpGames()) {
    if (g.name == flags.game) game = &g;
  }
  if (game == nullptr) return kUsageError;  // the flag's check names them
  // The production CSPRNG: what a test lab wants measured. The seeded,
  // reproducible run that gates CI is tests/rtp/rtp_test.cc (the seeded
  // generator is for tests only and is not linked into this program).
  absl::StatusOr<std::unique_ptr<cards::SystemRandomSource>> rng =
      cards::SystemRandomSource::Create();
  if (!rng.ok()) return Complain("banca bench rtp", rng.status(), 1);
  games::RtpTally tally;
  const absl::Time start = absl::Now();
  if (absl::Status s = game->simulate(flags.rounds, **rng, tally); !s.ok()) {
    return Complain("banca bench rtp", s.ToString(), 1);
  }

  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  const games::RtpTally::Interval ci = tally.ConfidenceInterval();
  const bool inside = ci.Contains(game->theoretical);
  nlohmann::ordered_json out;
  out["game"] = std::string(game->name);
  out["strategy"] = std::string(game->strategy);
  out["rounds"] = tally.rounds();
  out["staked"] = tally.staked();
  out["returned"] = tally.returned();
  out["rtp"] = tally.Rtp();
  out["ci99_low"] = ci.low;
  out["ci99_high"] = ci.high;
  out["theoretical"] = game->theoretical;
  out["theory_inside_ci99"] = inside;
  out["rounds_per_sec"] =
      seconds > 0 ? static_cast<double>(tally.rounds()) / seconds : 0.0;
  std::printf("%s\n", JsonText(out).c_str());
  return inside ? 0 : 1;
}

}  // namespace

void AddBenchRtpCommand(CLI::App& bench, Action* action) {
  CLI::App* rtp = bench.add_subcommand(
      "rtp", "measured return to player of a banked game (docs/rtp.md)");
  rtp->footer(
      "Draws from the production CSPRNG and prints one JSON object. Exit 0 "
      "the theoretical RTP inside the 99% confidence interval, 1 outside "
      "(1% of runs with a correct engine) or an error, 2 usage.");
  auto flags = std::make_shared<RtpFlags>();
  std::vector<std::string> names;
  for (const games::RtpGame& g : games::RtpGames()) names.emplace_back(g.name);
  rtp->add_option("--game", flags->game, "the game")
      ->required()
      ->check(CLI::IsMember(names));
  AddInt(*rtp, "--rounds", flags->rounds, "rounds to play", 2, kMaxRounds);
  OnParsed(*rtp, action, [flags] { return BenchRtp(*flags); });
}

}  // namespace banca::cli
