// The embedded log's journal reader (libs/eventlog/journal_scan.h,
// journal_format.h, journal_replay.h) on a fuzzed data directory: the
// input's records (fuzz_input.h) become segment files, then ScanJournal
// (`banca audit verify`'s check) and OpenEmbeddedLog run on the directory,
// and every record of every topic is read back. A corrupt journal must be
// refused with DATA_LOSS or have its torn tail cut; a crash or UB is a
// finding.
//
// CRC32C would make random frames fail their check, so by default the
// harness frames each record as a body with the right length and CRC (the
// body decoder, the index's rules and the torn-tail logic then see
// mutated content). The first record is a control string:
//   byte 0 bit 0: the records are raw segment bytes, not bodies
//   byte 0 bit 1: split them over two segments
//   byte 0 bit 2: flip one bit in the last frame (a torn or damaged tail)
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "libs/common/crc32c.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/journal_scan.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

void PutU32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

std::string Frame(const std::string& body) {
  std::string out;
  PutU32(static_cast<uint32_t>(body.size()), &out);
  PutU32(banca::Crc32c(body.data(), body.size()), &out);
  return out + body;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

const std::string& ScratchRoot() {
  static const std::string* root = [] {
    std::string dir = std::filesystem::temp_directory_path().string() +
                      "/banca-journal-fuzz-XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) std::abort();
    std::atexit([] { std::filesystem::remove_all(ScratchRoot()); });
    return new std::string(dir);
  }();
  return *root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca::eventlog;
  std::vector<std::string> records = banca::fuzz::SplitSequence(data, size);
  if (records.empty()) return 0;
  const uint8_t control =
      records[0].empty() ? 0 : static_cast<uint8_t>(records[0][0]);
  records.erase(records.begin());

  std::vector<std::string> frames;
  for (const std::string& r : records) {
    frames.push_back((control & 1) != 0 ? r : Frame(r));
  }
  if ((control & 4) != 0 && !frames.empty() && !frames.back().empty()) {
    std::string& last = frames.back();
    last[last.size() / 2] = static_cast<char>(last[last.size() / 2] ^ 0x10);
  }
  std::string first;
  std::string second;
  const size_t split = (control & 2) != 0 ? frames.size() / 2 : frames.size();
  for (size_t i = 0; i < frames.size(); ++i) {
    (i < split ? first : second) += frames[i];
  }

  const std::string dir = ScratchRoot() + "/log";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  WriteFile(dir + "/" + internal::SegmentFileName(0), first);
  if ((control & 2) != 0) {
    WriteFile(dir + "/" +
                  internal::SegmentFileName(static_cast<int64_t>(first.size())),
              second);
  }

  (void)ScanJournal(dir);
  EmbeddedLogOptions options;
  options.fsync = false;
  options.group_commit_delay_micros = 0;
  absl::StatusOr<std::unique_ptr<EventLog>> log = OpenEmbeddedLog(dir, options);
  if (!log.ok()) return 0;
  absl::StatusOr<std::vector<TopicConfig>> topics = (*log)->ListTopics();
  if (!topics.ok()) return 0;
  for (const TopicConfig& topic : *topics) {
    for (int p = 0; p < topic.partitions; ++p) {
      absl::StatusOr<int64_t> end = (*log)->EndOffset(topic.name, p);
      if (!end.ok()) continue;
      for (int64_t offset = 0; offset < *end;) {
        absl::StatusOr<std::vector<StoredRecord>> read =
            (*log)->Read(topic.name, p, offset, 64);
        if (!read.ok() || read->empty()) break;
        offset = read->back().offset + 1;
      }
    }
  }
  return 0;
}
