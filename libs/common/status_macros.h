// The propagation pair: one line to pass an error up, as Abseil's own code
// does internally.
//
//   RETURN_IF_ERROR(log.Append(records));
//   ASSIGN_OR_RETURN(Claims claims, verifier.Verify(token, now));
#ifndef BANCA_LIBS_COMMON_STATUS_MACROS_H_
#define BANCA_LIBS_COMMON_STATUS_MACROS_H_

#include <utility>

#include "absl/base/optimization.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

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
