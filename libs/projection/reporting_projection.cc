#include "libs/projection/reporting_projection.h"

#include <algorithm>
#include <set>

#include "libs/common/status_macros.h"
#include "libs/projection/games_projection.h"
#include "libs/projection/wallet_projection.h"

namespace banca::projection {

ReportingProjector::ReportingProjector() {
  parts_.push_back(std::make_unique<WalletProjector>());
  parts_.push_back(std::make_unique<GamesProjector>());
}

std::vector<std::string> ReportingProjector::Topics() const {
  std::set<std::string> topics;
  for (const auto& part : parts_) {
    for (std::string& t : part->Topics()) topics.insert(std::move(t));
  }
  return {topics.begin(), topics.end()};
}

absl::Status ReportingProjector::Apply(const eventlog::StoredRecord& record,
                                       Txn& txn) {
  for (const auto& part : parts_) {
    const std::vector<std::string> topics = part->Topics();
    if (std::find(topics.begin(), topics.end(), record.topic) == topics.end()) {
      continue;
    }
    RETURN_IF_ERROR(part->Apply(record, txn));
  }
  return absl::OkStatus();
}

}  // namespace banca::projection
