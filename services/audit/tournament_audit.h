// `banca audit verify`'s check of banca.tournament.events against the
// wallet, like the tables' (banked_audit.h, table_audit.h):
//
//  - every tournament record decodes, its event id names its stream and
//    sequence, its stream is its tournament's, and each stream follows its
//    sequence;
//  - every money request (PaymentRequested, TournamentMoney) has exactly
//    one copy, with its content, on banca.tournament.requests, and every
//    copy is of a logged request (request_audit.h RequestCopies);
//  - every request the wallet has read (wallet.tournament-requests) was
//    carried out exactly once in banca.wallet.events, under the ids the
//    wallet uses (services/wallet/tournament_requests.cc): a payment under
//    its saga id, posted as asked or refused (RequestRejected); money
//    transaction i under "tournament/<id>/money/<number>/<i>", posted as
//    asked. Missing, doubled and unrequested outcomes are problems, and so
//    is a posting to a tournament's accounts (tournament/*,
//    house/tournament_fees, house/overlay) under a request that is no
//    tournament's; requests not read yet are pending;
//  - every payment the tournament captured was posted by the wallet, and
//    none it refused (but after its timeout) was;
//  - each tournament's money, as posted, sorts into its flows
//    (tournament_flows.h: paid in = fees + pool + bounties; pool out =
//    prizes + tickets + refunds + overlay given back), and once it is
//    finished or cancelled, with nothing on its way, its prize pool and
//    bounties hold 0;
//  - each tournament is replayed through tables::TournamentState, as the
//    service replays it on start: every input must apply, and every money
//    event must be what the inputs before it decided, so each elimination,
//    place, prize, bounty, overlay and refund follows from the recorded
//    hands. The prizes the wallet posted must then be the places' prizes
//    (per player), and the overlay it posted the director's.
//
// A tournament's hands are logged with their decks sealed, and the end of
// each hand reveals its deck (TournamentHandEnded). The replay opens the
// decks with the deck keys (libs/seal/deck_keys.h) when one opens them,
// else takes each from its reveal (a first reading of the topic,
// libs/tables/tournament_reveals.h); a tournament with a hand in play at
// the end of the log is replayed up to that hand, and a note says so.
#ifndef BANCA_SERVICES_AUDIT_TOURNAMENT_AUDIT_H_
#define BANCA_SERVICES_AUDIT_TOURNAMENT_AUDIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"
#include "libs/seal/deck_keys.h"
#include "services/audit/request_counts.h"
#include "services/audit/tournament_flows.h"

namespace banca::audit {

// The tournaments a report describes one by one (the rest are counted).
inline constexpr size_t kMaxTournamentSummaries = 20;

struct TournamentSummary {
  std::string tournament;
  // The director's phase after the replay ("registering", "running",
  // "finished", "cancelled"); without a replay, "cancelled" when a
  // cancellation is logged, else "not replayed".
  std::string phase;
  bool replayed = false;
  // Money on its way: a request the wallet has not read, or an outcome
  // the tournament has not read yet. Its balances are not judged.
  bool open = false;
  TournamentFlows flows;
};

// `tables` counts the tournaments created; carried_out counts a payment
// the wallet refused too (and payments_refused).
struct TournamentAuditReport : RequestCounts {
  int64_t payments = 0;
  int64_t payments_refused = 0;
  int64_t money_events = 0;
  int64_t money_transactions = 0;
  int64_t hands = 0;
  // Tournaments replayed to the end of the log; finished and cancelled
  // ones (by the replay, or a logged cancellation).
  int64_t replayed = 0;
  int64_t finished = 0;
  int64_t cancelled = 0;
  // Why tournaments were not replayed (no deck key opens their decks).
  std::vector<std::string> notes;
  // The first kMaxTournamentSummaries tournaments, by id.
  std::vector<TournamentSummary> summaries;
};

// Reads the tournament topics and the wallet's from offset 0; `deck_keys`
// (may be null) opens the hands' sealed decks for the replay. An error
// only when the log cannot be read; what is wrong in it goes to
// `problems`.
absl::StatusOr<TournamentAuditReport> AuditTournamentTopic(
    eventlog::EventLog& log, const seal::DeckKeys* deck_keys);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_TOURNAMENT_AUDIT_H_
