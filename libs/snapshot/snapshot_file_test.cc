#include "libs/snapshot/snapshot_file.h"

#include <unistd.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/snapshot/snapshot_dir.h"

namespace banca::snapshot {
namespace {

v1::SnapshotHeader Header(int64_t events) {
  v1::SnapshotHeader header;
  header.set_kind("wallet");
  header.set_events(events);
  header.set_created_at_micros(1000 + events);
  v1::SnapshotOffset* o = header.add_offsets();
  o->set_topic("banca.wallet.events");
  o->set_partition(3);
  o->set_next_offset(events);
  return header;
}

std::string TempDir(const std::string& name) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/snapshot_", name, "_", ::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(SnapshotFile, RoundTrip) {
  const std::string bytes = EncodeSnapshot(Header(42), "the state");
  absl::StatusOr<SnapshotFile> file = DecodeSnapshot(bytes);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->payload, "the state");
  EXPECT_EQ(file->header.SerializeAsString(), Header(42).SerializeAsString());
}

TEST(SnapshotFile, EmptyPayloadRoundTrips) {
  absl::StatusOr<SnapshotFile> file = DecodeSnapshot(EncodeSnapshot({}, ""));
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->payload, "");
}

TEST(SnapshotFile, EveryFlippedByteIsRefused) {
  const std::string good = EncodeSnapshot(Header(7), "payload bytes");
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] ^= 0x20;
    absl::StatusOr<SnapshotFile> file = DecodeSnapshot(bad);
    EXPECT_FALSE(file.ok()) << "byte " << i;
  }
}

TEST(SnapshotFile, BadChecksumIsDataLoss) {
  std::string bad = EncodeSnapshot(Header(7), "payload bytes");
  bad[bad.size() - 40] ^= 1;  // in the payload
  absl::StatusOr<SnapshotFile> file = DecodeSnapshot(bad);
  EXPECT_EQ(file.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(file.status().message().find("checksum"), std::string::npos);
}

TEST(SnapshotFile, EveryTruncationIsRefused) {
  const std::string good = EncodeSnapshot(Header(7), "payload bytes");
  for (size_t n = 0; n < good.size(); ++n) {
    absl::StatusOr<SnapshotFile> file = DecodeSnapshot(good.substr(0, n));
    EXPECT_EQ(file.status().code(), absl::StatusCode::kDataLoss) << n;
  }
  EXPECT_EQ(DecodeSnapshot(good + "x").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(SnapshotFile, AnotherVersionIsRefused) {
  std::string other = EncodeSnapshot(Header(7), "payload");
  other[kSnapshotMagic.size()] = 2;  // version 2, checksum not even read
  absl::StatusOr<SnapshotFile> file = DecodeSnapshot(other);
  EXPECT_EQ(file.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(file.status().message().find("version 2"), std::string::npos);
}

TEST(SnapshotFile, AtomicWriteReplacesWholeAndLeavesNoTemporary) {
  const std::string dir = TempDir("atomic");
  const std::string path = dir + "/a.snap";
  ASSERT_TRUE(WriteFileAtomically(path, "one").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "two, longer").ok());
  EXPECT_EQ(*ReadWholeFile(path), "two, longer");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_EQ(ReadWholeFile(dir + "/missing").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(SnapshotDir, KeepsTheNewestTwoNewestFirst) {
  const std::string dir = TempDir("keep");
  SnapshotDir snapshots(dir + "/wallet", "wallet");
  EXPECT_TRUE(snapshots.List()->empty());  // no directory yet
  std::vector<std::string> written;
  for (int64_t events : {10, 2000, 300}) {
    absl::StatusOr<std::string> path = snapshots.Write(Header(events), "s");
    ASSERT_TRUE(path.ok()) << path.status();
    written.push_back(*path);
  }
  EXPECT_FALSE(std::filesystem::exists(written[0]));  // the oldest, gone
  // A leftover of a crash mid-write is neither listed nor kept.
  const std::string leftover = dir + "/wallet/wallet-9.snap.tmp";
  ASSERT_TRUE(WriteFileAtomically(leftover, "half").ok());
  ASSERT_TRUE(snapshots.Write(Header(5), "s").ok());
  const std::vector<std::string> kept = *snapshots.List();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0], written[1]);  // 2000 events
  EXPECT_EQ(kept[1], written[2]);  // 300
  EXPECT_FALSE(std::filesystem::exists(leftover));
}

}  // namespace
}  // namespace banca::snapshot
