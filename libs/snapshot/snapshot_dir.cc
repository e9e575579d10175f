#include "libs/snapshot/snapshot_dir.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/status_macros.h"
#include "libs/snapshot/snapshot_file.h"

namespace banca::snapshot {

namespace fs = std::filesystem;

SnapshotDir::SnapshotDir(std::string dir, std::string kind, int keep)
    : dir_(std::move(dir)),
      kind_(std::move(kind)),
      keep_(std::clamp(keep, 1, kMaxKeep)) {}

absl::StatusOr<std::vector<std::string>> SnapshotDir::List() const {
  std::vector<std::string> names;
  std::error_code ec;
  if (!fs::exists(dir_, ec)) return names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (absl::StartsWith(name, kind_ + "-") && absl::EndsWith(name, ".snap")) {
      names.push_back(name);
    }
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("listing ", dir_, ": ", ec.message()));
  }
  std::sort(names.rbegin(), names.rend());
  std::vector<std::string> paths;
  for (const std::string& name : names) paths.push_back(dir_ + "/" + name);
  return paths;
}

absl::StatusOr<std::string> SnapshotDir::Write(const v1::SnapshotHeader& header,
                                               std::string_view payload) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("making ", dir_, ": ", ec.message()));
  }
  const std::string path =
      absl::StrFormat("%s/%s-%020d-%020d.snap", dir_, kind_, header.events(),
                      header.created_at_micros());
  RETURN_IF_ERROR(WriteFileAtomically(path, EncodeSnapshot(header, payload)));
  ASSIGN_OR_RETURN(const std::vector<std::string> all, List());
  for (size_t i = keep_; i < all.size(); ++i) fs::remove(all[i], ec);
  for (const fs::directory_entry& e : fs::directory_iterator(dir_, ec)) {
    if (absl::EndsWith(e.path().string(), ".snap.tmp")) {
      fs::remove(e.path(), ec);
    }
  }
  return path;
}

}  // namespace banca::snapshot
