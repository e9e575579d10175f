#include "libs/ledger/idempotency.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "libs/common/string_view.h"

namespace banca::ledger {

bool IsValidRequestId(std::string_view id) {
  if (id.empty() || id.size() > kMaxRequestIdBytes) return false;
  for (char c : id) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

IdempotencyIndex::Shard& IdempotencyIndex::ShardOf(
    std::string_view request_id) {
  return shards_[std::hash<std::string_view>{}(request_id) % kShards];
}

const IdempotencyIndex::Shard& IdempotencyIndex::ShardOf(
    std::string_view request_id) const {
  return shards_[std::hash<std::string_view>{}(request_id) % kShards];
}

absl::StatusOr<IdempotencyIndex::Claim> IdempotencyIndex::Begin(
    std::string_view request_id, std::string_view fingerprint,
    absl::Duration wait) {
  Shard& shard = ShardOf(request_id);
  const auto deadline = std::chrono::steady_clock::now() +
                        absl::ToChronoNanoseconds(std::clamp(
                            wait, absl::ZeroDuration(), kMaxRetryWait));
  std::unique_lock<std::mutex> lock(shard.mu);
  while (true) {
    auto it = shard.entries.find(ToAbsl(request_id));
    if (it == shard.entries.end()) {
      shard.entries.emplace(std::string(request_id),
                            Entry{std::string(fingerprint), "", false});
      return Claim{Outcome::kFirst, ""};
    }
    if (it->second.fingerprint != fingerprint) {
      return absl::AlreadyExistsError(
          absl::StrCat("request id \"", ToAbsl(request_id.substr(0, 64)),
                       "\" was already used for a different request"));
    }
    if (it->second.done) return Claim{Outcome::kRepeat, it->second.result};
    // The first attempt is in flight: wait for it to finish or give up.
    if (shard.done.wait_until(lock, deadline) == std::cv_status::timeout) {
      return absl::DeadlineExceededError(
          "the first attempt of this request is still in progress");
    }
  }
}

void IdempotencyIndex::Complete(std::string_view request_id,
                                std::string result) {
  Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.entries.find(ToAbsl(request_id));
  if (it == shard.entries.end()) return;
  it->second.result = std::move(result);
  it->second.done = true;
  shard.done.notify_all();
}

void IdempotencyIndex::Abandon(std::string_view request_id) {
  Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  shard.entries.erase(ToAbsl(request_id));
  shard.done.notify_all();
}

void IdempotencyIndex::Restore(std::string_view request_id,
                               std::string_view fingerprint,
                               std::string result) {
  Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  shard.entries.insert_or_assign(
      std::string(request_id),
      Entry{std::string(fingerprint), std::move(result), true});
}

std::optional<std::string> IdempotencyIndex::Find(
    std::string_view request_id, std::string_view fingerprint) const {
  const Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.entries.find(ToAbsl(request_id));
  if (it == shard.entries.end() || !it->second.done ||
      it->second.fingerprint != fingerprint) {
    return std::nullopt;
  }
  return it->second.result;
}

size_t IdempotencyIndex::size() const {
  size_t n = 0;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    n += shard.entries.size();
  }
  return n;
}

void IdempotencyIndex::ExportAnswered(
    google::protobuf::RepeatedPtrField<v1::IdempotencyEntryState>* out) const {
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    for (const auto& [id, entry] : shard.entries) {
      if (!entry.done) continue;
      v1::IdempotencyEntryState* e = out->Add();
      e->set_request_id(id);
      // Hex: a fingerprint is raw bytes, and the field is a proto3 string
      // (UTF-8); libs/snapshot/wallet_snapshot.cc decodes it.
      e->set_fingerprint(absl::BytesToHexString(entry.fingerprint));
      e->set_result(entry.result);
    }
  }
}

}  // namespace banca::ledger
