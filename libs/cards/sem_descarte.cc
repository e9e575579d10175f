#include "libs/cards/sem_descarte.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace banca::cards::sem_descarte {

bool BankQualifies(HandValue bank) {
  static const HandValue kAceKing = Evaluator::Get().Evaluate(
      CardAccumulator() + Card(Rank::kAce, Suit::kSpades) +
      Card(Rank::kKing, Suit::kHearts) + Card(Rank::kFour, Suit::kClubs) +
      Card(Rank::kThree, Suit::kDiamonds) + Card(Rank::kTwo, Suit::kClubs));
  return bank >= kAceKing;
}

bool HasThreeOfOneSuit(absl::Span<const Card> five) {
  std::array<int, kNumSuits> count{};
  for (Card c : five) {
    if (++count[static_cast<int>(c.suit())] >= 3) return true;
  }
  return false;
}

Showdown ComparePlayerWithBank(absl::Span<const Card> player,
                               absl::Span<const Card> bank) {
  const Evaluator& ev = Evaluator::Get();
  const HandValue p = ev.Evaluate(player);
  const HandValue b = ev.Evaluate(bank);
  Showdown s = CompareHands(p, b, Game::kSemDescarte);
  if (s.winner != 0 || p.category() != Category::kHighCard) return s;
  const bool player_suited = HasThreeOfOneSuit(player);
  if (player_suited == HasThreeOfOneSuit(bank)) return s;
  const std::string en = DescribeHand(p, Language::kEnglish);
  const std::string pt = DescribeHand(p, Language::kPortuguese);
  s.winner = player_suited ? 1 : -1;
  s.reason = ShowdownReason::kSuits;
  s.english =
      absl::StrCat(player_suited ? "Player" : "Bank", " wins equal hands (", en,
                   "): three cards of one suit (SD-9)");
  s.portuguese = absl::StrCat("Ganha ", player_suited ? "o jogador" : "a banca",
                              " com mãos iguais (", pt,
                              "): três cartas do mesmo naipe (SD-9)");
  return s;
}

absl::StatusOr<Showdown> ComparePlayerWithBankChecked(
    absl::Span<const Card> player, absl::Span<const Card> bank) {
  if (player.size() != 5 || bank.size() != 5) {
    return absl::InvalidArgumentError(
        absl::StrCat("póquer sem descarte hands have 5 cards, got ",
                     player.size(), " and ", bank.size()));
  }
  CardSet all = CardSet::Of(player);
  for (Card c : bank) all.Insert(c);
  if (all.size() != 10) {
    return absl::InvalidArgumentError("repeated card between hands");
  }
  return ComparePlayerWithBank(player, bank);
}

}  // namespace banca::cards::sem_descarte
