// `banca hands ...`: hand histories from the command line
// (docs/hand-histories.md). Now `replay FILE.phh`: a PHH hand through
// banca's engine (libs/games/poker/phh_replay.h), reported as one JSON
// object. Each subcommand is a pure function of the file's text plus a thin
// file-reading wrapper, so tests need no process.
#ifndef BANCA_LIBS_HAND_HISTORY_HANDS_H_
#define BANCA_LIBS_HAND_HISTORY_HANDS_H_

#include <string>
#include <string_view>

namespace banca::hand_history {

// Exit statuses of `banca hands`.
inline constexpr int kHandsOk = 0;
inline constexpr int kHandsFailed = 1;   // I/O or an internal error
inline constexpr int kHandsBadFile = 2;  // malformed, unsupported or illegal

struct HandsRun {
  int exit_code = kHandsFailed;
  // One line: the result (exit 0), or {"error": "...", ...} otherwise.
  std::string json;
  // The error message alone (for stderr); empty on success.
  std::string error;
};

// `banca hands replay`: the PHH text replayed.
HandsRun ReplayHandText(std::string_view phh_text);
HandsRun ReplayHandFile(const std::string& path);

}  // namespace banca::hand_history

#endif  // BANCA_LIBS_HAND_HISTORY_HANDS_H_
