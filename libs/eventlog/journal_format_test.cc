#include "libs/eventlog/journal_format.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/common/crc32c.h"

namespace banca::eventlog::internal {
namespace {

TEST(JournalFormat, FrameRoundTrip) {
  std::vector<Header> headers = {{"type", "Deposited"}, {"v", "1"}, {"", ""}};
  RecordFields f;
  f.flags = kFlagEndOfBatch;
  f.topic = "banca.wallet.events";
  f.partition = 1023;
  f.offset = (1LL << 62) + 5;
  f.timestamp_micros = 1'700'000'000'000'000;
  f.key = "player-1";
  f.headers = headers;
  const std::string value("\0payload\xff", 9);
  f.value = value;
  std::string buf = "prefix";
  AppendFrame(f, &buf);
  ASSERT_GT(buf.size(), 6 + kFrameHeaderBytes);
  const char* frame = buf.data() + 6;
  const uint32_t len = LoadU32(frame);
  ASSERT_EQ(6 + kFrameHeaderBytes + len, buf.size());
  const std::string_view body(frame + kFrameHeaderBytes, len);
  EXPECT_EQ(LoadU32(frame + 4), Crc32c(body.data(), body.size()));
  EXPECT_LE(len, MaxBodySize(f));
  RecordView v;
  ASSERT_TRUE(DecodeBody(body, &v));
  EXPECT_EQ(v.flags, kFlagEndOfBatch);
  EXPECT_EQ(v.topic, f.topic);
  EXPECT_EQ(v.partition, f.partition);
  EXPECT_EQ(v.offset, f.offset);
  EXPECT_EQ(v.timestamp_micros, f.timestamp_micros);
  EXPECT_EQ(v.key, f.key);
  EXPECT_EQ(v.value, f.value);
  std::vector<Header> decoded;
  ASSERT_TRUE(DecodeHeaders(v, &decoded));
  EXPECT_EQ(decoded, headers);
}

TEST(JournalFormat, RejectsEveryTruncationAndTrailingBytes) {
  RecordFields f;
  f.topic = "t";
  f.key = "k";
  f.value = "value";
  std::string buf;
  AppendFrame(f, &buf);
  const std::string body = buf.substr(kFrameHeaderBytes);
  RecordView v;
  ASSERT_TRUE(DecodeBody(body, &v));
  for (size_t n = 0; n < body.size(); ++n) {
    EXPECT_FALSE(DecodeBody(std::string_view(body).substr(0, n), &v)) << n;
  }
  EXPECT_FALSE(DecodeBody(body + "x", &v));
  std::string bad_flags = body;
  bad_flags[0] = 0x02;
  EXPECT_FALSE(DecodeBody(bad_flags, &v));
}

TEST(JournalFormat, InternalPayloads) {
  int partitions = 0;
  ASSERT_TRUE(DecodeTopicValue(EncodeTopicValue(300), &partitions));
  EXPECT_EQ(partitions, 300);
  EXPECT_FALSE(DecodeTopicValue(EncodeTopicValue(1) + "x", &partitions));
  OffsetCommit c{"g", "topic", 7, 1234567890123};
  OffsetCommit d;
  ASSERT_TRUE(DecodeCommitValue(EncodeCommitValue(c), &d));
  EXPECT_EQ(d.group, c.group);
  EXPECT_EQ(d.topic, c.topic);
  EXPECT_EQ(d.partition, c.partition);
  EXPECT_EQ(d.next_offset, c.next_offset);
}

}  // namespace
}  // namespace banca::eventlog::internal
