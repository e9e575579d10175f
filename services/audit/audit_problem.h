// One thing an audit or a report found wrong: the kind of check, the
// message the text report prints, and where it is when it is about one
// place: a record of the log (topic, partition, offset), a ledger account
// or an event stream. `banca audit verify --json` lists them
// (docs/operator-guide.md, "Auditing").
#ifndef BANCA_SERVICES_AUDIT_AUDIT_PROBLEM_H_
#define BANCA_SERVICES_AUDIT_AUDIT_PROBLEM_H_

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "nlohmann/json.hpp"

namespace banca::audit {

// At most this many problems are kept per list; then one of kind
// "truncated" says more were left out.
inline constexpr size_t kMaxAuditProblems = 50;

struct AuditProblem {
  // What kind of check found it: "journal", "wallet_record", "sequence",
  // "posting_rule", "ledger_replay", "quarantine", "currency", "ledger",
  // "projection", "balance", "reconciliation", "poker", "banked",
  // "tournament", "truncated" (docs/operator-guide.md).
  std::string kind;
  std::string message;
  // The record it is about (partition -1: none).
  std::string topic;
  int partition = -1;
  int64_t offset = -1;
  std::string account;  // the ledger account it is about ("" none)
  std::string stream;   // the event stream it is about ("" none)

  bool operator==(const AuditProblem&) const = default;
};

using Problems = std::vector<AuditProblem>;

// The message: a problem reads as what the text report prints.
std::ostream& operator<<(std::ostream& out, const AuditProblem& problem);

// A problem about one record of the log.
AuditProblem AtRecord(std::string kind, std::string_view topic, int partition,
                      int64_t offset, std::string message);
// A problem about one ledger account.
AuditProblem AtAccount(std::string kind, std::string account,
                       std::string message);

// Appends `problem` to `problems`, up to kMaxAuditProblems (then one
// problem of kind "truncated" saying more were left out).
void AddProblem(Problems& problems, AuditProblem problem);
// A problem about no one place; its kind is left for the audit that
// collects it to give (MergeProblems).
void AddProblem(Problems& problems, std::string message);

// Appends `from` to `into` (as AddProblem), giving `kind` to those that
// have none.
void MergeProblems(Problems& into, const Problems& from, std::string_view kind);

// The messages, one per line (no newline after the last).
std::string ProblemLines(const Problems& problems);

// {"kind","message","where":{...}}; `where` holds only what is known.
nlohmann::ordered_json ProblemJson(const AuditProblem& problem);
nlohmann::ordered_json ProblemsJson(const Problems& problems);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_AUDIT_PROBLEM_H_
