#include "libs/projection/reporting_projection.h"

#include <algorithm>
#include <optional>
#include <set>
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

}  // namespace

ReportingProjector::ReportingProjector(eventlog::EventLog* log)
    : ReportingProjector(TodaysParts(log)) {}

ReportingProjector::ReportingProjector(
    std::vector<std::unique_ptr<Projector>> parts)
    : parts_(std::move(parts)) {
  for (const auto& part : parts_) {
    part_topics_.push_back(part->Topics());
    wallet_parts_.push_back(dynamic_cast<WalletEventPart*>(part.get()));
  }
}

std::vector<std::string> ReportingProjector::Topics() const {
  std::set<std::string> topics;
  for (const std::vector<std::string>& part : part_topics_) {
    topics.insert(part.begin(), part.end());
  }
  return {topics.begin(), topics.end()};
}

absl::Status ReportingProjector::Apply(const eventlog::StoredRecord& record,
                                       Txn& txn) {
  // A wallet record is decoded once, for every part that takes it decoded.
  std::optional<wire::DecodedWalletEvent> decoded;
  for (size_t i = 0; i < parts_.size(); ++i) {
    const std::vector<std::string>& topics = part_topics_[i];
    if (std::find(topics.begin(), topics.end(), record.topic) == topics.end()) {
      continue;
    }
    if (wallet_parts_[i] == nullptr || record.topic != wire::kWalletTopic) {
      RETURN_IF_ERROR(parts_[i]->Apply(record, txn));
      continue;
    }
    if (!decoded.has_value()) {
      ASSIGN_OR_RETURN(decoded, wire::DecodeWalletRecord(record));
    }
    RETURN_IF_ERROR(wallet_parts_[i]->ApplyWallet(record, *decoded, txn));
  }
  return absl::OkStatus();
}

}  // namespace banca::projection
