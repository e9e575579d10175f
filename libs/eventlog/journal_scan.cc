#include "libs/eventlog/journal_scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/check.h"
#include "libs/common/crc32c.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/file_window.h"

namespace banca::eventlog::internal {
namespace {

constexpr size_t kScanChunkBytes = 1 << 20;
constexpr std::string_view kSegmentSuffix = ".seg";
constexpr size_t kSegmentDigits = 20;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Whether a frame that checks out starts at `q` (and ends by `to`).
absl::StatusOr<bool> ValidFrameAt(FileWindow& w, int64_t q, int64_t to) {
  if (q + static_cast<int64_t>(kFrameHeaderBytes + kMinBodyBytes) > to) {
    return false;
  }
  ASSIGN_OR_RETURN(std::string_view head, w.Get(q, kFrameHeaderBytes + 1));
  const uint32_t len = LoadU32(head.data());
  if (len < kMinBodyBytes || len > kMaxBodyBytes ||
      q + static_cast<int64_t>(kFrameHeaderBytes + len) > to) {
    return false;
  }
  if ((static_cast<uint8_t>(head[kFrameHeaderBytes]) & ~kKnownFlags) != 0) {
    return false;
  }
  const uint32_t crc = LoadU32(head.data() + 4);
  ASSIGN_OR_RETURN(std::string_view frame, w.Get(q, kFrameHeaderBytes + len));
  const std::string_view body = frame.substr(kFrameHeaderBytes);
  RecordView view;
  return Crc32c(body.data(), body.size()) == crc && DecodeBody(body, &view);
}

// Whether a complete, valid frame starts anywhere in [from, to). Used only on
// the rare path that classifies a bad frame, so it favours being thorough:
// every byte offset is a candidate, filtered by cheap checks before the CRC.
absl::StatusOr<bool> AnyValidFrame(FileWindow& w, int64_t from, int64_t to) {
  for (int64_t q = from;
       q + static_cast<int64_t>(kFrameHeaderBytes + kMinBodyBytes) <= to; ++q) {
    ASSIGN_OR_RETURN(const bool valid, ValidFrameAt(w, q, to));
    if (valid) return true;
  }
  return false;
}

absl::StatusOr<bool> AllZero(FileWindow& w, int64_t from, int64_t to) {
  while (from < to) {
    const size_t n = static_cast<size_t>(
        std::min<int64_t>(to - from, static_cast<int64_t>(kScanChunkBytes)));
    ASSIGN_OR_RETURN(std::string_view chunk, w.Get(from, n));
    if (std::any_of(chunk.begin(), chunk.end(),
                    [](char c) { return c != 0; })) {
      return false;
    }
    from += static_cast<int64_t>(n);
  }
  return true;
}

struct SegmentScan {
  int64_t size = 0;
  // Bytes of the segment that belong to complete batches.
  int64_t complete = 0;
  int64_t records = 0;
  int64_t batches = 0;
  // Where the first bad frame starts, or -1.
  int64_t bad_at = -1;
  std::string bad_reason;
  // Corruption that no torn write can explain (visitor or decode failure).
  bool fatal = false;
};

absl::Status ScanOne(const SegmentFile& seg, int64_t size,
                     JournalVisitor* visitor, SegmentScan* out, FileWindow& w) {
  out->size = size;
  int64_t pos = 0;
  int64_t batch_records = 0;
  RecordView view;
  while (pos < size) {
    auto bad = [&](std::string reason) {
      out->bad_at = pos;
      out->bad_reason = std::move(reason);
    };
    if (size - pos < static_cast<int64_t>(kFrameHeaderBytes)) {
      bad("incomplete frame header");
      break;
    }
    ASSIGN_OR_RETURN(std::string_view head, w.Get(pos, kFrameHeaderBytes));
    const uint32_t len = LoadU32(head.data());
    const uint32_t crc = LoadU32(head.data() + 4);
    if (len < kMinBodyBytes || len > kMaxBodyBytes) {
      bad(absl::StrCat("frame length ", len, " out of range"));
      break;
    }
    if (size - pos - static_cast<int64_t>(kFrameHeaderBytes) < len) {
      bad("frame runs past end of segment");
      break;
    }
    ASSIGN_OR_RETURN(std::string_view frame,
                     w.Get(pos, kFrameHeaderBytes + len));
    const std::string_view body = frame.substr(kFrameHeaderBytes);
    if (Crc32c(body.data(), body.size()) != crc) {
      bad("CRC mismatch");
      break;
    }
    if (!DecodeBody(body, &view)) {
      bad("record body does not decode");
      out->fatal = true;
      break;
    }
    if (absl::Status s = visitor->OnRecord(seg.base + pos, view); !s.ok()) {
      bad(std::string(s.message()));
      out->fatal = true;
      break;
    }
    ++batch_records;
    pos += static_cast<int64_t>(kFrameHeaderBytes + len);
    if (view.flags & kFlagEndOfBatch) {
      if (absl::Status s = visitor->OnBatchEnd(); !s.ok()) {
        bad(std::string(s.message()));
        out->fatal = true;
        break;
      }
      out->records += batch_records;
      out->batches += 1;
      batch_records = 0;
      out->complete = pos;
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string SegmentFileName(int64_t base) {
  BANCA_CHECK(base >= 0);
  return absl::StrFormat("%020d%s", base, ToAbsl(kSegmentSuffix));
}

absl::StatusOr<std::vector<SegmentFile>> ListSegments(const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return absl::ErrnoToStatus(errno, "opendir " + dir);
  std::vector<SegmentFile> out;
  errno = 0;
  while (struct dirent* e = readdir(d)) {
    const std::string_view name = e->d_name;
    if (name.size() != kSegmentDigits + kSegmentSuffix.size() ||
        name.substr(kSegmentDigits) != kSegmentSuffix) {
      continue;
    }
    const std::string_view digits = name.substr(0, kSegmentDigits);
    if (!std::all_of(digits.begin(), digits.end(),
                     [](char c) { return absl::ascii_isdigit(c); })) {
      continue;
    }
    int64_t base;
    if (!absl::SimpleAtoi(ToAbsl(digits), &base) || base < 0) continue;
    out.push_back(SegmentFile{base, dir + "/" + std::string(name)});
  }
  const int err = errno;
  closedir(d);
  if (err != 0) return absl::ErrnoToStatus(err, "readdir " + dir);
  std::sort(out.begin(), out.end(),
            [](const SegmentFile& a, const SegmentFile& b) {
              return a.base < b.base;
            });
  return out;
}

absl::StatusOr<ScanOutcome> ScanSegments(
    const std::vector<SegmentFile>& segments, JournalVisitor* visitor) {
  ScanOutcome out;
  JournalScanReport& rep = out.report;
  auto corrupt = [&](std::string error) {
    rep.ok = false;
    rep.error = std::move(error);
    return out;
  };
  int64_t expected_base = 0;
  for (size_t i = 0; i < segments.size(); ++i) {
    const SegmentFile& seg = segments[i];
    const bool last = i + 1 == segments.size();
    if (seg.base != expected_base) {
      return corrupt(absl::StrCat("segment ", seg.path, " starts at ", seg.base,
                                  ", expected ", expected_base,
                                  " (segments missing or overlapping)"));
    }
    Fd fd(open(seg.path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return absl::ErrnoToStatus(errno, "open " + seg.path);
    struct stat st;
    if (fstat(fd.get(), &st) != 0) {
      return absl::ErrnoToStatus(errno, "fstat " + seg.path);
    }
    FileWindow w(fd.get(), st.st_size, kScanChunkBytes);
    SegmentScan s;
    RETURN_IF_ERROR(ScanOne(seg, st.st_size, visitor, &s, w));
    rep.segments += 1;
    rep.records += s.records;
    rep.batches += s.batches;
    if (s.bad_at >= 0) {
      const std::string where =
          absl::StrCat(seg.path, " at segment byte ", s.bad_at,
                       " (journal position ", seg.base + s.bad_at, "): ");
      if (s.fatal || !last) return corrupt(where + s.bad_reason);
      ASSIGN_OR_RETURN(bool zeros, AllZero(w, s.bad_at, s.size));
      ASSIGN_OR_RETURN(bool more,
                       zeros ? false : AnyValidFrame(w, s.bad_at + 1, s.size));
      if (more) {
        // Beside a running writer the bad bytes may have been read before
        // the writer wrote them and the valid ones after: read them again.
        // A frame there now is the writer's latest batch, not damage (the
        // cut stays at the last complete batch); without a writer the
        // bytes read the same, and stay damage.
        FileWindow again(fd.get(), st.st_size, kScanChunkBytes);
        ASSIGN_OR_RETURN(const bool written_since,
                         ValidFrameAt(again, s.bad_at, s.size));
        if (!written_since) {
          return corrupt(where + s.bad_reason + ", followed by valid records");
        }
      }
    } else if (!last && s.complete != s.size) {
      return corrupt(
          absl::StrCat(seg.path, " ends inside a batch at byte ", s.complete));
    }
    if (last) {
      rep.torn_tail_bytes = s.size - s.complete;
      out.last_segment_keep = s.complete;
      out.end = seg.base + s.complete;
    } else {
      expected_base = seg.base + s.size;
      out.end = expected_base;
    }
  }
  rep.bytes = out.end;
  return out;
}

}  // namespace banca::eventlog::internal
