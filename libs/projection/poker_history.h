// A finished poker hand as the reporting service keeps its history
// (v1::GameHistory with a PokerHandHistory): the seats with their stacks,
// hole cards and results, every action, the board, the pots and the rake,
// and the PHH text `banca hands export` would write for it (amounts in the
// currency's major units). Everything is kept, every player's hole cards
// included: what a caller may see is cut at query time
// (history_view.h). Pure: the hand in, the history out.
#ifndef BANCA_LIBS_PROJECTION_POKER_HISTORY_H_
#define BANCA_LIBS_PROJECTION_POKER_HISTORY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "banca/v1/reporting.pb.h"
#include "banca/v1/table.pb.h"
#include "libs/games/poker/hand.h"

namespace banca::projection {

// A history's PHH text beyond this is not kept (the structured history
// is); a hand's PHH is a few kilobytes.
inline constexpr size_t kMaxPhhBytes = 64 * 1024;

struct PokerHandLabels {
  std::string table_id;
  std::string table_name;
  v1::PokerTableConfig config;  // normalized (currency set)
  int64_t number = 0;           // the hand's number at the table
  int64_t started_micros = 0;   // HandStarted's time
  int64_t ended_micros = 0;     // HandSettled's time
};

// The history of `hand`, which must be finished.
absl::StatusOr<v1::GameHistory> PokerHistory(const games::poker::Hand& hand,
                                             const PokerHandLabels& labels);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_POKER_HISTORY_H_
