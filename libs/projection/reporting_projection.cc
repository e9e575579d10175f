#include "libs/projection/reporting_projection.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "libs/common/status_macros.h"
#include "libs/projection/finance_projection.h"
#include "libs/projection/games_projection.h"
#include "libs/projection/history_projection.h"
#include "libs/projection/wallet_projection.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {

namespace {

// The parts of the reporting store. The finance part hashes the records of
// every topic the others follow, so it comes last, once their topics are
// known.
std::vector<std::unique_ptr<Projector>> TodaysParts(eventlog::EventLog* log) {
  std::vector<std::unique_ptr<Projector>> parts;
  parts.push_back(std::make_unique<WalletProjector>());
  parts.push_back(std::make_unique<GamesProjector>());
  parts.push_back(std::make_unique<HistoryProjector>(log));
  std::set<std::string> all;
  for (const auto& part : parts) {
    for (std::string& topic : part->Topics()) all.insert(std::move(topic));
  }
  parts.push_back(std::make_unique<FinanceProjector>(
      std::vector<std::string>(all.begin(), all.end())));
  return parts;
}

bool Follows(const std::vector<std::string>& topics,
             const eventlog::StoredRecord& record) {
  return std::find(topics.begin(), topics.end(), record.topic) != topics.end();
}

// A bound on lanes (threads) whatever the parts ask.
constexpr int kMaxLanes = 4;

// The first record a lane failed on (none: SIZE_MAX).
struct LaneError {
  size_t record = SIZE_MAX;
  absl::Status status;
};

// Runs `lane(i)` for i in [0, lanes), lane 0 on this thread and each other
// on its own; the error of the earliest record any lane failed on.
LaneError OnLanes(int lanes, const std::function<LaneError(int)>& lane) {
  std::vector<LaneError> errors(lanes);
  std::vector<std::thread> threads;
  for (int i = 1; i < lanes; ++i) {
    threads.emplace_back([&, i] { errors[i] = lane(i); });
  }
  errors[0] = lane(0);
  for (std::thread& t : threads) t.join();
  LaneError first;
  for (LaneError& e : errors) {
    if (e.record < first.record) first = std::move(e);
  }
  return first;
}

}  // namespace

ReportingProjector::ReportingProjector(eventlog::EventLog* log)
    : ReportingProjector(TodaysParts(log)) {}

ReportingProjector::ReportingProjector(
    std::vector<std::unique_ptr<Projector>> parts, std::vector<int> lanes)
    : parts_(std::move(parts)), lane_of_(std::move(lanes)) {
  lane_of_.resize(parts_.size(), 0);
  for (const auto& part : parts_) {
    part_topics_.push_back(part->Topics());
    wallet_parts_.push_back(dynamic_cast<WalletEventPart*>(part.get()));
  }
  for (int& lane : lane_of_) {
    lane = std::clamp(lane, 0, kMaxLanes - 1);
    lanes_ = std::max(lanes_, lane + 1);
  }
}

std::vector<std::string> ReportingProjector::Topics() const {
  std::set<std::string> topics;
  for (const std::vector<std::string>& part : part_topics_) {
    topics.insert(part.begin(), part.end());
  }
  return {topics.begin(), topics.end()};
}

bool ReportingProjector::Decodes(const eventlog::StoredRecord& record) const {
  if (record.topic != wire::kWalletTopic) return false;
  for (size_t i = 0; i < parts_.size(); ++i) {
    if (wallet_parts_[i] != nullptr && Follows(part_topics_[i], record)) {
      return true;
    }
  }
  return false;
}

absl::Status ReportingProjector::ApplyPart(
    size_t i, const eventlog::StoredRecord& record,
    const std::optional<wire::DecodedWalletEvent>& decoded, Txn& txn) {
  if (!Follows(part_topics_[i], record)) return absl::OkStatus();
  if (wallet_parts_[i] == nullptr || record.topic != wire::kWalletTopic) {
    return parts_[i]->Apply(record, txn);
  }
  return wallet_parts_[i]->ApplyWallet(record, *decoded, txn);
}

absl::Status ReportingProjector::Apply(const eventlog::StoredRecord& record,
                                       Txn& txn) {
  // A wallet record is decoded once, for every part that takes it decoded.
  std::optional<wire::DecodedWalletEvent> decoded;
  if (Decodes(record)) {
    ASSIGN_OR_RETURN(decoded, wire::DecodeWalletRecord(record));
  }
  for (size_t i = 0; i < parts_.size(); ++i) {
    RETURN_IF_ERROR(ApplyPart(i, record, decoded, txn));
  }
  return absl::OkStatus();
}

absl::Status ReportingProjector::ApplyLanes(
    const std::vector<eventlog::StoredRecord>& records,
    const std::vector<Txn*>& txns) {
  // The wallet records decoded, each lane a share of them; `limit`: the
  // first that does not decode (nothing from it on is applied).
  std::vector<std::optional<wire::DecodedWalletEvent>> decoded(records.size());
  const LaneError bad_decode = OnLanes(lanes_, [&](int lane) -> LaneError {
    for (size_t r = lane; r < records.size(); r += lanes_) {
      if (!Decodes(records[r])) continue;
      absl::StatusOr<wire::DecodedWalletEvent> d =
          wire::DecodeWalletRecord(records[r]);
      if (!d.ok()) return {r, d.status()};
      decoded[r] = *std::move(d);
    }
    return {};
  });
  const size_t limit = std::min(bad_decode.record, records.size());
  const LaneError bad_apply = OnLanes(lanes_, [&](int lane) -> LaneError {
    for (size_t r = 0; r < limit; ++r) {
      for (size_t i = 0; i < parts_.size(); ++i) {
        if (lane_of_[i] != lane) continue;
        absl::Status s = ApplyPart(i, records[r], decoded[r], *txns[lane]);
        if (!s.ok()) return {r, std::move(s)};
      }
    }
    return {};
  });
  const LaneError& first =
      bad_apply.record < bad_decode.record ? bad_apply : bad_decode;
  if (first.status.ok()) return absl::OkStatus();
  return ApplyError(records[first.record], first.status);
}

}  // namespace banca::projection
