#include "services/wallet/request_quarantine.h"

#include "absl/strings/str_cat.h"
#include "banca/v1/wallet.pb.h"
#include "libs/common/log_line.h"
#include "libs/common/request_fingerprint.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/wire/ownership.h"

namespace banca::wallet {
namespace {

constexpr char kQuarantineMethod[] = "RequestQuarantined";
constexpr char kReleaseMethod[] = "QuarantineReleaseHold";
// What a log line quotes of a message.
constexpr size_t kMaxLoggedBytes = 256;

// What a log line quotes of a text from a record or a failure: at most
// kMaxLoggedBytes, printable ASCII, any other byte (control, non-ASCII)
// shown as '?'.
std::string Quoted(std::string_view text) {
  std::string out(text.substr(0, kMaxLoggedBytes));
  for (char& c : out) {
    if (c < ' ' || c > '~') c = '?';
  }
  return out;
}

// Where the request is: what identifies its quarantine (and, being the
// fingerprinted body, makes a second one for the same record a repeat
// whatever the failure is the second time).
v1::RequestQuarantined WhereFrom(const eventlog::StoredRecord& record) {
  v1::RequestQuarantined where;
  where.set_topic(record.topic);
  where.set_partition(record.partition);
  where.set_offset(record.offset);
  return where;
}

std::string QuarantineIdOf(const eventlog::StoredRecord& record) {
  return wire::QuarantineRequestId(record.topic, record.partition,
                                   record.offset);
}

}  // namespace

bool IsPermanentRequestFailure(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnauthenticated:
    case absl::StatusCode::kUnimplemented:
      return true;
    default:
      return false;
  }
}

absl::Status CheckDebitsBelongTo(const v1::LedgerTransaction& tx,
                                 std::string_view requester) {
  const std::string_view key = wire::OwnershipKey(requester);
  for (const v1::Posting& p : tx.postings()) {
    if (p.amount_minor() >= 0) continue;
    ASSIGN_OR_RETURN(const ledger::AccountInfo info,
                     ledger::ParseAccount(p.account()));
    if (info.hot || wire::OwnershipKey(info.owner) == key) continue;
    return absl::InvalidArgumentError(
        absl::StrCat("a request of ", ToAbsl(key), " may not debit ",
                     p.account().substr(0, ledger::kMaxAccountNameBytes)));
  }
  return absl::OkStatus();
}

RequestQuarantine::RequestQuarantine(
    ledger::Ledger& ledger, const ledger::IdempotencyIndex& idempotency,
    WalletCommands& commands, WalletMetrics* metrics)
    : ledger_(ledger),
      idempotency_(idempotency),
      commands_(commands),
      metrics_(metrics) {}

bool RequestQuarantine::Quarantined(
    const eventlog::StoredRecord& record) const {
  const v1::RequestQuarantined where = WhereFrom(record);
  return idempotency_
      .Find(QuarantineIdOf(record),
            RequestFingerprint(kQuarantineMethod, where))
      .has_value();
}

absl::Status RequestQuarantine::QuarantineOrRetry(
    const eventlog::StoredRecord& record, std::string_view owner,
    std::string_view step, const absl::Status& why) {
  if (why.ok() || !IsPermanentRequestFailure(why)) return why;
  const v1::RequestQuarantined where = WhereFrom(record);
  v1::RequestQuarantined quarantined = where;
  quarantined.set_step(std::string(step));
  quarantined.set_code(absl::StatusCodeToString(why.code()));
  quarantined.set_message(std::string(why.message()));
  const absl::Status recorded =
      commands_
          .ExecuteQueued(
              kQuarantineMethod, QuarantineIdOf(record), where,
              [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                return ledger_.RecordQuarantine(meta, owner, quarantined,
                                                commit);
              })
          .status();
  if (!IsPermanentRequestFailure(recorded) && !recorded.ok()) return recorded;
  // Recorded; or, should its id be taken, not recorded but moved past all
  // the same (the audit then reports the request as never carried out).
  if (metrics_) metrics_->CountQuarantined(record.topic);
  const std::string not_recorded =
      recorded.ok() ? "" : Quoted(recorded.ToString());
  Log(LogLevel::kError, "wallet", "request quarantined",
      {{"topic", Quoted(record.topic)},
       {"partition", record.partition},
       {"offset", record.offset},
       {"step", Quoted(step)},
       {"stream", Quoted(ledger::Ledger::StreamFor(owner))},
       {"code", Quoted(quarantined.code())},
       {"message", Quoted(quarantined.message())},
       {"recorded", recorded.ok()},
       {"not_recorded_because", not_recorded}});
  return absl::OkStatus();
}

absl::Status RequestQuarantine::ReleaseStrandedHold(
    const eventlog::StoredRecord& record, std::string_view hold_id) {
  v1::ReleaseHoldRequest body;
  body.set_hold_id(std::string(hold_id));
  const absl::Status released =
      commands_
          .ExecuteQueued(
              kReleaseMethod, absl::StrCat(QuarantineIdOf(record), "/release"),
              body,
              [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
                return ledger_.ReleaseHold(meta, hold_id,
                                           /*expired=*/false, commit);
              })
          .status();
  // A hold closed meanwhile (expired, captured in full) needs nothing.
  if (released.ok() || IsPermanentRequestFailure(released)) {
    return absl::OkStatus();
  }
  return released;
}

absl::Status RequestQuarantine::QuarantineUndecodable(
    const eventlog::StoredRecord& record, bool decided_here,
    const absl::Status& why) {
  if (!decided_here || Quarantined(record)) return absl::OkStatus();
  return QuarantineOrRetry(record, wire::kUnnamedRequester, "decode", why);
}

}  // namespace banca::wallet
