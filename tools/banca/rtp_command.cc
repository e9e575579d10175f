// `banca bench rtp --game G --rounds N`: the measured return to player of a
// banked game, drawn from the production CSPRNG, with its 99% confidence
// interval beside the theoretical value. Exits 1 when the theory falls
// outside the interval (with a correct engine, 1% of runs per game); the
// seeded, reproducible gate of CI is tests/rtp/rtp_test.cc.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "libs/cards/random.h"
#include "nlohmann/json.hpp"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/rtp_games.h"

namespace banca::cli {
namespace {

constexpr int64_t kMaxRounds = int64_t{1} << 36;

int Usage(const std::string& why) {
  std::vector<std::string> names;
  for (const RtpGame& g : RtpGames()) names.emplace_back(g.name);
  std::fprintf(
      stderr,
      "banca bench rtp: %s\nusage: banca bench rtp --game=%s "
      "--rounds=N\n",
      why.c_str(),
      names.empty() ? "<none built yet>" : absl::StrJoin(names, "|").c_str());
  return 2;
}

}  // namespace

int BenchRtp(int argc, char** argv) {
  absl::StatusOr<Flags> flags = Flags::Parse(argc, argv, 3, {"game", "rounds"});
  if (!flags.ok()) return Usage(std::string(flags.status().message()));
  const std::string name = flags->Get("game", "");
  const RtpGame* game = nullptr;
  for (const RtpGame& g : RtpGames()) {
    if (g.name == name) game = &g;
  }
  if (game == nullptr)
    return Usage(absl::StrCat("unknown game \"", name, "\""));
  absl::StatusOr<int64_t> rounds = flags->GetInt("rounds", 1'000'000);
  if (!rounds.ok() || *rounds < 2 || *rounds > kMaxRounds) {
    return Usage(absl::StrCat("--rounds must be 2..", kMaxRounds));
  }
  // The production CSPRNG: what a test lab wants measured. The seeded,
  // reproducible run that gates CI is tests/rtp/rtp_test.cc (the seeded
  // generator is for tests only and is not linked into this program).
  absl::StatusOr<std::unique_ptr<cards::SystemRandomSource>> rng =
      cards::SystemRandomSource::Create();
  if (!rng.ok()) {
    std::fprintf(stderr, "banca bench rtp: %s\n",
                 std::string(rng.status().message()).c_str());
    return 1;
  }
  games::RtpTally tally;
  const absl::Time start = absl::Now();
  if (absl::Status s = game->simulate(*rounds, **rng, tally); !s.ok()) {
    std::fprintf(stderr, "banca bench rtp: %s\n", s.ToString().c_str());
    return 1;
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
  std::printf("%s\n", out.dump().c_str());
  return inside ? 0 : 1;
}

}  // namespace banca::cli
