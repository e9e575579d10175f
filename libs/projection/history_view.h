// What a caller may see of a game's history (docs/reporting.md, "Who may
// read what"; DESIGN invariant 7). The projection keeps every card; the
// cut is made here, at query time, once per answer:
// - staff (auditor, operator): everything, every hole card of a finished
//   hand included (folded and mucked hands too);
// - a player: their own hole cards, and other players' only where they
//   were shown at showdown; of a banked round, only their own part;
// - finance: no hole cards but those shown at showdown (money, not
//   cards, is finance's business), every player's part of a banked round.
// The PHH text is cut the same way: hidden hole cards become "??" per card
// and the recorded deck (`_banca_deck`, which holds every card) is left
// out.
#ifndef BANCA_LIBS_PROJECTION_HISTORY_VIEW_H_
#define BANCA_LIBS_PROJECTION_HISTORY_VIEW_H_

#include <string>
#include <string_view>
#include <vector>

#include "banca/v1/reporting.pb.h"

namespace banca::projection {

enum class HistoryAudience { kStaff, kFinance, kPlayer };

// Cuts `history` for `audience` (`player`: the caller, for kPlayer).
void CutHistory(v1::GameHistory& history, HistoryAudience audience,
                std::string_view player);

// `phh` with the hole cards of the PHH players `hidden` (1-based: p1 is
// the first seat left of the button, pn the button) written as "??" per
// card, and without `_banca_deck`.
std::string MaskPhh(std::string_view phh, const std::vector<int>& hidden);

// The PHH player number (1-based) of each seat of `hand`, in `seats`
// order: the dealt-in seats clockwise from the first left of the button.
std::vector<int> PhhNumbers(const v1::PokerHandHistory& hand);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_HISTORY_VIEW_H_
