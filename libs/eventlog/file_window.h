// A read-only window over a file that serves byte ranges from one large
// pread, so decoding many small records costs one system call per chunk.
#ifndef BANCA_LIBS_EVENTLOG_FILE_WINDOW_H_
#define BANCA_LIBS_EVENTLOG_FILE_WINDOW_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/status/statusor.h"

namespace banca::eventlog::internal {

class FileWindow {
 public:
  // Reads no further than `file_size`; refills read `chunk_bytes` at a time
  // (more when one request is larger). The fd stays owned by the caller.
  FileWindow(int fd, int64_t file_size, size_t chunk_bytes);

  // Bytes [offset, offset + n) of the file, valid until the next call.
  // OUT_OF_RANGE if the range passes `file_size` (or the file is shorter).
  absl::StatusOr<std::string_view> Get(int64_t offset, size_t n);

  int64_t file_size() const { return file_size_; }

 private:
  int fd_;
  int64_t file_size_;
  size_t chunk_bytes_;
  std::unique_ptr<char[]> buf_;
  size_t capacity_ = 0;
  int64_t buf_offset_ = 0;
  size_t buf_len_ = 0;
};

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_FILE_WINDOW_H_
