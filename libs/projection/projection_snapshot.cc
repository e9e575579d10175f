#include "libs/projection/projection_snapshot.h"

#include <filesystem>
#include <memory>
#include <system_error>

#include "libs/common/status_macros.h"

namespace banca::projection {

absl::StatusOr<ProjectionSnapshot> SnapshotProjection(const std::string& dir) {
  ProjectionSnapshot snapshot;
  std::error_code ec;
  if (!std::filesystem::exists(dir + "/CURRENT", ec)) return snapshot;
  ASSIGN_OR_RETURN(std::unique_ptr<ProjectionStore> store,
                   ProjectionStore::OpenReadOnly(dir));
  snapshot.found = true;
  snapshot.offsets = store->Offsets();
  ASSIGN_OR_RETURN(snapshot.hash, store->StateHash());
  return snapshot;
}

}  // namespace banca::projection
