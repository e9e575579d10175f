#include "libs/ledger/idempotency.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
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

IdempotencyIndex::IdempotencyIndex(IdempotencyOptions options)
    : options_(options) {}

IdempotencyIndex::Shard& IdempotencyIndex::ShardOf(
    std::string_view request_id) {
  return shards_[std::hash<std::string_view>{}(request_id) % kShards];
}

const IdempotencyIndex::Shard& IdempotencyIndex::ShardOf(
    std::string_view request_id) const {
  return shards_[std::hash<std::string_view>{}(request_id) % kShards];
}

int64_t IdempotencyIndex::NowMicros() const {
  const Clock* clock = options_.clock;
  return (clock != nullptr ? clock : &system_clock_)->NowMicros();
}

bool IdempotencyIndex::Expired(int64_t at_micros) const {
  if (options_.window <= absl::ZeroDuration()) return false;
  return NowMicros() - at_micros >= absl::ToInt64Microseconds(options_.window);
}

void IdempotencyIndex::KeepInMemory(Shard& shard, std::string_view request_id,
                                    Entry entry) {
  if (options_.window > absl::ZeroDuration()) {
    shard.kept.emplace_back(entry.at_micros, std::string(request_id));
    // Forget from the front what has expired, unless the id was answered
    // again since (a later entry for it is further back in `kept`).
    while (!shard.kept.empty() && Expired(shard.kept.front().first)) {
      auto it = shard.entries.find(shard.kept.front().second);
      if (it != shard.entries.end() && it->second.done &&
          it->second.at_micros == shard.kept.front().first) {
        shard.entries.erase(it);
      }
      shard.kept.pop_front();
    }
  }
  shard.entries.insert_or_assign(std::string(request_id), std::move(entry));
}

std::optional<Answer> IdempotencyIndex::Answered(
    const Shard& shard, std::string_view request_id) const {
  std::optional<Answer> answer;
  auto it = shard.entries.find(ToAbsl(request_id));
  if (it != shard.entries.end() && it->second.done) {
    answer =
        Answer{it->second.fingerprint, it->second.result, it->second.at_micros};
  } else if (it == shard.entries.end() && options_.store != nullptr) {
    answer = options_.store->Get(request_id);
  }
  if (answer.has_value() && Expired(answer->at_micros)) return std::nullopt;
  return answer;
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
    if (it != shard.entries.end() && !it->second.done) {
      if (it->second.fingerprint != fingerprint) break;
      // The first attempt is in flight: wait for it to finish or give up.
      if (shard.done.wait_until(lock, deadline) == std::cv_status::timeout) {
        return absl::DeadlineExceededError(
            "the first attempt of this request is still in progress");
      }
      continue;
    }
    std::optional<Answer> answer = Answered(shard, request_id);
    if (answer.has_value()) {
      if (answer->fingerprint != fingerprint) break;
      return Claim{Outcome::kRepeat, std::move(answer->result)};
    }
    shard.entries.insert_or_assign(std::string(request_id),
                                   Entry{std::string(fingerprint), "", false});
    return Claim{Outcome::kFirst, ""};
  }
  return absl::AlreadyExistsError(
      absl::StrCat("request id \"", ToAbsl(request_id.substr(0, 64)),
                   "\" was already used for a different request"));
}

void IdempotencyIndex::Complete(std::string_view request_id, std::string result,
                                int64_t at_micros) {
  Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.entries.find(ToAbsl(request_id));
  if (it == shard.entries.end() || it->second.done) return;
  Entry entry{std::move(it->second.fingerprint), std::move(result), true,
              at_micros};
  if (options_.store != nullptr) {
    options_.store->Put(request_id,
                        Answer{std::move(entry.fingerprint),
                               std::move(entry.result), entry.at_micros});
    shard.entries.erase(it);
  } else {
    KeepInMemory(shard, request_id, std::move(entry));
  }
  shard.done.notify_all();
}

void IdempotencyIndex::Abandon(std::string_view request_id) {
  Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  auto it = shard.entries.find(ToAbsl(request_id));
  if (it != shard.entries.end() && !it->second.done) shard.entries.erase(it);
  shard.done.notify_all();
}

void IdempotencyIndex::Restore(std::string_view request_id,
                               std::string_view fingerprint, std::string result,
                               int64_t at_micros) {
  Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  if (options_.store != nullptr) {
    options_.store->Put(request_id, Answer{std::string(fingerprint),
                                           std::move(result), at_micros});
    return;
  }
  auto it = shard.entries.find(ToAbsl(request_id));
  if (it != shard.entries.end() && it->second.done &&
      it->second.at_micros > at_micros) {
    return;  // a later use of the id is kept
  }
  if (Expired(at_micros)) return;
  KeepInMemory(
      shard, request_id,
      Entry{std::string(fingerprint), std::move(result), true, at_micros});
}

std::optional<std::string> IdempotencyIndex::Find(
    std::string_view request_id, std::string_view fingerprint) const {
  const Shard& shard = ShardOf(request_id);
  std::lock_guard<std::mutex> lock(shard.mu);
  std::optional<Answer> answer = Answered(shard, request_id);
  if (!answer.has_value() || answer->fingerprint != fingerprint) {
    return std::nullopt;
  }
  return std::move(answer->result);
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
  if (options_.store != nullptr) return;
  for (const Shard& shard : shards_) {
    std::lock_guard<std::mutex> lock(shard.mu);
    for (const auto& [id, entry] : shard.entries) {
      if (!entry.done || Expired(entry.at_micros)) continue;
      v1::IdempotencyEntryState* e = out->Add();
      e->set_request_id(id);
      // Hex: a fingerprint is raw bytes, and the field is a proto3 string
      // (UTF-8); libs/snapshot/wallet_snapshot.cc decodes it.
      e->set_fingerprint(absl::BytesToHexString(entry.fingerprint));
      e->set_result(entry.result);
      e->set_answered_at_micros(entry.at_micros);
    }
  }
}

}  // namespace banca::ledger
