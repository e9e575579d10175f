// The PHH reader (libs/games/poker/phh.h) behind `banca hands replay`: any
// text through ReadPhh, ParsePhh and ParsePhhExtras, the replay through the
// engine (libs/hand_history/hands.h), and a hand that parses written back out.
// Errors are expected; a crash or UB is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "libs/games/poker/phh.h"
#include "libs/hand_history/hands.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca::games::poker;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  PhhActionError failed;
  (void)ReadPhh(text, &failed);
  absl::StatusOr<PhhExtras> extras = ParsePhhExtras(text);
  absl::StatusOr<HandRecord> record = ParsePhh(text);
  if (record.ok()) {
    const PhhExtras none;
    (void)WritePhh(*record, extras.ok() ? *extras : none);
    (void)WriteText(*record, extras.ok() ? *extras : none);
  }
  (void)banca::hand_history::ReplayHandText(text);
  return 0;
}
