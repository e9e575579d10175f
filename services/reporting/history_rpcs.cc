// ReportingService's histories (docs/reporting.md, "Histories" and
// "Sessions"): ListHistories, GetHistory and ListSessions, from the
// history projection (libs/projection/history_projection.h), cut for the
// caller (libs/projection/history_view.h).
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/projection/history_projection.h"
#include "libs/projection/history_view.h"
#include "services/common/bearer_auth.h"
#include "services/reporting/reporting_service.h"

namespace banca::reporting {
namespace {

using auth::Role;
using projection::HistoryAudience;

// Index rows read for one page at most: a filter (game, range) that
// matches little ends the page early, with a token to go on.
constexpr size_t kMaxScannedRows = 10'000;
constexpr size_t kScanChunk = 256;

bool IsStaff(Role role) {
  return role == Role::kAuditor || role == Role::kOperator;
}

// Finance, auditors and operators read anyone's; a player their own.
absl::Status MayReadPlayer(const auth::Claims& caller,
                           const std::string& player) {
  if (IsStaff(caller.role) || caller.role == Role::kFinance) {
    return absl::OkStatus();
  }
  if (caller.role == Role::kPlayer && caller.name() == player) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(absl::StrCat(
      caller.subject, " may not read the games of player ", player));
}

HistoryAudience AudienceOf(Role role) {
  if (IsStaff(role)) return HistoryAudience::kStaff;
  return role == Role::kFinance ? HistoryAudience::kFinance
                                : HistoryAudience::kPlayer;
}

absl::Status CheckRange(int64_t from, int64_t to) {
  if (from < 0 || to < 0) {
    return absl::InvalidArgumentError("from_micros and to_micros are >= 0");
  }
  if (to != 0 && from > to) {
    return absl::InvalidArgumentError(
        "the range is reversed: from_micros is after to_micros");
  }
  return absl::OkStatus();
}

absl::Status CheckPage(int32_t page_size, const std::string& game) {
  if (page_size < 0 || page_size > ReportingService::kMaxGames) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size must be 0..", ReportingService::kMaxGames));
  }
  if (!game.empty() && !ledger::IsValidId(game)) {
    return absl::InvalidArgumentError(
        "game must be empty or a game's name (\"poker\", \"blackjack\", ...)");
  }
  return absl::OkStatus();
}

// The index a history listing reads: a player's, a table's or all by time.
struct Listing {
  std::string prefix;
  std::string query;  // what its page tokens are bound to
};

absl::StatusOr<Listing> ListingOf(const v1::HistoriesRequest& r,
                                  const auth::Claims& caller) {
  const int named = !r.player_id().empty() + !r.table_id().empty() +
                    !r.tournament_id().empty();
  if (named > 1) {
    return absl::InvalidArgumentError(
        "name one of player_id, table_id, tournament_id (or none: every "
        "game by time)");
  }
  RETURN_IF_ERROR(CheckRange(r.from_micros(), r.to_micros()));
  RETURN_IF_ERROR(CheckPage(r.page_size(), r.game()));
  for (const std::string* id :
       {&r.player_id(), &r.table_id(), &r.tournament_id()}) {
    if (!id->empty() && !ledger::IsValidId(*id)) {
      return absl::InvalidArgumentError(
          "player_id, table_id and tournament_id are ids (1-64 of "
          "[a-z0-9._-])");
    }
  }
  // Who may read: a player their own games only; the rest of the index is
  // for finance, auditors and operators.
  if (!r.player_id().empty()) {
    RETURN_IF_ERROR(MayReadPlayer(caller, r.player_id()));
  } else if (!IsStaff(caller.role) && caller.role != Role::kFinance) {
    return absl::PermissionDeniedError(
        absl::StrCat(caller.subject,
                     " may read their own games only (name their player_id)"));
  }
  Listing l;
  l.prefix = !r.player_id().empty()
                 ? projection::HistoryPlayerPrefix(r.player_id(), r.game())
             : !r.table_id().empty()
                 ? projection::HistoryTablePrefix(r.table_id())
             : !r.tournament_id().empty()
                 ? projection::HistoryTournamentPrefix(r.tournament_id())
                 : projection::HistoryTimePrefix();
  l.query = absl::StrCat("histories|", r.player_id(), "|", r.table_id(), "|",
                         r.tournament_id(), "|", r.game(), "|", r.from_micros(),
                         "|", r.to_micros());
  return l;
}

}  // namespace

// Reads a newest-first index from `start`: rows whose start is in
// [from, to) (to 0: no end) and, when `game` is named, of that game.
// `keep` parses and keeps a row (false: filtered out).
absl::Status ReportingService::ScanNewestFirst(
    const std::string& prefix, const std::string& query, std::string start,
    int64_t from, size_t size,
    const std::function<absl::StatusOr<bool>(const std::string&)>& keep,
    std::string& next_token) {
  size_t kept = 0, scanned = 0;
  while (true) {
    ASSIGN_OR_RETURN(auto rows, store_->Scan(prefix, start, kScanChunk));
    for (const auto& [key, value] : rows) {
      if (projection::IndexMicros(prefix, key) < from) {
        return absl::OkStatus();  // older than the range: done
      }
      if (kept == size || scanned == kMaxScannedRows) {
        next_token = tokens_.Make(query, key);
        return absl::OkStatus();
      }
      ++scanned;
      ASSIGN_OR_RETURN(const bool kept_row, keep(value));
      if (kept_row) ++kept;
    }
    if (rows.size() < kScanChunk) return absl::OkStatus();
    start = rows.back().first + '\0';  // the key right after the last
  }
}

grpc::Status ReportingService::ListHistories(
    grpc::ServerContext* context, const v1::HistoriesRequest* request,
    v1::HistoriesPage* response) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  const v1::HistoriesRequest& r = *request;
  absl::StatusOr<Listing> listing = ListingOf(r, *caller);
  if (!listing.ok()) return edge::ToGrpcStatus(listing.status());
  std::string start =
      r.to_micros() == 0
          ? listing->prefix
          : projection::NewestFirstStart(listing->prefix, r.to_micros() - 1);
  if (!r.page_token().empty()) {
    absl::StatusOr<std::string> opened =
        tokens_.Open(listing->query, r.page_token());
    if (!opened.ok()) return edge::ToGrpcStatus(opened.status());
    start = *std::move(opened);
  }
  if (absl::Status caught_up = CatchUpWithTheLog(); !caught_up.ok()) {
    return edge::ToGrpcStatus(caught_up);
  }
  absl::Status known = absl::OkStatus();
  if (!r.player_id().empty()) known = CheckPlayerKnown(r.player_id());
  if (!r.table_id().empty() || !r.tournament_id().empty()) {
    const bool table = !r.table_id().empty();
    absl::StatusOr<std::optional<std::string>> found = store_->Get(
        table ? projection::HistoryTableKey(r.table_id())
              : projection::HistoryTournamentKey(r.tournament_id()));
    if (!found.ok()) {
      known = found.status();
    } else if (!found->has_value()) {
      known = absl::NotFoundError(
          table ? absl::StrCat("no table ", r.table_id())
                : absl::StrCat("no tournament ", r.tournament_id()));
    }
  }
  if (!known.ok()) return edge::ToGrpcStatus(known);
  v1::HistoriesPage page;
  page.set_currency(options_.currency);
  const size_t size = r.page_size() == 0 ? kDefaultGames : r.page_size();
  std::string next;
  absl::Status s = ScanNewestFirst(
      listing->prefix, listing->query, start, r.from_micros(), size,
      [&](const std::string& value) -> absl::StatusOr<bool> {
        v1::HistorySummary summary;
        if (!summary.ParseFromString(value)) {
          return absl::DataLossError("a history row does not parse");
        }
        if (!r.game().empty() && summary.game() != r.game()) return false;
        *page.add_histories() = std::move(summary);
        return true;
      },
      next);
  if (!s.ok()) return edge::ToGrpcStatus(s);
  page.set_next_page_token(next);
  *response = std::move(page);
  return grpc::Status::OK;
}

grpc::Status ReportingService::GetHistory(grpc::ServerContext* context,
                                          const v1::HistoryRequest* request,
                                          v1::GameHistory* response) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  const v1::Reference& ref = request->reference();
  if (caller->role != Role::kPlayer && caller->role != Role::kFinance &&
      !IsStaff(caller->role)) {
    return edge::ToGrpcStatus(absl::PermissionDeniedError(
        absl::StrCat(caller->subject, " may not read histories")));
  }
  if ((ref.kind() != v1::REFERENCE_KIND_HAND &&
       ref.kind() != v1::REFERENCE_KIND_ROUND &&
       ref.kind() != v1::REFERENCE_KIND_TOURNAMENT) ||
      !ledger::IsValidId(ref.id())) {
    return edge::ToGrpcStatus(absl::InvalidArgumentError(
        "reference: a HAND \"<table>.h<n>\" (a tournament's: "
        "\"<tournament>.<table>.h<n>\"), a ROUND \"<table>.r<n>\" or a "
        "TOURNAMENT \"<id>\" (1-64 of [a-z0-9._-])"));
  }
  if (absl::Status caught_up = CatchUpWithTheLog(); !caught_up.ok()) {
    return edge::ToGrpcStatus(caught_up);
  }
  absl::StatusOr<std::optional<std::string>> stored =
      store_->Get(projection::HistoryKey(ref));
  if (!stored.ok()) return edge::ToGrpcStatus(stored.status());
  if (!stored->has_value()) {
    return edge::ToGrpcStatus(absl::NotFoundError(absl::StrCat(
        "no finished game ", ref.id(), " (a game in play has no history)")));
  }
  v1::GameHistory history;
  if (!history.ParseFromString(**stored)) {
    return edge::ToGrpcStatus(absl::DataLossError(
        absl::StrCat("history ", ref.id(), " does not parse")));
  }
  if (caller->role == Role::kPlayer) {
    const auto& players = history.summary().players();
    if (std::find(players.begin(), players.end(), caller->name()) ==
        players.end()) {
      return edge::ToGrpcStatus(absl::PermissionDeniedError(
          absl::StrCat(caller->subject, " did not play ", ref.id(),
                       ": a player reads their own games only")));
    }
  }
  projection::CutHistory(history, AudienceOf(caller->role), caller->name());
  // A tournament's hands are played for chips: no currency.
  const bool chips = ref.kind() == v1::REFERENCE_KIND_HAND &&
                     !history.summary().tournament_id().empty();
  history.set_currency(chips ? "" : options_.currency);
  *response = std::move(history);
  return grpc::Status::OK;
}

grpc::Status ReportingService::ListSessions(grpc::ServerContext* context,
                                            const v1::SessionsRequest* request,
                                            v1::SessionsPage* response) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  const v1::SessionsRequest& r = *request;
  absl::Status s = ledger::IsValidId(r.player_id())
                       ? absl::OkStatus()
                       : absl::InvalidArgumentError(
                             "player_id must be a valid id (1-64 of "
                             "[a-z0-9._-])");
  if (s.ok()) s = MayReadPlayer(*caller, r.player_id());
  if (s.ok()) s = CheckRange(r.from_micros(), r.to_micros());
  if (s.ok()) s = CheckPage(r.page_size(), r.game());
  if (!s.ok()) return edge::ToGrpcStatus(s);
  const std::string prefix = projection::SessionPrefix(r.player_id(), r.game());
  const std::string query =
      absl::StrCat("sessions|", r.player_id(), "|", r.game(), "|",
                   r.from_micros(), "|", r.to_micros());
  std::string start = r.to_micros() == 0 ? prefix
                                         : projection::NewestFirstStart(
                                               prefix, r.to_micros() - 1);
  if (!r.page_token().empty()) {
    absl::StatusOr<std::string> opened = tokens_.Open(query, r.page_token());
    if (!opened.ok()) return edge::ToGrpcStatus(opened.status());
    start = *std::move(opened);
  }
  if (absl::Status caught_up = CatchUpWithTheLog(); !caught_up.ok()) {
    return edge::ToGrpcStatus(caught_up);
  }
  if (s = CheckPlayerKnown(r.player_id()); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  v1::SessionsPage page;
  page.set_currency(options_.currency);
  const size_t size = r.page_size() == 0 ? kDefaultGames : r.page_size();
  std::string next;
  s = ScanNewestFirst(
      prefix, query, start, r.from_micros(), size,
      [&](const std::string& value) -> absl::StatusOr<bool> {
        if (!page.add_sessions()->ParseFromString(value)) {
          return absl::DataLossError("a session row does not parse");
        }
        return true;
      },
      next);
  if (!s.ok()) return edge::ToGrpcStatus(s);
  page.set_next_page_token(next);
  *response = std::move(page);
  return grpc::Status::OK;
}

}  // namespace banca::reporting
