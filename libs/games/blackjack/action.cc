#include "libs/games/blackjack/action.h"

#include <array>
#include <utility>

namespace banca::games::blackjack {
namespace {

constexpr std::array<std::pair<ActionType, std::string_view>, 6> kNames = {{
    {ActionType::kHit, "hit"},
    {ActionType::kStand, "stand"},
    {ActionType::kDouble, "double"},
    {ActionType::kSplit, "split"},
    {ActionType::kInsurance, "insurance"},
    {ActionType::kSurrender, "surrender"},
}};

}  // namespace

std::string_view ActionTypeName(ActionType type) {
  for (const auto& [t, name] : kNames) {
    if (t == type) return name;
  }
  return "unknown";
}

std::optional<ActionType> ParseActionType(std::string_view name) {
  for (const auto& [t, n] : kNames) {
    if (n == name) return t;
  }
  return std::nullopt;
}

}  // namespace banca::games::blackjack
