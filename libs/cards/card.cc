#include "libs/cards/card.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::cards {
namespace {

constexpr char kRankChars[] = "23456789TJQKA";
constexpr char kSuitChars[] = "cdhs";

absl::StatusOr<Suit> ParseSuit(char c) {
  switch (c) {
    case 'c':
    case 'C':
      return Suit::kClubs;
    case 'd':
    case 'D':
      return Suit::kDiamonds;
    case 'h':
    case 'H':
      return Suit::kHearts;
    case 's':
    case 'S':
      return Suit::kSpades;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("unknown suit '", std::string(1, c), "'"));
  }
}

}  // namespace

char RankChar(Rank rank) { return kRankChars[static_cast<int>(rank)]; }
char SuitChar(Suit suit) { return kSuitChars[static_cast<int>(suit)]; }

absl::StatusOr<Rank> ParseRank(std::string_view text) {
  if (text == "10") return Rank::kTen;
  if (text.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad rank \"", ToAbsl(text), "\""));
  }
  char c = text[0];
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  for (int r = 0; r < kNumRanks; ++r) {
    if (kRankChars[r] == c) return static_cast<Rank>(r);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("bad rank \"", ToAbsl(text), "\""));
}

absl::StatusOr<Card> ParseCard(std::string_view text) {
  if (text.size() < 2 || text.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad card \"", ToAbsl(text), "\": want e.g. \"As\" or \"Td\""));
  }
  ASSIGN_OR_RETURN(const Rank rank,
                   AsInvalidArgument(ParseRank(text.substr(0, text.size() - 1)),
                                     "bad card \"", ToAbsl(text), "\": "));
  ASSIGN_OR_RETURN(const Suit suit,
                   AsInvalidArgument(ParseSuit(text.back()), "bad card \"",
                                     ToAbsl(text), "\": "));
  return Card(rank, suit);
}

std::string CardToString(Card card) {
  return std::string{RankChar(card.rank()), SuitChar(card.suit())};
}

absl::StatusOr<std::vector<Card>> ParseCards(std::string_view text) {
  std::vector<Card> cards;
  CardSet seen;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == ',' || c == '\t') {
      ++i;
      continue;
    }
    // "10x" is the only three-character card.
    size_t len =
        (c == '1' && i + 2 < text.size() && text[i + 1] == '0') ? 3 : 2;
    if (i + len > text.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("truncated card at \"", ToAbsl(text.substr(i)), "\""));
    }
    ASSIGN_OR_RETURN(Card card, ParseCard(text.substr(i, len)));
    if (seen.Contains(card)) {
      return absl::InvalidArgumentError(
          absl::StrCat("card ", CardToString(card), " given twice"));
    }
    seen.Insert(card);
    cards.push_back(card);
    i += len;
  }
  return cards;
}

std::string CardsToString(absl::Span<const Card> cards) {
  std::string out;
  for (size_t i = 0; i < cards.size(); ++i) {
    if (i > 0) out.push_back(' ');
    out += CardToString(cards[i]);
  }
  return out;
}

CardSet CardSet::Of(absl::Span<const Card> cards) {
  CardSet set;
  for (Card c : cards) set.Insert(c);
  return set;
}

absl::StatusOr<std::vector<Card>> BuildDeck(const DeckSpec& spec) {
  if (spec.copies < 1 || spec.copies > 8) {
    return absl::InvalidArgumentError(
        absl::StrCat("deck copies must be in [1, 8], got ", spec.copies));
  }
  std::vector<Card> deck;
  for (int copy = 0; copy < spec.copies; ++copy) {
    for (int r = static_cast<int>(spec.lowest_rank); r < kNumRanks; ++r) {
      for (int s = 0; s < kNumSuits; ++s) {
        deck.emplace_back(static_cast<Rank>(r), static_cast<Suit>(s));
      }
    }
  }
  return deck;
}

std::vector<Card> StandardDeck() {
  std::vector<Card> deck;
  deck.reserve(kNumCards);
  for (int i = 0; i < kNumCards; ++i) deck.push_back(Card::FromIndex(i));
  return deck;
}

}  // namespace banca::cards
