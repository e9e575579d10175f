// One mutating table command with its idempotency (DESIGN invariant 5),
// shared by the poker and the banked tables: the request id is claimed in
// the index, namespaced by the caller; a retry with the same id and body
// gets the first answer back (ALREADY_EXISTS with another body); after a
// restart the index only knows the id was used, so `run` is told it is a
// repeat and answers from the current state without appending.
#ifndef BANCA_SERVICES_COMMON_IDEMPOTENT_COMMAND_H_
#define BANCA_SERVICES_COMMON_IDEMPOTENT_COMMAND_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/message.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"
#include "libs/common/request_fingerprint.h"
#include "libs/ledger/idempotency.h"
#include "services/common/bearer_auth.h"

namespace banca::table {

// `caller` is the authenticated caller (or its error); `run(claims, key,
// fingerprint, repeat)` decides the command and fills `response`. A
// refused command releases its request id. With `keep_undecided`, a
// DEADLINE_EXCEEDED (the command is logged and its saga goes on without
// an answer yet) keeps the id as decided without a stored answer, so a
// retry answers from the current state instead of starting a second saga.
template <typename Response, typename Run>
grpc::Status RunIdempotentCommand(ledger::IdempotencyIndex& index,
                                  const absl::StatusOr<auth::Claims>& caller,
                                  std::string_view method,
                                  const std::string& request_id,
                                  const google::protobuf::Message& body,
                                  Response* response, Run run,
                                  bool keep_undecided = false) {
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  if (!ledger::IsValidRequestId(request_id)) {
    return edge::ToGrpcStatus(absl::InvalidArgumentError(
        "request_id must be 1-128 printable characters without spaces"));
  }
  const std::string key = absl::StrCat(caller->subject, ":", request_id);
  const std::string fingerprint =
      RequestFingerprint(method, body, caller->subject);
  absl::StatusOr<ledger::IdempotencyIndex::Claim> claim =
      index.Begin(key, fingerprint);
  if (!claim.ok()) return edge::ToGrpcStatus(claim.status());
  if (claim->outcome == ledger::IdempotencyIndex::Outcome::kRepeat &&
      !claim->result.empty()) {
    response->ParseFromString(claim->result);
    return grpc::Status::OK;
  }
  const bool repeat_after_restart =
      claim->outcome == ledger::IdempotencyIndex::Outcome::kRepeat;
  absl::Status s = run(*caller, key, fingerprint, repeat_after_restart);
  if (repeat_after_restart) return edge::ToGrpcStatus(s);
  if (!s.ok()) {
    if (keep_undecided && absl::IsDeadlineExceeded(s)) {
      index.Complete(key, "");
    } else {
      index.Abandon(key);
    }
    return edge::ToGrpcStatus(s);
  }
  index.Complete(key, response->SerializeAsString());
  return grpc::Status::OK;
}

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_IDEMPOTENT_COMMAND_H_
