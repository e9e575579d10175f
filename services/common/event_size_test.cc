#include "services/common/event_size.h"

#include <string>

#include "banca/v1/table.pb.h"
#include "gtest/gtest.h"

namespace banca::edge {
namespace {

TEST(EventSize, AnEventUpToTheLimitPassesOneByteMoreIsInvalidArgument) {
  v1::TableEvent event;
  event.set_table_id("t1");
  // A reason of the limit's length, less what the rest of the event takes
  // (the lengths' varints keep their size: the reason stays over 16 KiB).
  std::string* reason = event.mutable_hand_void_requested()->mutable_reason();
  reason->assign(kMaxEventBytes, 'x');
  reason->resize(reason->size() - (event.ByteSizeLong() - kMaxEventBytes));
  ASSERT_EQ(event.ByteSizeLong(), kMaxEventBytes);
  EXPECT_TRUE(CheckEventSize(event).ok());

  event.mutable_hand_void_requested()->mutable_reason()->push_back('x');
  const absl::Status s = CheckEventSize(event);
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(s.message().find("banca.v1.TableEvent"), std::string::npos) << s;
}

}  // namespace
}  // namespace banca::edge
