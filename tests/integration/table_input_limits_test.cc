// No input reaches the log unchecked (issue 17), at the poker tables:
// unknown fields are dropped before the service sees a request, and known
// fields past their limits are refused before anything is appended.
// Before, an operator's CreateTable carrying 1.5 MB under an unknown field
// of its config was logged with it, past the log's record limit: the
// append failed and the process stopped (fail-stop).
#include <string>

#include "libs/wire/topics.h"
#include "tests/integration/table_test_fixture.h"
#include "tests/integration/unknown_fields.h"

namespace banca::testing {
namespace {

using TableInputLimitsTest = TableServiceTest;

TEST_F(TableInputLimitsTest, CreateTableDropsUnknownFieldsBeforeTheLog) {
  v1::CreateTableRequest req;
  req.set_request_id("create-t1");
  req.set_table_id("t1");
  req.set_name("Table t1");
  *req.mutable_config() = Holdem();
  AddUnknownField(*req.mutable_config(), 200'000);
  AddUnknownField(req, 20'000);
  v1::TableInfo info;
  const grpc::Status s =
      tables_->CreateTable(As("op", auth::Role::kOperator).get(), req, &info);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(TableEvents(), 1);
  EXPECT_LT(LargestRecord(*log_, wire::kTableTopic), kSmallRecordBytes);
  // The table plays, and the log replays.
  Fund("ana", 50'000);
  Fund("bob", 50'000);
  ASSERT_TRUE(Sit("ana", "t1", 1, 10'000).ok());
  ASSERT_TRUE(Sit("bob", "t1", 2, 10'000).ok());
  Shutdown();
  Start();
  EXPECT_TRUE(View("ana", "t1").in_hand());
}

TEST_F(TableInputLimitsTest, OversizeFieldsAreRefusedAndAppendNothing) {
  TwoAtTable("t1");
  Settle();
  const int64_t events = TableEvents();
  auto create = [&](const std::string& id, const std::string& name,
                    const std::string& currency) {
    v1::CreateTableRequest req;
    req.set_request_id("create-" + id);
    req.set_table_id(id);
    req.set_name(name);
    *req.mutable_config() = Holdem();
    req.mutable_config()->set_currency(currency);
    v1::TableInfo info;
    return tables_->CreateTable(As("op", auth::Role::kOperator).get(), req,
                                &info);
  };
  const std::string huge(200'000, 'x');
  EXPECT_EQ(create("t2", huge, "EUR").error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(create("t3", "Table t3", huge).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // A reason over its 256 bytes: refused, where it used to be cut to 256
  // bytes, here inside the two-byte "é", which would leave an event whose
  // string is not UTF-8, and that no replay parses.
  v1::VoidHandRequest void_hand;
  void_hand.set_request_id("void-1");
  void_hand.set_table_id("t1");
  void_hand.set_reason(std::string(255, 'x') + "\xc3\xa9");
  v1::TableInfo info;
  const grpc::Status s = tables_->VoidHand(
      As("op", auth::Role::kOperator).get(), void_hand, &info);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  EXPECT_EQ(TableEvents(), events);
  // The hand goes on, and the log replays.
  Shutdown();
  Start();
  EXPECT_TRUE(View("ana", "t1").in_hand());
  EXPECT_EQ(TableEvents(), events);
}

}  // namespace
}  // namespace banca::testing
