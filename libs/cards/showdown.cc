#include "libs/cards/showdown.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::cards {
namespace {

struct RankWords {
  std::string_view en, en_plural, pt, pt_plural;
  bool pt_feminine;
};

// Portuguese number names are invariable in the plural when they end in -s
// or -z ("os três", "os seis", "os dez").
constexpr RankWords kRankWords[kNumRanks] = {
    {"two", "twos", "dois", "dois", false},
    {"three", "threes", "três", "três", false},
    {"four", "fours", "quatro", "quatros", false},
    {"five", "fives", "cinco", "cincos", false},
    {"six", "sixes", "seis", "seis", false},
    {"seven", "sevens", "sete", "setes", false},
    {"eight", "eights", "oito", "oitos", false},
    {"nine", "nines", "nove", "noves", false},
    {"ten", "tens", "dez", "dez", false},
    {"jack", "jacks", "valete", "valetes", false},
    {"queen", "queens", "dama", "damas", true},
    {"king", "kings", "rei", "reis", false},
    {"ace", "aces", "ás", "ases", false},
};

const RankWords& Words(Rank r) { return kRankWords[static_cast<int>(r)]; }

// "ao nove", "à dama": "to the" contracted by the noun's gender.
std::string ToThe(Rank r) {
  return absl::StrCat(Words(r).pt_feminine ? "à " : "ao ", ToAbsl(Words(r).pt));
}

// How many of a class's ranks DescribeHand names; later ranks are kickers.
int NamedRanks(Category c) {
  switch (c) {
    case Category::kFullHouse:
    case Category::kTwoPair:
      return 2;
    default:
      return 1;
  }
}

std::string LowerFirst(std::string s) {
  if (!s.empty()) s[0] = absl::ascii_tolower(static_cast<unsigned char>(s[0]));
  return s;
}

constexpr std::string_view kOrdinalEn[] = {"first", "second", "third", "fourth",
                                           "fifth"};
constexpr std::string_view kOrdinalPt[] = {"primeira", "segunda", "terceira",
                                           "quarta", "quinta"};

}  // namespace

std::string_view CategoryName(Category category, Language language) {
  const bool en = language == Language::kEnglish;
  switch (category) {
    case Category::kHighCard:
      return en ? "High card" : "Cartas maiores";
    case Category::kPair:
      return en ? "Pair" : "Par";
    case Category::kTwoPair:
      return en ? "Two pair" : "Dois pares";
    case Category::kThreeOfAKind:
      return en ? "Three of a kind" : "Trio";
    case Category::kStraight:
      return en ? "Straight" : "Sequência";
    case Category::kFlush:
      return en ? "Flush" : "Cor";
    case Category::kFullHouse:
      return en ? "Full house" : "Fullen";
    case Category::kFourOfAKind:
      return en ? "Four of a kind" : "Póquer";
    case Category::kStraightFlush:
      return en ? "Straight flush" : "Sequência de cor";
  }
  return "?";
}

std::string_view RoyalFlushName(Language language, Game game) {
  if (language == Language::kEnglish) return "Royal flush";
  return game == Game::kSemDescarte ? "Sequência real de cor"
                                    : "Sequência máxima de cor";
}

std::string_view RankName(Rank rank, Language language, bool plural) {
  const RankWords& w = Words(rank);
  if (language == Language::kEnglish) return plural ? w.en_plural : w.en;
  return plural ? w.pt_plural : w.pt;
}

std::string DescribeHand(HandValue value, Language language, Game game) {
  if (!value.valid()) return "?";
  if (value.IsRoyalFlush()) return std::string(RoyalFlushName(language, game));
  const HandClass& c = Evaluator::Get().Class(value);
  const Rank r0 = c.ranks[0], r1 = c.ranks[1];
  const bool en = language == Language::kEnglish;
  auto one = [&](Rank r) { return ToAbsl(RankName(r, language, false)); };
  auto many = [&](Rank r) { return ToAbsl(RankName(r, language, true)); };
  switch (c.category) {
    case Category::kStraightFlush:
      return en ? absl::StrCat("Straight flush, ", one(r0), " high")
                : absl::StrCat("Sequência de cor ", ToThe(r0));
    case Category::kFourOfAKind:
      return en ? absl::StrCat("Four of a kind, ", many(r0))
                : absl::StrCat("Póquer de ", many(r0));
    case Category::kFullHouse:
      return en ? absl::StrCat("Full house, ", many(r0), " full of ", many(r1))
                : absl::StrCat("Fullen de ", many(r0), " e ", many(r1));
    case Category::kFlush:
      return en ? absl::StrCat("Flush, ", one(r0), " high")
                : absl::StrCat("Cor ", ToThe(r0));
    case Category::kStraight:
      return en ? absl::StrCat("Straight, ", one(r0), " high")
                : absl::StrCat("Sequência ", ToThe(r0));
    case Category::kThreeOfAKind:
      return en ? absl::StrCat("Three of a kind, ", many(r0))
                : absl::StrCat("Trio de ", many(r0));
    case Category::kTwoPair:
      return en ? absl::StrCat("Two pair, ", many(r0), " and ", many(r1))
                : absl::StrCat("Dois pares, ", many(r0), " e ", many(r1));
    case Category::kPair:
      return en ? absl::StrCat("Pair of ", many(r0))
                : absl::StrCat("Par de ", many(r0));
    case Category::kHighCard:
      return en ? absl::StrCat("High card, ", one(r0))
                : absl::StrCat("Cartas maiores, ", one(r0));
  }
  return "?";
}

Showdown CompareHands(HandValue first, HandValue second, Game game) {
  Showdown s;
  const std::string first_en = DescribeHand(first, Language::kEnglish, game);
  const std::string first_pt = DescribeHand(first, Language::kPortuguese, game);
  if (first == second) {
    s.winner = 0;
    s.reason = ShowdownReason::kTie;
    s.english = absl::StrCat("Tie: both hands are ", LowerFirst(first_en));
    s.portuguese =
        absl::StrCat("Empate: ambas as mãos são ", LowerFirst(first_pt));
    return s;
  }
  s.winner = first > second ? 1 : -1;
  const HandValue win = s.winner > 0 ? first : second;
  const HandValue lose = s.winner > 0 ? second : first;
  const std::string win_en =
      s.winner > 0 ? first_en : DescribeHand(win, Language::kEnglish, game);
  const std::string win_pt =
      s.winner > 0 ? first_pt : DescribeHand(win, Language::kPortuguese, game);
  const std::string lose_en = DescribeHand(lose, Language::kEnglish, game);
  const std::string lose_pt = DescribeHand(lose, Language::kPortuguese, game);
  s.english = absl::StrCat(win_en, " beats ", LowerFirst(lose_en));
  s.portuguese = absl::StrCat(win_pt, " vence ", LowerFirst(lose_pt));
  if (win.category() != lose.category()) {
    s.reason = ShowdownReason::kCategory;
    return s;
  }
  const HandClass& w = Evaluator::Get().Class(win);
  const HandClass& l = Evaluator::Get().Class(lose);
  int i = 0;
  while (i < w.num_ranks && w.ranks[i] == l.ranks[i]) ++i;
  if (i < NamedRanks(w.category)) {
    s.reason = ShowdownReason::kRanks;
    return s;
  }
  s.reason = ShowdownReason::kKicker;
  const bool all_cards =
      w.category == Category::kFlush || w.category == Category::kHighCard;
  absl::StrAppend(
      &s.english, ": ",
      all_cards ? absl::StrCat(ToAbsl(kOrdinalEn[i]), " card") : "kicker", " ",
      ToAbsl(RankName(w.ranks[i], Language::kEnglish)), " over ",
      ToAbsl(RankName(l.ranks[i], Language::kEnglish)));
  absl::StrAppend(
      &s.portuguese, ": ",
      all_cards ? absl::StrCat(ToAbsl(kOrdinalPt[i]), " carta") : "kicker", " ",
      ToAbsl(RankName(w.ranks[i], Language::kPortuguese)), " contra ",
      ToAbsl(RankName(l.ranks[i], Language::kPortuguese)));
  return s;
}

}  // namespace banca::cards
