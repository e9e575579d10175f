// The reporting service's projections (services/reporting) as one
// Projector over one store: each part keeps its own keys and follows its
// own topics; a record goes to every part that follows its topic, a wallet
// record decoded once for all the parts that take it decoded
// (WalletEventPart); any other part gets the raw record (Apply). Today's
// parts: the wallet's (balances, statements, holds, totals:
// wallet_projection.h), the players' games (games_projection.h) and the
// histories of every hand and round (history_projection.h), and the
// finance sums and event hashes per 15-minute bucket (finance_projection.h,
// which follows every topic the others do). Each part
// is a pure function of the records, so the whole store rebuilds from offset 0
// to the same state hash.
#ifndef BANCA_LIBS_PROJECTION_REPORTING_PROJECTION_H_
#define BANCA_LIBS_PROJECTION_REPORTING_PROJECTION_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libs/projection/projector.h"
#include "libs/projection/wallet_event_part.h"

namespace banca::projection {

class ReportingProjector final : public Projector {
 public:
  // `log`: the log the projection follows, from which the histories
  // rebuild their tables in memory when the store resumes past offset 0
  // (history_projection.h); null only for a rebuild from offset 0.
  explicit ReportingProjector(eventlog::EventLog* log = nullptr);
  // These parts instead of today's (tests; a part to try alone), parts[i]
  // on lane lanes[i] in a bulk catch-up (empty: one lane).
  explicit ReportingProjector(std::vector<std::unique_ptr<Projector>> parts,
                              std::vector<int> lanes = {});
  std::vector<std::string> Topics() const override;
  absl::Status Apply(const eventlog::StoredRecord& record, Txn& txn) override;
  // Lanes (projector.h) as the constructor was given them. Today's parts
  // share one: on two (the wallet's and the finance part's on one, the
  // games' on the other) a bulk catch-up of 1,000,000 events used no less
  // CPU on this shared machine and peaked at 1.1 GB instead of 0.94 GB
  // (docs/performance.md, "Bulk catch-up").
  int Lanes() const override { return lanes_; }
  absl::Status ApplyLanes(const std::vector<eventlog::StoredRecord>& records,
                          const std::vector<Txn*>& txns) override;

 private:
  // Part i's application of `record` (`decoded`: the record decoded, when
  // it is a wallet record and a part takes it so), if it follows its topic.
  absl::Status ApplyPart(size_t i, const eventlog::StoredRecord& record,
                         const std::optional<wire::DecodedWalletEvent>& decoded,
                         Txn& txn);
  // Whether some part takes `record` decoded.
  bool Decodes(const eventlog::StoredRecord& record) const;
  std::vector<std::unique_ptr<Projector>> parts_;
  std::vector<std::vector<std::string>> part_topics_;  // parts_[i]'s
  // parts_[i] when it takes wallet records decoded, else null.
  std::vector<WalletEventPart*> wallet_parts_;
  std::vector<int> lane_of_;  // parts_[i]'s lane
  int lanes_ = 1;
};

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_REPORTING_PROJECTION_H_
