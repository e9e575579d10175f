#include "services/audit/request_audit.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/wire/ownership.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"

namespace banca::audit {

std::string CanonicalBytes(const google::protobuf::Message& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return out;
}

absl::StatusOr<RequestCopies> RequestCopies::Load(eventlog::EventLog& log,
                                                  std::string_view topic,
                                                  std::string_view label,
                                                  const Decode& decode,
                                                  Problems& problems) {
  RequestCopies copies;
  copies.topic_ = std::string(topic);
  copies.label_ = std::string(label);
  RETURN_IF_ERROR(
      ReadTopic(log, topic, [&](int p, const eventlog::StoredRecord& record) {
        absl::StatusOr<std::pair<std::string, std::string>> copy =
            decode(record);
        if (!copy.ok()) {
          AddProblem(problems,
                     AtRecord("", topic, p, record.offset,
                              absl::StrCat(ToAbsl(label), ": ", ToAbsl(topic),
                                           "/", p, "@", record.offset, ": ",
                                           copy.status().message())));
          return;
        }
        const auto [it, fresh] = copies.copies_.try_emplace(
            copy->first, Copy{p, record.offset,
                              std::hash<std::string>()(copy->second), false});
        if (!fresh) {
          AddProblem(problems,
                     AtRecord("", topic, p, record.offset,
                              absl::StrCat(ToAbsl(label), ": event ",
                                           copy->first, " is copied to ",
                                           ToAbsl(topic), " twice")));
        }
      }));
  return copies;
}

const RequestCopies::Copy* RequestCopies::Match(const std::string& event_id,
                                                const std::string& content,
                                                Problems& problems) {
  auto it = copies_.find(event_id);
  if (it == copies_.end()) {
    AddProblem(problems, absl::StrCat(label_, ": the money request ", event_id,
                                      " has no copy on ", topic_,
                                      ": the wallet never sees it"));
    return nullptr;
  }
  it->second.matched = true;
  if (it->second.content_hash != std::hash<std::string>()(content)) {
    AddProblem(problems,
               AtRecord("", topic_, it->second.partition, it->second.offset,
                        absl::StrCat(label_, ": the copy of ", event_id, " on ",
                                     topic_,
                                     " asks for another "
                                     "thing than the table event")));
    return nullptr;
  }
  return &it->second;
}

void RequestCopies::ReportUnmatched(Problems& problems) const {
  for (const auto& [event_id, copy] : copies_) {
    if (copy.matched) continue;
    AddProblem(
        problems,
        AtRecord("", topic_, copy.partition, copy.offset,
                 absl::StrCat(label_, ": ", topic_, "/", copy.partition, "@",
                              copy.offset, " copies event ", event_id,
                              ", which no table logged as a money "
                              "request")));
  }
}

int Partitions(eventlog::EventLog& log, std::string_view topic) {
  absl::StatusOr<int> n = log.PartitionCount(topic);
  return n.ok() ? *n : 0;  // no topic: nothing logged there
}

absl::Status ReadTopic(
    eventlog::EventLog& log, std::string_view topic,
    const std::function<void(int partition, const eventlog::StoredRecord&)>&
        visit) {
  for (int p = 0; p < Partitions(log, topic); ++p) {
    RETURN_IF_ERROR(
        eventlog::ReadPartitionToEnd(log, topic, p, 0,
                                     [&](const eventlog::StoredRecord& record) {
                                       visit(p, record);
                                       return absl::OkStatus();
                                     })
            .status());
  }
  return absl::OkStatus();
}

void StreamSequences::Check(const v1::EventEnvelope& envelope,
                            std::string_view label, Problems& problems) {
  uint64_t& last = last_[envelope.stream_id()];
  if (envelope.sequence() != last + 1) {
    AuditProblem problem;
    problem.message =
        absl::StrCat(ToAbsl(label), ": stream ", envelope.stream_id(),
                     ": sequence ", envelope.sequence(), " follows ", last,
                     envelope.sequence() <= last ? " (repeat)" : " (gap)");
    problem.stream = envelope.stream_id();
    AddProblem(problems, std::move(problem));
  }
  last = std::max(last, envelope.sequence());
}

absl::Status WalkWalletEvents(
    eventlog::EventLog& log, std::string_view requests_topic,
    Quarantined& quarantined,
    const std::function<void(int partition, int64_t offset,
                             const v1::WalletEvent&)>& visit) {
  return ReadTopic(log, wire::kWalletTopic,
                   [&](int p, const eventlog::StoredRecord& record) {
                     absl::StatusOr<wire::DecodedWalletEvent> decoded =
                         wire::DecodeWalletRecord(record);
                     if (!decoded.ok()) return;  // the wallet check says so
                     const v1::WalletEvent& e = decoded->event;
                     if (e.has_request_quarantined() &&
                         e.request_quarantined().topic() == requests_topic) {
                       quarantined.insert({e.request_quarantined().partition(),
                                           e.request_quarantined().offset()});
                     }
                     visit(p, record.offset, e);
                   });
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
    ASSIGN_OR_RETURN(int64_t committed, log.CommittedOffset(group, topic, p));
    positions[p] = committed;
  }
  return positions;
}

}  // namespace

absl::StatusOr<ReaderPositions> ReaderPositions::Load(eventlog::EventLog& log,
                                                      std::string_view group,
                                                      std::string_view topic) {
  ReaderPositions positions;
  const int partitions = Partitions(log, topic);
  ASSIGN_OR_RETURN(std::vector<int64_t> single,
                   Positions(log, std::string(group), topic, partitions));
  positions.single_ = std::move(single);
  const int wallet_partitions = Partitions(log, wire::kWalletTopic);
  for (int w = 0; w < wallet_partitions; ++w) {
    ASSIGN_OR_RETURN(
        std::vector<int64_t> of_w,
        Positions(log, absl::StrCat(ToAbsl(group), ".", w), topic, partitions));
    positions.per_wallet_partition_.push_back(std::move(of_w));
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
  const int w = wire::OwnershipPartition(
      owner, static_cast<int>(per_wallet_partition_.size()));
  return past(per_wallet_partition_[w]);
}

}  // namespace banca::audit
