// A snapshot file: a service's state at one point of its log, checksummed,
// written atomically (docs/architecture.md, "Snapshots").
//
// Layout (integers little-endian):
//   "BANCASNP"                 8 bytes, the magic
//   format version             u32 (kSnapshotFormatVersion)
//   header length              u32, then the header (v1::SnapshotHeader)
//   payload length             u64, then the payload (the service's state)
//   SHA-256                    32 bytes, of every byte before it
// A file that is short, long, of another version or whose SHA-256 does not
// match is refused whole: a snapshot is a cache of the log, never trusted
// past its checksum.
#ifndef BANCA_LIBS_SNAPSHOT_SNAPSHOT_FILE_H_
#define BANCA_LIBS_SNAPSHOT_SNAPSHOT_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/snapshot.pb.h"

namespace banca::snapshot {

inline constexpr std::string_view kSnapshotMagic = "BANCASNP";
inline constexpr uint32_t kSnapshotFormatVersion = 1;
// Limits: a header (offsets of at most a few thousand partitions) and a
// whole snapshot file.
inline constexpr size_t kMaxHeaderBytes = 1 << 20;
inline constexpr uint64_t kMaxSnapshotBytes = uint64_t{32} << 30;

struct SnapshotFile {
  v1::SnapshotHeader header;
  std::string payload;
};

// The file's bytes.
std::string EncodeSnapshot(const v1::SnapshotHeader& header,
                           std::string_view payload);
// DATA_LOSS for a file that is cut short, has bytes past its end, a bad
// magic or a SHA-256 that does not match; FAILED_PRECONDITION for another
// format version.
absl::StatusOr<SnapshotFile> DecodeSnapshot(std::string_view bytes);

// SHA-256 of `bytes`, 32 raw bytes.
std::string Sha256(std::string_view bytes);

// Writes `bytes` at `path` so that a crash leaves the old file or the new
// one, never a part: PATH.tmp written and fsynced, renamed over PATH, and
// the directory fsynced.
absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view bytes);
// The whole file; NOT_FOUND when missing, RESOURCE_EXHAUSTED past
// kMaxSnapshotBytes.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path);

}  // namespace banca::snapshot

#endif  // BANCA_LIBS_SNAPSHOT_SNAPSHOT_FILE_H_
