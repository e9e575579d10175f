#include "libs/snapshot/snapshot_file.h"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::snapshot {
namespace {

constexpr size_t kShaBytes = crypto_hash_sha256_BYTES;

void PutLittle(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}

uint64_t GetLittle(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    v |= uint64_t{static_cast<unsigned char>(in[at + i])} << (8 * i);
  }
  return v;
}

absl::Status Errno(std::string_view what, const std::string& path) {
  return absl::InternalError(
      absl::StrCat(ToAbsl(what), " ", path, ": ", std::strerror(errno)));
}

absl::Status SyncPath(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Errno("open", path);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return Errno("fsync", path);
  return absl::OkStatus();
}

}  // namespace

std::string Sha256(std::string_view bytes) {
  static const int sodium = sodium_init();  // idempotent, thread-safe
  (void)sodium;
  std::string out(kShaBytes, '\0');
  crypto_hash_sha256(reinterpret_cast<unsigned char*>(out.data()),
                     reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  return out;
}

std::string EncodeSnapshot(const v1::SnapshotHeader& header,
                           std::string_view payload) {
  const std::string head = header.SerializeAsString();
  std::string out;
  out.reserve(kSnapshotMagic.size() + 16 + head.size() + payload.size() +
              kShaBytes);
  out.append(kSnapshotMagic.data(), kSnapshotMagic.size());
  PutLittle(out, kSnapshotFormatVersion, 4);
  PutLittle(out, head.size(), 4);
  out.append(head);
  PutLittle(out, payload.size(), 8);
  out.append(payload.data(), payload.size());
  out.append(Sha256(out));
  return out;
}

absl::StatusOr<SnapshotFile> DecodeSnapshot(std::string_view bytes) {
  const size_t fixed = kSnapshotMagic.size() + 4 + 4;
  if (bytes.size() < fixed + 8 + kShaBytes) {
    return absl::DataLossError(
        absl::StrCat("snapshot truncated: ", bytes.size(), " bytes"));
  }
  if (bytes.substr(0, kSnapshotMagic.size()) != kSnapshotMagic) {
    return absl::DataLossError("not a snapshot file (bad magic)");
  }
  const uint64_t version = GetLittle(bytes, kSnapshotMagic.size(), 4);
  if (version != kSnapshotFormatVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat("snapshot format version ", version, ", this build reads ",
                     kSnapshotFormatVersion));
  }
  const uint64_t head_len = GetLittle(bytes, kSnapshotMagic.size() + 4, 4);
  if (head_len > kMaxHeaderBytes ||
      bytes.size() < fixed + head_len + 8 + kShaBytes) {
    return absl::DataLossError("snapshot truncated in its header");
  }
  const uint64_t payload_len = GetLittle(bytes, fixed + head_len, 8);
  const uint64_t body = fixed + head_len + 8;
  if (payload_len > kMaxSnapshotBytes ||
      bytes.size() != body + payload_len + kShaBytes) {
    return absl::DataLossError(
        absl::StrCat("snapshot truncated or overlong: ", bytes.size(),
                     " bytes for a payload of ", payload_len));
  }
  const std::string_view covered = bytes.substr(0, body + payload_len);
  if (Sha256(covered) != bytes.substr(body + payload_len)) {
    return absl::DataLossError("snapshot checksum (SHA-256) does not match");
  }
  SnapshotFile file;
  if (!file.header.ParseFromArray(bytes.data() + fixed,
                                  static_cast<int>(head_len))) {
    return absl::DataLossError("snapshot header does not parse");
  }
  file.payload.assign(bytes.substr(body, payload_len));
  return file;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  const int fd =
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("open", tmp);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      absl::Status s = Errno("write", tmp);
      ::close(fd);
      return s;
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    absl::Status s = Errno("fsync", tmp);
    ::close(fd);
    return s;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Errno("rename", tmp);
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return SyncPath(dir.empty() ? "." : dir, O_RDONLY | O_DIRECTORY);
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat(path, ": ", ec.message()));
  if (size > kMaxSnapshotBytes + kMaxHeaderBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, " is ", size, " bytes, past the snapshot limit"));
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return absl::DataLossError(absl::StrCat("cannot read ", path));
  }
  return bytes;
}

}  // namespace banca::snapshot
