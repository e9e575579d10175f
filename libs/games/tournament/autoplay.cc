#include "libs/games/tournament/autoplay.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"

namespace banca::games::tournament {
namespace {

// A uniform value in 0..n − 1 (n >= 1), without modulo bias.
uint64_t Below(RandomBits random, uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x = random();
  while (x >= limit) x = random();
  return x % n;
}

// One decision among the legal ones, mostly checks and calls.
poker::Action Decide(const poker::LegalActions& l, RandomBits random,
                     const AutoplayOptions& o) {
  using poker::ActionType;
  const int r = static_cast<int>(Below(random, 100));
  if (l.can_all_in && r < o.all_in_percent) return {ActionType::kAllIn, 0};
  if (l.can_check) {
    if ((l.can_bet || l.can_raise) && r < o.all_in_percent + 15 &&
        l.min_raise_to <= l.max_raise_to) {
      return {l.can_bet ? ActionType::kBet : ActionType::kRaise,
              l.min_raise_to};
    }
    return {ActionType::kCheck, 0};
  }
  if (r < 55 && l.can_call) return {ActionType::kCall, 0};
  if (r < 62 && l.can_raise && l.min_raise_to <= l.max_raise_to) {
    return {ActionType::kRaise, l.min_raise_to};
  }
  return {ActionType::kFold, 0};
}

class Player {
 public:
  Player(Director& d, RandomBits random, Settle settle,
         const AutoplayOptions& o)
      : d_(d), random_(random), settle_(settle), o_(o) {}

  absl::StatusOr<AutoplayReport> Run() {
    RETURN_IF_ERROR(Then(d_.StartWithDraw()));
    while (d_.phase() == Phase::kRunning) {
      if (report_.hands >= o_.max_hands) {
        return absl::InternalError(
            absl::StrCat("not finished after ", report_.hands, " hands"));
      }
      bool dealt = false;
      for (const std::string& table : d_.TablesInPlay()) {
        if (d_.phase() != Phase::kRunning) break;
        ASSIGN_OR_RETURN(bool played, PlayHand(table));
        dealt |= played;
      }
      if (!dealt && d_.phase() == Phase::kRunning) {
        // Nobody could deal: out-of-chips players wait for a level, or
        // the time is up and the last orbits are over.
        RETURN_IF_ERROR(NextLevel());
      }
    }
    return report_;
  }

 private:
  absl::Status Then(absl::Status s) {
    RETURN_IF_ERROR(s);
    return settle_(d_.TakeMoves());
  }

  absl::Status NextLevel() {
    absl::Status s = d_.NextLevel();
    if (s.ok()) ++report_.levels;
    if (!s.ok() && s.code() != absl::StatusCode::kFailedPrecondition) return s;
    RETURN_IF_ERROR(settle_(d_.TakeMoves()));
    if (!s.ok()) {
      // The last level: nothing else can change, which is a stuck play.
      bool any = false;
      for (const std::string& t : d_.TableNames()) {
        any |= d_.HandAt(t) != nullptr;
      }
      if (!any) return absl::InternalError("no table can deal");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<bool> PlayHand(const std::string& table) {
    absl::Status dealt = d_.Deal(table, ShuffledDeck(random_), 0);
    if (dealt.code() == absl::StatusCode::kFailedPrecondition ||
        dealt.code() == absl::StatusCode::kNotFound) {
      return false;
    }
    RETURN_IF_ERROR(Then(dealt));
    // Who was dealt in, once (a hand's record is a copy).
    const poker::Hand* dealt_hand = d_.HandAt(table);
    const std::vector<poker::SeatedPlayer> players =
        dealt_hand != nullptr ? dealt_hand->record().players
                              : std::vector<poker::SeatedPlayer>{};
    while (const poker::Hand* hand = d_.HandAt(table)) {
      if (hand->finished() || d_.phase() != Phase::kRunning) break;
      const poker::LegalActions l = hand->legal();
      RETURN_IF_ERROR(
          Then(d_.Act(NameAt(players, l.seat), Decide(l, random_, o_))));
    }
    ++report_.hands;
    if (report_.hands % o_.hands_per_level == 0) RETURN_IF_ERROR(NextLevel());
    RETURN_IF_ERROR(BuyChips(players));
    return true;
  }

  static std::string NameAt(const std::vector<poker::SeatedPlayer>& players,
                            int seat) {
    for (const poker::SeatedPlayer& p : players) {
      if (p.seat == seat) return p.player;
    }
    return "";
  }

  // Between hands, the players of the hand just played may buy chips.
  absl::Status BuyChips(const std::vector<poker::SeatedPlayer>& players) {
    const TournamentConfig& c = d_.config();
    if (!c.rebuy && !c.addon) return absl::OkStatus();
    for (const poker::SeatedPlayer& seated : players) {
      const std::string& player = seated.player;
      if (d_.TableOf(player).empty()) continue;  // eliminated
      const int r = static_cast<int>(Below(random_, 100));
      if (c.rebuy && d_.Stack(player) == 0 && r < o_.rebuy_percent &&
          d_.Rebuy(player).ok()) {
        ++report_.rebuys;
        RETURN_IF_ERROR(settle_(d_.TakeMoves()));
      }
      if (c.addon && d_.level() + 1 == c.addon->until_level &&
          r < o_.addon_percent && d_.AddOn(player).ok()) {
        ++report_.addons;
        RETURN_IF_ERROR(settle_(d_.TakeMoves()));
      }
    }
    return absl::OkStatus();
  }

  Director& d_;
  RandomBits random_;
  Settle settle_;
  const AutoplayOptions& o_;
  AutoplayReport report_;
};

}  // namespace

std::vector<cards::Card> ShuffledDeck(RandomBits random) {
  std::vector<cards::Card> deck;
  for (int i = 0; i < cards::kNumCards; ++i) {
    deck.push_back(cards::Card::FromIndex(i));
  }
  for (int i = cards::kNumCards - 1; i > 0; --i) {
    std::swap(deck[i], deck[Below(random, static_cast<uint64_t>(i) + 1)]);
  }
  return deck;
}

absl::StatusOr<AutoplayReport> Autoplay(Director& director, RandomBits random,
                                        Settle settle,
                                        const AutoplayOptions& options) {
  return Player(director, random, settle, options).Run();
}

}  // namespace banca::games::tournament
