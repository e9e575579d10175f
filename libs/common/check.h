// BANCA_CHECK: an internal-invariant assertion that stays on in release
// builds. A broken invariant in a ledger means the state can no longer be
// trusted, so stopping is safer than continuing with corrupt state. Never use
// it for input validation: bad input is an absl::Status, not a crash.
#ifndef BANCA_LIBS_COMMON_CHECK_H_
#define BANCA_LIBS_COMMON_CHECK_H_

#include <cstdio>
#include <cstdlib>

#include "absl/base/optimization.h"

#define BANCA_CHECK(cond)                                               \
  do {                                                                  \
    if (ABSL_PREDICT_FALSE(!(cond))) {                                  \
      std::fprintf(stderr, "%s:%d: BANCA_CHECK failed: %s\n", __FILE__, \
                   __LINE__, #cond);                                    \
      std::abort();                                                     \
    }                                                                   \
  } while (0)

#endif  // BANCA_LIBS_COMMON_CHECK_H_
