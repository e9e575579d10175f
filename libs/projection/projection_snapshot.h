// A live projection as a reader beside its service sees it: the state hash
// and the offsets of its last flush, read in one read-only open
// (ProjectionStore::OpenReadOnly). A live audit takes this before it opens
// the log, so the log it then reads holds at least every offset the
// projection has applied, and a rebuild from offset 0 can stop at them.
#ifndef BANCA_LIBS_PROJECTION_PROJECTION_SNAPSHOT_H_
#define BANCA_LIBS_PROJECTION_PROJECTION_SNAPSHOT_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/projection/projection_store.h"

namespace banca::projection {

struct ProjectionSnapshot {
  // `dir` holds a store (a CURRENT file). A directory the service made but
  // never wrote a store in is not one: found is false.
  bool found = false;
  std::string hash;
  OffsetMap offsets;
};

// Reads the store at `dir` without changing it; `found` false, and no
// error, when there is none.
absl::StatusOr<ProjectionSnapshot> SnapshotProjection(const std::string& dir);

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_PROJECTION_SNAPSHOT_H_
