// The banked tables' record decoder (libs/wire/banked_codec.h) and
// their replay: a sequence of records (fuzz_input.h), each decoded, the
// first BankedTableCreated making the game's state (roulette, blackjack,
// stud) and every later input event applied to it, as
// BankedTableService::Replay and the banked audit do. A refused event is
// fine (replay reports DATA_LOSS); a crash or UB is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/tables/banked_game_state.h"
#include "libs/tables/sealed_decks.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/topics.h"
#include "tests/fuzz/fuzz_deck_keys.h"
#include "tests/fuzz/fuzz_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca;
  std::unique_ptr<tables::BankedGameState> state;
  for (wire::DecodedBankedEvent& decoded : fuzz::DecodedSequence(
           data, size, wire::kBankedTopic, &wire::DecodeBankedRecord)) {
    (void)tables::OpenDeal(fuzz::FuzzDeckKeys(), decoded.event);
    const v1::BankedTableEvent& event = decoded.event;
    if (event.has_created()) {
      absl::StatusOr<std::unique_ptr<tables::BankedGameState>> created =
          tables::BankedGameState::Create(event.created(), event.at_micros());
      if (created.ok()) state = std::move(*created);
      continue;
    }
    if (state == nullptr || event.has_money() || event.has_revealed()) continue;
    std::vector<v1::BankedTableEvent> derived;
    (void)state->Apply(event, &derived);
  }
  return 0;
}
