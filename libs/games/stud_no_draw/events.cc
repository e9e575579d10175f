#include "libs/games/stud_no_draw/events.h"

namespace banca::games::stud_no_draw {

std::string_view FoldCauseName(FoldCause cause) {
  switch (cause) {
    case FoldCause::kPlayer:
      return "player";
    case FoldCause::kTimeout:
      return "timeout";
    case FoldCause::kDisconnect:
      return "disconnect";
  }
  return "unknown";
}

bool VisibleTo(const Event& event, int seat) {
  // A player's own cards and own warnings are addressed to that player;
  // everything else in a round is public the moment it happens.
  if (const auto* dealt = std::get_if<CardsDealt>(&event)) {
    return dealt->seat == seat;
  }
  if (const auto* warned = std::get_if<DecisionWarned>(&event)) {
    return warned->seat == seat;
  }
  return true;
}

}  // namespace banca::games::stud_no_draw
