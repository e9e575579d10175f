// The poker tables' record decoder (libs/wire/table_codec.h) and their
// replay: a sequence of records (fuzz_input.h), each decoded, the first
// TableCreated making a TableState and every later event applied to it, as
// TableService::Replay and `banca hands export` do. A refused event is fine
// (replay reports DATA_LOSS); a crash or UB is a finding. A sealed deck is
// opened first (libs/tables/sealed_decks.h), with the key the seeds'
// decks were sealed with (fuzz_deck_keys.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/tables/sealed_decks.h"
#include "libs/tables/table_state.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "tests/fuzz/fuzz_deck_keys.h"
#include "tests/fuzz/fuzz_records.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca;
  std::unique_ptr<tables::TableState> state;
  for (wire::DecodedTableEvent& decoded : fuzz::DecodedSequence(
           data, size, wire::kTableTopic, &wire::DecodeTableRecord)) {
    (void)tables::OpenDeal(fuzz::FuzzDeckKeys(), decoded.event);
    const v1::TableEvent& event = decoded.event;
    if (event.has_table_created()) {
      absl::StatusOr<std::unique_ptr<tables::TableState>> created =
          tables::TableState::Create(event.table_created());
      if (created.ok()) state = std::move(*created);
      continue;
    }
    if (state == nullptr) continue;
    std::vector<v1::TableEvent> derived;
    (void)state->Apply(event, &derived);
  }
  return 0;
}
