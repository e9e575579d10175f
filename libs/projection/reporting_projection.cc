#include "libs/projection/reporting_projection.h"

#include <algorithm>
#include <set>

#include "libs/common/status_macros.h"
#include "libs/projection/finance_projection.h"
#include "libs/projection/games_projection.h"
#include "libs/projection/history_projection.h"
#include "libs/projection/wallet_projection.h"

namespace banca::projection {

ReportingProjector::ReportingProjector(eventlog::EventLog* log) {
  parts_.push_back(std::make_unique<WalletProjector>());
  parts_.push_back(std::make_unique<GamesProjector>());
  parts_.push_back(std::make_unique<HistoryProjector>(log));
  // The finance part hashes the records of every topic the others follow,
  // so it comes last, once their topics are known.
  std::set<std::string> all;
  for (const auto& part : parts_) {
    for (std::string& topic : part->Topics()) all.insert(std::move(topic));
  }
  parts_.push_back(std::make_unique<FinanceProjector>(
      std::vector<std::string>(all.begin(), all.end())));
  for (const auto& part : parts_) part_topics_.push_back(part->Topics());
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
  for (size_t i = 0; i < parts_.size(); ++i) {
    const std::vector<std::string>& topics = part_topics_[i];
    if (std::find(topics.begin(), topics.end(), record.topic) == topics.end()) {
      continue;
    }
    RETURN_IF_ERROR(parts_[i]->Apply(record, txn));
  }
  return absl::OkStatus();
}

}  // namespace banca::projection
