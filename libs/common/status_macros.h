// The propagation pair: one line to pass an error up, as Abseil's own code
// does internally.
//
//   RETURN_IF_ERROR(log.Append(records));
//   ASSIGN_OR_RETURN(Claims claims, verifier.Verify(token, now));
//
// An error that gains context on the way up goes through Prefixed (code
// kept) or AsInvalidArgument (the caller's input was at fault) first:
//
//   RETURN_IF_ERROR(Prefixed(ledger.Apply(tx), topic, "@", offset, ": "));
//   ASSIGN_OR_RETURN(Kind kind, AsInvalidArgument(ParseKind(text), "kind: "));
#ifndef BANCA_LIBS_COMMON_STATUS_MACROS_H_
#define BANCA_LIBS_COMMON_STATUS_MACROS_H_

#include <utility>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace banca {

// `status` with absl::StrCat(where...) before its message, its code kept.
// An OK status stays OK and builds no string.
template <typename... Where>
absl::Status Prefixed(absl::Status status, const Where&... where) {
  if (ABSL_PREDICT_TRUE(status.ok())) return status;
  return absl::Status(status.code(), absl::StrCat(where..., status.message()));
}

template <typename T, typename... Where>
absl::StatusOr<T> Prefixed(absl::StatusOr<T> value, const Where&... where) {
  if (ABSL_PREDICT_TRUE(value.ok())) return value;
  return Prefixed(value.status(), where...);
}

// `status` as INVALID_ARGUMENT with absl::StrCat(where...) before its
// message. An OK status stays OK and builds no string.
template <typename... Where>
absl::Status AsInvalidArgument(absl::Status status, const Where&... where) {
  if (ABSL_PREDICT_TRUE(status.ok())) return status;
  return absl::InvalidArgumentError(absl::StrCat(where..., status.message()));
}

template <typename T, typename... Where>
absl::StatusOr<T> AsInvalidArgument(absl::StatusOr<T> value,
                                    const Where&... where) {
  if (ABSL_PREDICT_TRUE(value.ok())) return value;
  return AsInvalidArgument(value.status(), where...);
}

}  // namespace banca

#define RETURN_IF_ERROR(expr)                                          \
  do {                                                                 \
    ::absl::Status banca_status_ = (expr);                             \
    if (ABSL_PREDICT_FALSE(!banca_status_.ok())) return banca_status_; \
  } while (0)

#define BANCA_STATUS_CONCAT_INNER_(a, b) a##b
#define BANCA_STATUS_CONCAT_(a, b) BANCA_STATUS_CONCAT_INNER_(a, b)

#define ASSIGN_OR_RETURN(lhs, expr) \
  BANCA_ASSIGN_OR_RETURN_IMPL_(     \
      BANCA_STATUS_CONCAT_(banca_statusor_, __LINE__), lhs, expr)

#define BANCA_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr)           \
  auto statusor = (expr);                                           \
  if (ABSL_PREDICT_FALSE(!statusor.ok())) return statusor.status(); \
  lhs = std::move(statusor).value()

#endif  // BANCA_LIBS_COMMON_STATUS_MACROS_H_
