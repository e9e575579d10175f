#include "libs/wire/wallet_codec.h"

#include "gtest/gtest.h"

namespace banca::wire {
namespace {

v1::WalletEvent Posted(int reason) {
  v1::WalletEvent event;
  v1::LedgerTransaction& tx = *event.mutable_transaction_posted()->mutable_tx();
  tx.set_reason(static_cast<v1::PostingReason>(reason));
  tx.mutable_reference()->set_id("psp-1");
  v1::Posting& p = *tx.add_postings();
  p.set_account("player/ana/cash");
  p.set_amount_minor(1250);
  return event;
}

TEST(DescribeWalletEvent, NamesAKnownReasonWithoutItsPrefix) {
  EXPECT_EQ(DescribeWalletEvent(Posted(v1::POSTING_REASON_DEPOSIT)),
            "TransactionPosted DEPOSIT ref=psp-1 [player/ana/cash +12.50]");
}

// Found by tests/fuzz/wallet_record_fuzz: a reason this build has no name
// for (a newer writer's, or a damaged record's) threw std::out_of_range and
// stopped `banca log tail`.
TEST(DescribeWalletEvent, ShowsAnUnknownReasonByNumber) {
  EXPECT_EQ(DescribeWalletEvent(Posted(999)),
            "TransactionPosted REASON_999 ref=psp-1 [player/ana/cash +12.50]");
  EXPECT_EQ(DescribeWalletEvent(Posted(-5)),
            "TransactionPosted REASON_-5 ref=psp-1 [player/ana/cash +12.50]");
}

}  // namespace
}  // namespace banca::wire
