// banca audit verify: what an auditor runs against a data directory, while
// the server runs (a live audit), with it stopped, or on a read-only
// snapshot of it: the audit changes nothing in the directory and takes no
// lock. It reads the live projections first (as of their last flush:
// projection_snapshot.h), then a fixed range of the log (audited_log.h:
// on the embedded log the prefix of complete batches the journal held,
// a consistent cut of every topic; on Kafka the ends a read_committed
// reader saw first), and everything it checks is checked for that range:
// a request whose answer lies past it is pending, not a problem. It
// trusts nothing derived: it checks every
// record's CRC, every stream's sequence, replays the ledger from offset 0
// in the wallet's currency, rebuilds every projection in a scratch
// directory outside the data directory and compares it with the live one,
// reconciles the money, and checks that the poker tables' buy-ins,
// settlements and cash-outs and the banked tables' stakes and settlements
// were carried out by the wallet exactly once, and that every tournament's
// money was, adds up and follows from its recorded hands
// (tournament_audit.h). A request the wallet quarantined
// (services/wallet/request_quarantine.h) fails the audit.
#ifndef BANCA_SERVICES_AUDIT_AUDIT_H_
#define BANCA_SERVICES_AUDIT_AUDIT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/ledger/ledger.h"
#include "services/audit/audit_problem.h"
#include "services/audit/audit_progress.h"
#include "services/audit/banked_audit.h"
#include "services/audit/table_audit.h"
#include "services/audit/tournament_audit.h"

namespace banca::audit {

// The topics the audit reads, each from offset 0 to `end`: the end of the
// range it audited (audited_log.h), which a running server has moved past
// by the time the audit reports.
struct AuditedPartition {
  std::string topic;
  int partition = 0;
  int64_t end = 0;
};

struct AuditOptions {
  // As for `banca serve --log` ("embedded" or kafka://...).
  std::string log_spec = "embedded";
  // See VerifyDataDir.
  std::string deck_key_file;
  // Receives a progress line (audit_progress.h) about every 2 s of a long
  // audit; null: none.
  AuditProgress::Sink progress;
};

struct AuditReport {
  // The version of banca that audited (the project's version).
  std::string tool_version;
  std::vector<AuditedPartition> range;
  eventlog::JournalScanReport journal;
  // On Kafka the broker and its consumers check record CRCs, not banca.
  bool journal_checked_by_kafka = false;
  int64_t events = 0;
  int64_t streams = 0;
  ledger::LedgerSummary ledger;
  // The wallet's currency, as its log names it (wallet_currency.h); the
  // ledger's default when the log names none.
  std::string currency;
  std::string live_hash;
  std::string rebuilt_hash;
  // The reporting service's projections (libs/projection/
  // reporting_rebuild.h), when the data directory has them: their hash and
  // a rebuild's from offset 0 at the same offsets.
  std::string reporting_live_hash;
  std::string reporting_rebuilt_hash;
  // The wallet's newest snapshot (libs/snapshot/wallet_snapshot.h) that
  // matches the audited range, when DATA_DIR/snapshots/wallet has one:
  // loaded, its tail replayed to the range's end, and its state hash
  // against the full replay's (a difference is a problem). Snapshots
  // refused (damaged, or past the range: a running wallet's newest) are
  // listed, and are no problem: a snapshot is a cache of the log.
  struct SnapshotCheck {
    std::string path;
    int64_t events = 0;
    int64_t tail_events = 0;
    std::string hash;
    std::string full_replay_hash;
    std::vector<std::string> refused;
  };
  SnapshotCheck snapshot;
  int64_t live_lag_events = 0;
  int64_t projection_accounts_checked = 0;
  // deposits − withdrawals, and what players, tables and the house hold.
  int64_t net_deposits = 0;
  int64_t held_inside = 0;
  // banca.banked.events against the wallet (banked_audit.h); its
  // problems are in `problems` too.
  BankedAuditReport banked;
  // banca.table.events against the wallet (table_audit.h); its problems
  // are in `problems` too.
  TableAuditReport poker;
  // banca.tournament.events against the wallet (tournament_audit.h); its
  // problems are in `problems` too.
  TournamentAuditReport tournament;
  // The deck key file the tournaments' hands were opened with ("" none).
  std::string deck_key_file;
  // Every RequestQuarantined on the wallet topic, one line each
  // ("<topic>/<partition>@<offset> step <id>: <code>"); each is a problem.
  std::vector<std::string> quarantined;
  // Operators' adjustments (POSTING_REASON_ADJUSTMENT), by the actor the
  // wallet recorded ("operator:bob"; "" in logs older than the field):
  // how many, and the money they moved (the sum of their credits).
  struct Adjustments {
    int64_t count = 0;
    int64_t moved_minor = 0;
  };
  std::map<std::string, Adjustments> adjustments;
  Problems problems;
  bool ok() const { return problems.empty(); }
};

// `log_spec` as for `banca serve --log` ("embedded" or kafka://...).
// `deck_key_file` (libs/seal/deck_keys.h) opens the tournaments' sealed
// decks for their replay; "" means DATA_DIR/deck.key when there is one,
// else no key (the tournaments' hands are then not replayed: a note says
// so). A key file that cannot be read or parsed is an error.
absl::StatusOr<AuditReport> VerifyDataDir(const std::string& data_dir,
                                          const AuditOptions& options);
absl::StatusOr<AuditReport> VerifyDataDir(
    const std::string& data_dir, const std::string& log_spec = "embedded",
    const std::string& deck_key_file = "");

std::string FormatAuditReport(const AuditReport& report);
// One JSON object (docs/operator-guide.md, "Auditing"): the verdict, the
// tool's version, the currency, the audited range, the counts and every
// problem with its kind and where it is.
std::string AuditReportJson(const AuditReport& report);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_AUDIT_H_
