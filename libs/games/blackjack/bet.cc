#include "libs/games/blackjack/bet.h"

#include "absl/strings/str_cat.h"

namespace banca::games::blackjack {

std::string_view BetKindName(BetKind kind) {
  switch (kind) {
    case BetKind::kMain:
      return "main";
    case BetKind::kSplit:
      return "split";
    case BetKind::kDouble:
      return "double";
    case BetKind::kInsurance:
      return "insurance";
  }
  return "unknown";
}

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kLost:
      return "lost";
    case Outcome::kPush:
      return "push";
    case Outcome::kWon:
      return "won";
    case Outcome::kBlackjack:
      return "blackjack";
    case Outcome::kSurrendered:
      return "surrendered";
    case Outcome::kVoid:
      return "void";
  }
  return "unknown";
}

std::string BetId(BetKind kind, int hand) {
  switch (kind) {
    case BetKind::kMain:
      return "main";
    case BetKind::kInsurance:
      return "insurance";
    case BetKind::kSplit:
      return absl::StrCat("split", hand);
    case BetKind::kDouble:
      return absl::StrCat("double", hand);
  }
  return "unknown";
}

}  // namespace banca::games::blackjack
