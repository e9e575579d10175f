// What `banca audit verify`'s checks of the tables' money requests
// (banca.table.events and their copies on banca.table.requests:
// table_audit.h; banca.banked.events and banca.banked.requests:
// banked_audit.h) and of the tournaments' (banca.tournament.events and
// banca.tournament.requests: tournament_audit.h) share.
//
// ReaderPositions: how far the wallet has carried out a request topic, by
// its readers' committed positions. A single wallet commits one group
// ("<group>"); wallets in a consumer group commit one per wallet partition
// ("<group>.<p>"), each carrying out the requests whose deciding owner is on p
// (services/wallet/table_requests.cc, PollRequestsPerPartition). A request
// before the position of the reader that decides it was read: it must have
// been carried out, or quarantined.
#ifndef BANCA_SERVICES_AUDIT_REQUEST_AUDIT_H_
#define BANCA_SERVICES_AUDIT_REQUEST_AUDIT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "banca/v1/ledger.pb.h"
#include "banca/v1/wallet.pb.h"
#include "google/protobuf/message.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/event_log.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/tournament_codec.h"
#include "libs/wire/wallet_codec.h"
#include "services/audit/audit_problem.h"
#include "services/audit/request_counts.h"

namespace banca::audit {

// What a problem quotes of a wallet event (wire::DescribeWalletEvent).
inline constexpr size_t kMaxDescribed = 120;

// The partitions of `topic`; 0 when it does not exist (nothing logged).
int Partitions(eventlog::EventLog& log, std::string_view topic);

// Every record of `topic`, partition by partition from offset 0, to
// `visit`. An error only when the log cannot be read.
absl::Status ReadTopic(
    eventlog::EventLog& log, std::string_view topic,
    const std::function<void(int partition, const eventlog::StoredRecord&)>&
        visit);

// A transaction's postings, "account:amount;...", to compare what was
// asked with what was posted.
std::string Postings(const v1::LedgerTransaction& tx);
// The sum of the postings; nullopt when it overflows (not money then).
std::optional<int64_t> Sum(const v1::LedgerTransaction& tx);
// What `tx` posts to `account` (summed; INT64_MIN when that overflows).
int64_t PostingTo(const v1::LedgerTransaction& tx, std::string_view account);
using wire::TransactionsOf;  // libs/wire/wallet_codec.h

class ReaderPositions {
 public:
  // The positions of `group` (and of "<group>.<p>" for every partition p of
  // the wallet topic) on every partition of `topic`.
  static absl::StatusOr<ReaderPositions> Load(eventlog::EventLog& log,
                                              std::string_view group,
                                              std::string_view topic);

  // Whether the reader that decides for `owner` has moved past `offset` of
  // `partition`.
  bool Read(std::string_view owner, int partition, int64_t offset) const;

 private:
  // [topic partition]
  std::vector<int64_t> single_;
  // [wallet partition][topic partition]
  std::vector<std::vector<int64_t>> per_wallet_partition_;
};

// A message's bytes in a deterministic form, to compare two copies.
std::string CanonicalBytes(const google::protobuf::Message& message);

// The tables' money requests as the wallet reads them: the copies on
// banca.table.requests or banca.banked.requests (services/table/
// table_codec.h, kTableRequestsTopic), by the event id of the table event
// each copies. Every money request on a table topic must have exactly one
// copy, with its content; whether the wallet has read it is judged by the
// copy's position, where the wallet reads.
class RequestCopies {
 public:
  struct Copy {
    int partition = 0;
    int64_t offset = 0;
    size_t content_hash = 0;
    bool matched = false;
  };
  // A copy's event id and canonical content (CanonicalBytes), or why the
  // record is not a copy.
  using Decode =
      std::function<absl::StatusOr<std::pair<std::string, std::string>>(
          const eventlog::StoredRecord&)>;

  // Reads every copy on `topic`; records that do not decode and event ids
  // copied twice are problems (`label` starts each).
  static absl::StatusOr<RequestCopies> Load(eventlog::EventLog& log,
                                            std::string_view topic,
                                            std::string_view label,
                                            const Decode& decode,
                                            Problems& problems);

  // The copy of table event `event_id`, whose content must be `content`;
  // nullptr, with a problem, when it has none or another content.
  const Copy* Match(const std::string& event_id, const std::string& content,
                    Problems& problems);
  // A problem for every copy of an event no table topic holds.
  void ReportUnmatched(Problems& problems) const;

 private:
  std::string topic_;
  std::string label_;
  std::map<std::string, Copy> copies_;
};

// The last sequence of every stream of a table topic: each event must
// follow its stream's last one by exactly 1.
class StreamSequences {
 public:
  // A problem ("<label>: stream ...") when `envelope` repeats or skips.
  void Check(const v1::EventEnvelope& envelope, std::string_view label,
             Problems& problems);

 private:
  std::map<std::string, uint64_t> last_;
};

// Reads a table topic (topics.h TableTopics: the poker or the banked
// tables') from offset 0 with its codec's `decode` (DecodeTableRecord,
// DecodeBankedRecord), counting its records in counts.events. A record
// that does not decode and a stream whose sequence repeats or skips are
// problems ("<label>: ..."); every event that decodes goes to `visit`, in
// order. An error only when the log cannot be read.
template <typename Decoded>
absl::Status WalkTableTopic(
    eventlog::EventLog& log, const wire::TableTopics& topics,
    std::string_view label,
    absl::StatusOr<Decoded> (*decode)(const eventlog::StoredRecord&),
    RequestCounts& counts, const std::function<void(const Decoded&)>& visit) {
  Problems& problems = counts.problems;
  StreamSequences sequences;
  return ReadTopic(
      log, topics.topic, [&](int p, const eventlog::StoredRecord& record) {
        ++counts.events;
        absl::StatusOr<Decoded> decoded = decode(record);
        if (!decoded.ok()) {
          AddProblem(
              problems,
              AtRecord("", topics.topic, p, record.offset,
                       absl::StrCat(ToAbsl(label), ": ", ToAbsl(topics.topic),
                                    "/", p, "@", record.offset, ": ",
                                    decoded.status().message())));
          return;
        }
        sequences.Check(decoded->envelope, label, problems);
        visit(*decoded);
      });
}

// Where the wallet reads a table topic family's money requests: the
// copies on topics.requests_topic, and how far its readers
// (topics.requests_group) have carried them out.
struct RequestTopic {
  ReaderPositions positions;
  RequestCopies copies;
};

// Loads the RequestTopic of `topics`, decoding the copies with the table
// codec's `decode`: a record that is not a money request is a problem too
// (RequestCopies::Load).
template <typename Decoded>
absl::StatusOr<RequestTopic> LoadRequestTopic(
    eventlog::EventLog& log, const wire::TableTopics& topics,
    std::string_view label,
    absl::StatusOr<Decoded> (*decode)(const eventlog::StoredRecord&),
    Problems& problems) {
  ASSIGN_OR_RETURN(
      ReaderPositions positions,
      ReaderPositions::Load(log, topics.requests_group, topics.requests_topic));
  ASSIGN_OR_RETURN(
      RequestCopies copies,
      RequestCopies::Load(
          log, topics.requests_topic, label,
          [decode](const eventlog::StoredRecord& record)
              -> absl::StatusOr<std::pair<std::string, std::string>> {
            ASSIGN_OR_RETURN(Decoded d, decode(record));
            if (!wire::IsMoneyRequest(d.event)) {
              return absl::DataLossError("not a money request");
            }
            return std::make_pair(d.envelope.event_id(),
                                  CanonicalBytes(d.event));
          },
          problems));
  return RequestTopic{std::move(positions), std::move(copies)};
}

// Where on a requests topic the records the wallet quarantined are:
// (partition, offset).
using Quarantined = std::set<std::pair<int, int64_t>>;

// Reads the wallet's events from offset 0: its quarantines of
// `requests_topic`'s records go to `quarantined`, and every event to
// `visit` with its partition and offset. A record that does not decode is
// passed over: the wallet topic's own check reports it (audit.h). An error
// only when the log cannot be read.
absl::Status WalkWalletEvents(
    eventlog::EventLog& log, std::string_view requests_topic,
    Quarantined& quarantined,
    const std::function<void(int partition, int64_t offset,
                             const v1::WalletEvent&)>& visit);

}  // namespace banca::audit

#endif  // BANCA_SERVICES_AUDIT_REQUEST_AUDIT_H_
