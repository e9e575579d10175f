// Shared by the tournament tests: bad input is INVALID_ARGUMENT naming the
// field, asserted at the caller's line.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_TEST_UTIL_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_TEST_UTIL_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace banca::games::tournament {

// EXPECT_TRUE(IsInvalid(status, "fee_bps")).
inline ::testing::AssertionResult IsInvalid(const absl::Status& status,
                                            std::string_view field) {
  if (status.code() != absl::StatusCode::kInvalidArgument) {
    return ::testing::AssertionFailure()
           << "expected INVALID_ARGUMENT, got " << status;
  }
  if (std::string(status.message()).find(field) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "the message does not name " << field << ": " << status;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace banca::games::tournament

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_TEST_UTIL_H_
