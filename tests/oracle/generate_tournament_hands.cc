// Plays whole tournaments through the tournament director (libs/games/
// tournament: the same poker engine with chips, no rake, blinds by level,
// stacks carried from hand to hand, short stacks and multi-way all-ins
// common) and writes every hand its tables played as a PHH file, with
// banca's finishing stacks and pots, for tests/oracle/pokerkit_check.py to
// replay with PokerKit.
//
//   tournament_oracle_hands --hands=N --seed=S --out=DIR
//
// Games: no-limit and fixed-limit Hold'em, pot-limit Omaha, 2 to 10 seats a
// table, both heads-up blind modes. A hand whose big blind was posted short
// is not written (tests/oracle/README.md: PokerKit asks for the highest
// blind posted, banca for the full big blind, HE-52); the summary counts
// them. Test-only: the bits come from a seeded generator.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/games/poker/deterministic_bits.h"
#include "libs/games/poker/phh.h"
#include "libs/games/poker/phh_extras.h"
#include "libs/games/tournament/autoplay.h"
#include "libs/games/tournament/director.h"
#include "tests/oracle/oracle_flags.h"

namespace banca::games::tournament {
namespace {

using poker::DeterministicBits;

constexpr int64_t kHandsPerTournament = 120;

TournamentConfig RandomConfig(DeterministicBits& bits) {
  TournamentConfig c;
  switch (bits.Between(0, 2)) {
    case 0:
      c.variant = poker::Variant::kHoldem;
      c.limit = poker::Limit::kNoLimit;
      break;
    case 1:
      c.variant = poker::Variant::kHoldem;
      c.limit = poker::Limit::kFixedLimit;
      break;
    default:
      c.variant = poker::Variant::kOmaha;
      c.limit = poker::Limit::kPotLimit;
  }
  c.heads_up = static_cast<poker::HeadsUpBlinds>(bits.Between(0, 1));
  c.seats_per_table = static_cast<int>(bits.Between(2, 10));
  c.starting_chips = bits.Between(10, 60) * 100;
  c.buy_in = 1'000;
  c.fee_bps = 1'000;
  c.payouts_bps = {10'000};
  int64_t big = 20;
  for (int i = 0; i < 6; ++i) {
    // Strictly smaller small blinds: PokerKit finds the opener by the
    // larger blind (generate_hands.cc).
    c.levels.push_back(BlindLevel{big / 2, big, 0, 600'000'000});
    big *= 2;
  }
  return c;
}

// A finished hand as PHH, or why it is not written.
absl::StatusOr<std::string> Phh(const poker::Hand& hand,
                                const std::string& table) {
  for (const poker::Event& e : hand.events()) {
    if (const auto* b = std::get_if<poker::BlindPosted>(&e);
        b != nullptr && b->big && b->amount < hand.record().config.big_blind) {
      return absl::FailedPreconditionError("short big blind");
    }
  }
  const poker::HandResult& result = hand.result();
  poker::PhhExtras extras = poker::PhhExtrasOf(result);
  extras.table_name = table;
  extras.author = "banca tournament_oracle_hands";
  return poker::WritePhh(hand.record(), extras);
}

int Run(int64_t hands, uint64_t seed, const std::string& out) {
  std::filesystem::create_directories(out);
  DeterministicBits bits{seed};
  int64_t written = 0, short_blinds = 0, tournaments = 0;
  while (written < hands) {
    ++tournaments;
    TournamentConfig config = RandomConfig(bits);
    absl::StatusOr<Director> made = Director::Create(
        absl::StrCat("oracle", tournaments), config,
        [&bits](int n) { return static_cast<int>(bits.Between(0, n - 1)); });
    if (!made.ok()) {
      std::cerr << "tournament " << tournaments << ": " << made.status()
                << "\n";
      return 1;
    }
    Director& d = *made;
    int players = static_cast<int>(bits.Between(2, 24));
    // Heads-up tables take an even field: a table of one cannot play.
    if (config.seats_per_table == 2 && players % 2 == 1) ++players;
    for (int i = 0; i < players; ++i) {
      if (!d.Register(absl::StrCat("p", i), Source::kCash).ok()) return 1;
    }
    std::map<std::string, int64_t> seen;  // hands written, by table
    int64_t played = 0;
    auto settle = [&](std::vector<MoneyMove>) -> absl::Status {
      for (const std::string& table : d.TableNames()) {
        const poker::Hand* hand = d.HandAt(table);
        if (hand == nullptr || !hand->finished() ||
            seen[table] == hand->record().hand_number) {
          continue;
        }
        seen[table] = hand->record().hand_number;
        absl::StatusOr<std::string> phh = Phh(*hand, table);
        if (absl::IsFailedPrecondition(phh.status())) {
          ++short_blinds;
          continue;
        }
        if (!phh.ok()) return phh.status();
        std::ofstream(absl::StrFormat("%s/t%04d-%s-%04d.phh", out, tournaments,
                                      table, hand->record().hand_number))
            << *phh;
        if (++written >= hands) return absl::CancelledError("enough hands");
        // A mix of formats: at most kHandsPerTournament from each.
        if (++played >= kHandsPerTournament) {
          return absl::CancelledError("the next tournament");
        }
      }
      return absl::OkStatus();
    };
    absl::StatusOr<AutoplayReport> r = Autoplay(
        d, [&bits] { return bits(); }, settle,
        AutoplayOptions{.hands_per_level = 40, .all_in_percent = 8});
    if (!r.ok() && !absl::IsCancelled(r.status())) {
      std::cerr << "tournament " << tournaments << ": " << r.status() << "\n";
      return 1;
    }
  }
  std::cout << absl::StrFormat(
      "{\"hands\": %d, \"seed\": %d, \"tournaments\": %d, "
      "\"short_big_blind_skipped\": %d}\n",
      written, seed, tournaments, short_blinds);
  return 0;
}

}  // namespace
}  // namespace banca::games::tournament

int main(int argc, char** argv) {
  banca::oracle::OracleFlags flags;
  flags.hands = 2'000;
  if (!banca::oracle::ParseOracleFlags(
          argc, argv,
          "usage: tournament_oracle_hands --hands=N --seed=S --out=DIR",
          &flags)) {
    return 2;
  }
  return banca::games::tournament::Run(flags.hands, flags.seed, flags.out);
}
