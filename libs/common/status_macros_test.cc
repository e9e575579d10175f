#include "libs/common/status_macros.h"

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace banca {
namespace {

absl::StatusOr<int> Parse(bool ok) {
  if (!ok) return absl::NotFoundError("no such number");
  return 7;
}

absl::Status Doubled(bool ok, int* out) {
  ASSIGN_OR_RETURN(const int n, Parse(ok));
  *out = 2 * n;
  return absl::OkStatus();
}

absl::Status Checked(absl::Status s, int* reached) {
  RETURN_IF_ERROR(s);
  ++*reached;
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<int>> Boxed(bool ok) {
  if (!ok) return absl::UnavailableError("down");
  return std::make_unique<int>(3);
}

absl::StatusOr<int> Unboxed(bool ok) {
  ASSIGN_OR_RETURN(std::unique_ptr<int> box, Boxed(ok));  // move-only
  return *box;
}

TEST(StatusMacros, AssignOrReturnAssignsOrPassesTheErrorUp) {
  int out = 0;
  EXPECT_TRUE(Doubled(true, &out).ok());
  EXPECT_EQ(out, 14);
  out = 0;
  const absl::Status s = Doubled(false, &out);
  EXPECT_EQ(s, absl::NotFoundError("no such number"));
  EXPECT_EQ(out, 0);
  EXPECT_EQ(*Unboxed(true), 3);
  EXPECT_EQ(Unboxed(false).status(), absl::UnavailableError("down"));
}

TEST(StatusMacros, ReturnIfErrorStopsAtTheFirstError) {
  int reached = 0;
  EXPECT_TRUE(Checked(absl::OkStatus(), &reached).ok());
  EXPECT_EQ(reached, 1);
  EXPECT_EQ(Checked(absl::AbortedError("x"), &reached),
            absl::AbortedError("x"));
  EXPECT_EQ(reached, 1);
}

TEST(StatusMacros, PrefixedKeepsTheCodeAndLeadsTheMessage) {
  EXPECT_EQ(Prefixed(absl::DataLossError("bad crc"), "log/", 3, "@", 17, ": "),
            absl::DataLossError("log/3@17: bad crc"));
  EXPECT_TRUE(Prefixed(absl::OkStatus(), "ignored: ").ok());
  const absl::StatusOr<int> value = Prefixed(Parse(true), "n: ");
  EXPECT_EQ(*value, 7);
  EXPECT_EQ(Prefixed(Parse(false), "n: ").status(),
            absl::NotFoundError("n: no such number"));
}

TEST(StatusMacros, AsInvalidArgumentRecodesAndLeadsTheMessage) {
  EXPECT_EQ(AsInvalidArgument(absl::OutOfRangeError("too big"), "config: "),
            absl::InvalidArgumentError("config: too big"));
  EXPECT_EQ(AsInvalidArgument(absl::OutOfRangeError("too big")),
            absl::InvalidArgumentError("too big"));
  EXPECT_TRUE(AsInvalidArgument(absl::OkStatus(), "ignored: ").ok());
  EXPECT_EQ(*AsInvalidArgument(Parse(true), "n: "), 7);
  EXPECT_EQ(AsInvalidArgument(Parse(false), "n[", 2, "]: ").status(),
            absl::InvalidArgumentError("n[2]: no such number"));
}

}  // namespace
}  // namespace banca
