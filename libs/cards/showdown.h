// Names of hands in English and Portuguese, and the "who wins and why" text
// that showdown messages need (HE-61: the winning combination must be
// indicated clearly). Portuguese category terms are the regulations' own
// (DIGEST "Portuguese terms used").
#ifndef BANCA_LIBS_CARDS_SHOWDOWN_H_
#define BANCA_LIBS_CARDS_SHOWDOWN_H_

#include <string>
#include <string_view>

#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"

namespace banca::cards {

enum class Language { kEnglish, kPortuguese };

// The regulations name the royal flush differently: "sequência máxima de
// cor" in hold'em (HE-29a, also used for Omaha and synthetic poker) and
// "sequência real de cor" in póquer sem descarte (SD-7a).
enum class Game { kHoldem, kOmaha, kSynthetic, kSemDescarte };

// "Full house" / "Fullen". Royal flushes are named by RoyalFlushName.
std::string_view CategoryName(Category category, Language language);
std::string_view RoyalFlushName(Language language, Game game);
// "ace" / "ás"; plural "aces" / "ases".
std::string_view RankName(Rank rank, Language language, bool plural = false);

// "Full house, kings full of sevens" / "Fullen de reis e setes".
std::string DescribeHand(HandValue value, Language language,
                         Game game = Game::kHoldem);

enum class ShowdownReason {
  kCategory,  // Different categories (HE-29, SD-7).
  kRanks,     // Same category, the named ranks differ (HE-32, SD-13).
  kKicker,    // Same named ranks, a further card decides (HE-32, SD-13).
  kSuits,     // Póquer sem descarte only: three cards of one suit (SD-9).
  kTie,       // Equal hands: split pot (HE-33) or push (SD gap 1).
};

struct Showdown {
  // +1: the first hand wins; -1: the second; 0: tie.
  int winner = 0;
  ShowdownReason reason = ShowdownReason::kTie;
  // "Full house, kings full of sevens beats flush, ace high";
  // "Fullen de reis e setes vence cor ao ás". The winner is named first.
  std::string english;
  std::string portuguese;
};

// Compares two evaluated hands (same game).
Showdown CompareHands(HandValue first, HandValue second,
                      Game game = Game::kHoldem);

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_SHOWDOWN_H_
