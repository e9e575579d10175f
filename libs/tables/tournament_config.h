// A tournament's settings as the API gives them (v1::TournamentConfig),
// checked and completed, and the director's configuration they make.
#ifndef BANCA_LIBS_TABLES_TOURNAMENT_CONFIG_H_
#define BANCA_LIBS_TABLES_TOURNAMENT_CONFIG_H_

#include "absl/status/statusor.h"
#include "banca/v1/tournament.pb.h"
#include "libs/games/tournament/config.h"

namespace banca::tables {

inline constexpr int kDefaultTournamentActionSeconds = 30;

// Defaults filled in (9 seats a table, 10,000 chips, fee 10 %, the winner
// takes all, 2..10,000 players, one 20-minute level of 50/100, 30 s a
// decision), then the director's checks (games::tournament::CheckConfig):
// INVALID_ARGUMENT naming the field.
absl::StatusOr<v1::TournamentConfig> NormalizeTournamentConfig(
    const v1::TournamentConfig& config);

// `config` must be normalized.
games::tournament::TournamentConfig DirectorConfig(
    const v1::TournamentConfig& config);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_TOURNAMENT_CONFIG_H_
