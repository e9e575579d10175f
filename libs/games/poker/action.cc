#include "libs/games/poker/action.h"

namespace banca::games::poker {

std::string_view ActionTypeName(ActionType type) {
  switch (type) {
    case ActionType::kFold:
      return "fold";
    case ActionType::kCheck:
      return "check";
    case ActionType::kCall:
      return "call";
    case ActionType::kBet:
      return "bet";
    case ActionType::kRaise:
      return "raise";
    case ActionType::kAllIn:
      return "all_in";
    case ActionType::kStraddle:
      return "straddle";
    case ActionType::kRestraddle:
      return "restraddle";
  }
  return "unknown";
}

}  // namespace banca::games::poker
