// Where a service keeps its snapshots (DATA_DIR/snapshots/<kind>): files
// named <kind>-<events, 20 digits>-<created micros>.snap, so the newest
// (the one covering the most events) sorts last. Writing one keeps the
// newest `keep` (2: the new one, and the previous as a fallback) and
// deletes the rest, and any leftover temporary file.
#ifndef BANCA_LIBS_SNAPSHOT_SNAPSHOT_DIR_H_
#define BANCA_LIBS_SNAPSHOT_SNAPSHOT_DIR_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "banca/v1/snapshot.pb.h"

namespace banca::snapshot {

inline constexpr int kDefaultKeep = 2;
inline constexpr int kMaxKeep = 16;

class SnapshotDir {
 public:
  SnapshotDir(std::string dir, std::string kind, int keep = kDefaultKeep);

  const std::string& dir() const { return dir_; }

  // The snapshot files, newest first; none when the directory is missing.
  absl::StatusOr<std::vector<std::string>> List() const;
  // Writes a snapshot atomically (snapshot_file.h), then keeps the newest
  // `keep`. Returns its path.
  absl::StatusOr<std::string> Write(const v1::SnapshotHeader& header,
                                    std::string_view payload) const;

 private:
  const std::string dir_;
  const std::string kind_;
  const int keep_;
};

}  // namespace banca::snapshot

#endif  // BANCA_LIBS_SNAPSHOT_SNAPSHOT_DIR_H_
