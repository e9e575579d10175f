#include "libs/eventlog/file_window.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/check.h"

namespace banca::eventlog::internal {

FileWindow::FileWindow(int fd, int64_t file_size, size_t chunk_bytes)
    : fd_(fd), file_size_(file_size), chunk_bytes_(chunk_bytes) {
  BANCA_CHECK(fd >= 0 && file_size >= 0 && chunk_bytes > 0);
}

absl::StatusOr<std::string_view> FileWindow::Get(int64_t offset, size_t n) {
  if (offset < 0 || offset > file_size_ ||
      n > static_cast<uint64_t>(file_size_ - offset)) {
    return absl::OutOfRangeError(
        absl::StrCat("range ", offset, "+", n, " past end ", file_size_));
  }
  if (offset >= buf_offset_ &&
      offset + static_cast<int64_t>(n) <=
          buf_offset_ + static_cast<int64_t>(buf_len_)) {
    return std::string_view(buf_.get() + (offset - buf_offset_), n);
  }
  const size_t want = static_cast<size_t>(
      std::min<int64_t>(std::max(n, chunk_bytes_), file_size_ - offset));
  if (want > capacity_) {
    buf_ = std::make_unique_for_overwrite<char[]>(want);
    capacity_ = want;
  }
  size_t got = 0;
  while (got < want) {
    const ssize_t r = pread(fd_, buf_.get() + got, want - got,
                            offset + static_cast<int64_t>(got));
    if (r < 0) {
      if (errno == EINTR) continue;
      buf_len_ = 0;
      return absl::ErrnoToStatus(errno, "pread journal segment");
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  buf_offset_ = offset;
  buf_len_ = got;
  if (got < n) {
    return absl::OutOfRangeError(
        absl::StrCat("journal segment shorter than expected at ", offset));
  }
  return std::string_view(buf_.get(), n);
}

}  // namespace banca::eventlog::internal
