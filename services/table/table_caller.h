// Who a caller is at a table (internal to the table services, poker and
// banked): whose private state it may see, and whether it may act on a
// seat (DESIGN invariant 7; docs/security.md "Tables and hidden cards").
//
// A table shows a seat's private state (hole cards, legal actions, bets,
// session totals, notices) only to a player token of that seat's player.
// Every other role (operator, finance, auditor, service, gateway) gets the
// spectator's view, whatever name its token carries: the view is computed
// for kSpectator, a name no player has, not for the caller's subject.
#ifndef BANCA_SERVICES_TABLE_TABLE_CALLER_H_
#define BANCA_SERVICES_TABLE_TABLE_CALLER_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/auth/token.h"
#include "libs/common/string_view.h"

namespace banca::table {

// The viewer of a spectator's view: empty, which no player id is (they
// are 1..64 characters), so it has no seat, no cards and no session.
inline constexpr std::string_view kSpectator = "";

// The player whose view `caller` gets: its name for a player token, and
// kSpectator for every other role.
inline std::string ViewerOf(const auth::Claims& caller) {
  return caller.role == auth::Role::kPlayer ? caller.player_id()
                                            : std::string(kSpectator);
}

// PERMISSION_DENIED unless `caller` is a player: the calls that act on the
// caller's own seat or read its own hands and session (`what`, e.g.
// "leaves a table").
inline absl::Status RequirePlayer(const auth::Claims& caller,
                                  std::string_view what) {
  if (caller.role == auth::Role::kPlayer) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(
      "only a player ", ToAbsl(what), ", for itself (the caller's role is ",
      ToAbsl(auth::RoleName(caller.role)),
      ", which sees tables as a spectator: WatchTable, GetTableView)"));
}

}  // namespace banca::table

#endif  // BANCA_SERVICES_TABLE_TABLE_CALLER_H_
