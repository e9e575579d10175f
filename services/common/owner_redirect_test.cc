// The route in a refusal (owner_redirect.h): what the table hosts write is
// read back; a message that is not a route, or names an address no
// advertised one can be (too long, not printable), names no owner.
#include "services/common/owner_redirect.h"

#include <string>

#include "gtest/gtest.h"

namespace banca::edge {
namespace {

TEST(OwnerRedirect, TheOwnerWrittenIsTheOwnerRead) {
  const std::string message =
      WithOwner("table t1 is decided by another process", "10.0.0.7:7070");
  EXPECT_EQ(OwnerIn(message), "10.0.0.7:7070");
}

TEST(OwnerRedirect, AnythingElseNamesNoOwner) {
  EXPECT_EQ(OwnerIn("partition 3 is not decided here"), std::nullopt);
  EXPECT_EQ(OwnerIn(WithOwner("m", "")), std::nullopt);
  EXPECT_EQ(OwnerIn(WithOwner("m", std::string(256, 'a'))), std::nullopt);
  EXPECT_EQ(OwnerIn(WithOwner("m", "a b")), std::nullopt);
  EXPECT_EQ(OwnerIn(WithOwner("m", "a\nb")), std::nullopt);
  EXPECT_EQ(OwnerIn(WithOwner("m", "h\x80:1")), std::nullopt);
}

}  // namespace
}  // namespace banca::edge
