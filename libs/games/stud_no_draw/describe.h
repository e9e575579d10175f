// One line of text per event and per round result: the table topic's
// record payload (table events have no protobuf schema yet) and the
// round summary an auditor or the SD-37 view reads. The text carries
// exactly what the event carries, so the burn card never appears.
#ifndef BANCA_LIBS_GAMES_STUD_NO_DRAW_DESCRIBE_H_
#define BANCA_LIBS_GAMES_STUD_NO_DRAW_DESCRIBE_H_

#include <string>

#include "absl/types/span.h"
#include "libs/cards/card.h"
#include "libs/games/stud_no_draw/events.h"
#include "libs/games/stud_no_draw/round.h"
#include "libs/games/stud_no_draw/table.h"

namespace banca::games::stud_no_draw {

// "AdKc4h3s5s".
std::string CardsText(absl::Span<const cards::Card> cards);
// "SeatSettled seat=1 player=ana outcome=won ante=100/200 bet=200/400 x1".
std::string Describe(const Event& event);
std::string Describe(const TableEvent& event);
// "bank AdKc4h3s5s plays (High card, ace); ana (seat 1) Pair of queens:
// won 1x; rui (seat 3) folded". Void: "void (SD-33): every stake returned".
std::string DescribeResult(const RoundResult& result);

}  // namespace banca::games::stud_no_draw

#endif  // BANCA_LIBS_GAMES_STUD_NO_DRAW_DESCRIBE_H_
