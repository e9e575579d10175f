// Póquer sem descarte between the banked-table API (banked_table.proto)
// and the engine (libs/games/stud_no_draw): settings and views.
#ifndef BANCA_LIBS_TABLES_STUD_WIRE_H_
#define BANCA_LIBS_TABLES_STUD_WIRE_H_

#include "absl/status/statusor.h"
#include "banca/v1/banked_table.pb.h"
#include "libs/games/stud_no_draw/config.h"
#include "libs/games/stud_no_draw/round.h"

namespace banca::tables {

// The settings with every default filled in and checked by the engine
// (SD-6a, SD-16..18, SD-21, SD-31). INVALID_ARGUMENT naming the field.
absl::StatusOr<v1::StudTableConfig> NormalizeStudConfig(
    const v1::StudTableConfig& config);
// `config` must be normalized.
games::stud_no_draw::TableConfig StudEngineConfig(
    const v1::StudTableConfig& config);

// One seat as the engine lets the viewer see it (others' cards only once
// turned, SD-27).
v1::StudSeatView StudSeatToProto(const games::stud_no_draw::SeatView& seat);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_STUD_WIRE_H_
