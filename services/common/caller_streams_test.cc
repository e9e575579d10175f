#include "services/common/caller_streams.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace banca::table {
namespace {

TEST(CallerStreams, RefusesTheStreamPastTheCapOfOneCallerOnly) {
  CallerStreams streams(4, "WatchTable streams");
  std::vector<CallerStreams::Ticket> held;
  for (int i = 0; i < 4; ++i) {
    absl::StatusOr<CallerStreams::Ticket> t = streams.Open("auditor:ana");
    ASSERT_TRUE(t.ok()) << t.status();
    held.push_back(*std::move(t));
  }
  absl::StatusOr<CallerStreams::Ticket> fifth = streams.Open("auditor:ana");
  ASSERT_EQ(fifth.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(fifth.status().message().find("at most 4 WatchTable streams"),
            std::string::npos)
      << fifth.status();
  EXPECT_EQ(streams.open("auditor:ana"), 4);
  // Another caller is not held back.
  EXPECT_TRUE(streams.Open("player:ana").ok());
  EXPECT_EQ(streams.open("player:ana"), 0);  // its ticket is gone already
  // A stream that ends gives its place back.
  held.pop_back();
  EXPECT_EQ(streams.open("auditor:ana"), 3);
  EXPECT_TRUE(streams.Open("auditor:ana").ok());
}

TEST(CallerStreams, AMovedTicketClosesOnce) {
  CallerStreams streams(1, "streams");
  {
    absl::StatusOr<CallerStreams::Ticket> t = streams.Open("a");
    ASSERT_TRUE(t.ok());
    CallerStreams::Ticket moved = *std::move(t);
    CallerStreams::Ticket again;
    again = std::move(moved);
    EXPECT_EQ(streams.open("a"), 1);
    EXPECT_FALSE(streams.Open("a").ok());
  }
  EXPECT_EQ(streams.open("a"), 0);
  EXPECT_TRUE(streams.Open("a").ok());
}

}  // namespace
}  // namespace banca::table
