#include "tools/banca/request_audit.h"

#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/wallet_events.h"

namespace banca::cli {

void AddProblem(std::vector<std::string>& problems, std::string what) {
  if (problems.size() < kMaxAuditProblems) {
    problems.push_back(std::move(what));
  } else if (problems.size() == kMaxAuditProblems) {
    problems.push_back("… more problems not shown");
  }
}

int Partitions(eventlog::EventLog& log, std::string_view topic) {
  absl::StatusOr<int> n = log.PartitionCount(topic);
  return n.ok() ? *n : 0;  // no topic: nothing logged there
}

std::string Postings(const v1::LedgerTransaction& tx) {
  std::string out;
  for (const v1::Posting& p : tx.postings()) {
    absl::StrAppend(&out, p.account(), ":", p.amount_minor(), ";");
  }
  return out;
}

std::optional<int64_t> Sum(const v1::LedgerTransaction& tx) {
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) {
    if (__builtin_add_overflow(sum, p.amount_minor(), &sum)) {
      return std::nullopt;
    }
  }
  return sum;
}

int64_t PostingTo(const v1::LedgerTransaction& tx, std::string_view account) {
  int64_t sum = 0;
  for (const v1::Posting& p : tx.postings()) {
    if (p.account() == account &&
        __builtin_add_overflow(sum, p.amount_minor(), &sum)) {
      return std::numeric_limits<int64_t>::min();  // matches no real amount
    }
  }
  return sum;
}

namespace {

absl::StatusOr<std::vector<int64_t>> Positions(eventlog::EventLog& log,
                                               const std::string& group,
                                               std::string_view topic,
                                               int partitions) {
  std::vector<int64_t> positions(partitions, 0);
  for (int p = 0; p < partitions; ++p) {
    absl::StatusOr<int64_t> committed = log.CommittedOffset(group, topic, p);
    if (!committed.ok()) return committed.status();
    positions[p] = *committed;
  }
  return positions;
}

}  // namespace

absl::StatusOr<ReaderPositions> ReaderPositions::Load(eventlog::EventLog& log,
                                                      std::string_view group,
                                                      std::string_view topic) {
  ReaderPositions positions;
  const int partitions = Partitions(log, topic);
  absl::StatusOr<std::vector<int64_t>> single =
      Positions(log, std::string(group), topic, partitions);
  if (!single.ok()) return single.status();
  positions.single_ = *std::move(single);
  const int wallet_partitions = Partitions(log, wallet::kWalletTopic);
  for (int w = 0; w < wallet_partitions; ++w) {
    absl::StatusOr<std::vector<int64_t>> of_w =
        Positions(log, absl::StrCat(ToAbsl(group), ".", w), topic, partitions);
    if (!of_w.ok()) return of_w.status();
    positions.per_wallet_partition_.push_back(*std::move(of_w));
  }
  return positions;
}

bool ReaderPositions::Read(std::string_view owner, int partition,
                           int64_t offset) const {
  auto past = [&](const std::vector<int64_t>& of) {
    return partition >= 0 && partition < static_cast<int>(of.size()) &&
           offset < of[partition];
  };
  if (past(single_)) return true;
  if (per_wallet_partition_.empty()) return false;
  const int w = wallet::OwnershipPartition(
      owner, static_cast<int>(per_wallet_partition_.size()));
  return past(per_wallet_partition_[w]);
}

}  // namespace banca::cli
