#include "libs/eventlog/kafka_log.h"

#include <librdkafka/rdkafka.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/group_member.h"
#include "libs/eventlog/journal_format.h"
#include "libs/eventlog/kafka_topic_check.h"
#include "libs/eventlog/validation.h"

namespace banca::eventlog {
namespace {

using ::banca::ToAbsl;
using Clock = std::chrono::steady_clock;

// One Read returns at most this many records / about this many bytes, like
// the embedded backend.
constexpr size_t kMaxReadRecords = 100'000;
constexpr size_t kMaxReadBytes = 16 << 20;
// Records fetched per rd_kafka_consume_batch call.
constexpr size_t kConsumeChunk = 1024;
// Lanes are a bit mask (Pending::lanes).
constexpr int kMaxProducers = 64;
// A lane looking for work looks at most this many queued batches, so a long
// queue does not cost every transaction a long scan (stopping early only
// takes less into a transaction; it never breaks the order).
constexpr size_t kMaxScan = 50'000;
// A topic config that lets a record at kMaxRecordBytes (plus Kafka's batch
// and header overhead) through; the broker's default is ~1 MiB total.
constexpr int kTopicMaxMessageBytes = kMaxRecordBytes + (256 << 10);
// Properties banca's guarantees rest on; passthrough may not change them.
constexpr std::string_view kReservedProperties[] = {
    "acks",
    "request.required.acks",
    "enable.idempotence",
    "transactional.id",
    "isolation.level",
    "enable.auto.commit",
    "enable.partition.eof",
    "bootstrap.servers",
};

absl::StatusCode CodeFor(rd_kafka_resp_err_t err) {
  switch (err) {
    case RD_KAFKA_RESP_ERR_NO_ERROR:
      return absl::StatusCode::kOk;
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
      return absl::StatusCode::kNotFound;
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR__INVALID_ARG:
    case RD_KAFKA_RESP_ERR_INVALID_PARTITIONS:
    case RD_KAFKA_RESP_ERR_INVALID_REPLICATION_FACTOR:
    case RD_KAFKA_RESP_ERR_INVALID_REPLICA_ASSIGNMENT:
    case RD_KAFKA_RESP_ERR_INVALID_CONFIG:
    case RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION:
    case RD_KAFKA_RESP_ERR_POLICY_VIOLATION:
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE:
      return absl::StatusCode::kInvalidArgument;
    case RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS:
      return absl::StatusCode::kAlreadyExists;
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
      return absl::StatusCode::kPermissionDenied;
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
    case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
      return absl::StatusCode::kUnauthenticated;
    case RD_KAFKA_RESP_ERR__FENCED:
    case RD_KAFKA_RESP_ERR_PRODUCER_FENCED:
    case RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH:
    case RD_KAFKA_RESP_ERR__STATE:
    // A group member's offset commit from a generation the group has left
    // (KIP-447 fencing): the member must Poll before it appends again.
    case RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION:
    case RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID:
    case RD_KAFKA_RESP_ERR_FENCED_INSTANCE_ID:
    case RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS:
      return absl::StatusCode::kFailedPrecondition;
    default:
      // Transport, timeouts, leaders moving, coordinators loading: all
      // worth retrying.
      return absl::StatusCode::kUnavailable;
  }
}

absl::Status ErrStatus(rd_kafka_resp_err_t err, std::string_view what) {
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return absl::OkStatus();
  return absl::Status(CodeFor(err), absl::StrCat("kafka: ", ToAbsl(what), ": ",
                                                 rd_kafka_err2name(err), ": ",
                                                 rd_kafka_err2str(err)));
}

// Consumes `error`.
absl::Status ErrorStatus(rd_kafka_error_t* error, std::string_view what) {
  if (error == nullptr) return absl::OkStatus();
  absl::Status s = absl::Status(
      CodeFor(rd_kafka_error_code(error)),
      absl::StrCat("kafka: ", ToAbsl(what), ": ", rd_kafka_error_name(error),
                   ": ", rd_kafka_error_string(error)));
  rd_kafka_error_destroy(error);
  return s;
}

// Errors of an offset query for a partition known to exist that a broker
// restart or a leader election causes, and that pass on their own.
bool IsTransientOffsetError(rd_kafka_resp_err_t err) {
  switch (err) {
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE:
      return true;
    default:
      return false;
  }
}

// Errors of a committed-offset query that pass on their own: a transaction
// that carried offsets for the group still writing its markers, and the
// group's coordinator moving or loading (a fresh cluster creates
// __consumer_offsets on the first group request and loads it; a broker
// restart or failover moves the coordinator).
bool IsTransientCommittedError(rd_kafka_resp_err_t err) {
  switch (err) {
    case RD_KAFKA_RESP_ERR_UNSTABLE_OFFSET_COMMIT:
    case RD_KAFKA_RESP_ERR_NOT_COORDINATOR:
    case RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS:
    case RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR__WAIT_COORD:
      return true;
    default:
      return false;
  }
}

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - Clock::now())
                        .count();
  return static_cast<int>(std::max<int64_t>(left, 0));
}

// Owns an rd_kafka_conf_t until rd_kafka_new takes it.
class Conf {
 public:
  Conf() : conf_(rd_kafka_conf_new()) {}
  ~Conf() {
    if (conf_ != nullptr) rd_kafka_conf_destroy(conf_);
  }
  Conf(const Conf&) = delete;
  Conf& operator=(const Conf&) = delete;

  void Set(std::string_view key, std::string_view value) {
    if (!status_.ok()) return;
    char err[512];
    const std::string k(key), v(value);
    if (rd_kafka_conf_set(conf_, k.c_str(), v.c_str(), err, sizeof(err)) !=
        RD_KAFKA_CONF_OK) {
      status_ = absl::InvalidArgumentError(
          absl::StrCat("kafka property ", k, ": ", err));
    }
  }
  rd_kafka_conf_t* get() { return conf_; }

  // rd_kafka_new with this configuration.
  absl::StatusOr<rd_kafka_t*> New(rd_kafka_type_t type) {
    RETURN_IF_ERROR(status_);
    char err[512];
    rd_kafka_t* rk = rd_kafka_new(type, conf_, err, sizeof(err));
    if (rk == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("kafka client: ", err));
    }
    conf_ = nullptr;  // owned by rk now
    return rk;
  }

 private:
  rd_kafka_conf_t* conf_;
  absl::Status status_;
};

// The last error line librdkafka logged for a client (a refused SASL
// login, a failed TLS handshake), so that a connection that fails says
// why; every line is still printed as librdkafka prints it.
class ClientErrors {
 public:
  void Note(const char* line) {
    std::lock_guard<std::mutex> lock(mu_);
    last_ = line;
  }
  std::string Last() {
    std::lock_guard<std::mutex> lock(mu_);
    return last_;
  }

 private:
  std::mutex mu_;
  std::string last_ ABSL_GUARDED_BY(mu_);
};

// librdkafka's log lines as banca's (log_line.h: one JSON object a line,
// with level and time), not its own "%3|…" format. `level` is syslog's.
void LogKafkaLine(const rd_kafka_t* rk, int level, const char* fac,
                  const char* line) {
  const LogLevel ours = level <= 3   ? LogLevel::kError
                        : level == 4 ? LogLevel::kWarning
                        : level <= 6 ? LogLevel::kInfo
                                     : LogLevel::kDebug;
  Log(ours, "kafka", line != nullptr ? line : "",
      {{"facility", fac != nullptr ? fac : ""}, {"client", rd_kafka_name(rk)}});
}

// A log callback for a client whose opaque is its ClientErrors.
void PrintAndNoteErrors(const rd_kafka_t* rk, int level, const char* fac,
                        const char* line) {
  LogKafkaLine(rk, level, fac, line);
  constexpr int kLogErr = 3;  // syslog's LOG_ERR
  if (level <= kLogErr) {
    static_cast<ClientErrors*>(rd_kafka_opaque(rk))->Note(line);
  }
}

// Where the delivery report of one produced record lands. Written by the
// delivery callback, which runs on the committer thread (in flush).
struct DeliverySlot {
  bool delivered = false;
  rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
  int64_t offset = -1;
};

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
  auto* slot = static_cast<DeliverySlot*>(m->_private);
  if (slot == nullptr) return;
  slot->delivered = true;
  slot->err = m->err;
  slot->offset = m->offset;
}

using GroupMetadata = std::shared_ptr<rd_kafka_consumer_group_metadata_t>;

// An AppendAsync call waiting for (or in) a transaction.
struct Pending {
  std::vector<Record> records;
  std::vector<int> partitions;
  std::vector<OffsetCommit> commits;
  // A group member's append: its commits go with the member's group
  // metadata (generation and member id) as of its last Poll, so the
  // coordinator refuses them, and the transaction aborts, once the group
  // has moved on. Only batches with the same metadata share a
  // transaction, so one member's fencing never fails another's batch.
  GroupMetadata fence;
  // Bit k: the batch has a record, or an offset commit, for a partition
  // that lane k owns.
  uint64_t lanes = 0;
  AppendCallback done;
  size_t bytes = 0;
  absl::Status status;
  std::vector<Position> positions;
};

// A partition the reader has started: librdkafka prefetches it into its own
// queue, so sequential Reads cost no round trip.
struct ReadPartition {
  std::mutex mu;
  rd_kafka_topic_t* rkt = nullptr;  // owned by KafkaLog::reader_topics_
  int partition = 0;
  bool started = false;
  // A Read at an offset in [next_lo, next_hi] continues where the previous
  // one stopped (nothing readable lies between); anything else seeks.
  int64_t next_lo = -1;
  int64_t next_hi = -1;
  // The highest end-of-partition librdkafka reported since the last start
  // or seek. It reports each end offset once, so a Read that continues
  // after one must remember it: all records before it were consumed.
  int64_t eof_at = -1;
  uint64_t last_used = 0;
};

// True when `rk` failed fatally because a newer producer with its
// transactional.id exists.
bool FencedByNewerInstance(rd_kafka_t* rk) {
  if (rk == nullptr) return false;
  char why[256];
  switch (rd_kafka_fatal_error(rk, why, sizeof(why))) {
    case RD_KAFKA_RESP_ERR__FENCED:
    case RD_KAFKA_RESP_ERR_PRODUCER_FENCED:
    case RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH:
      return true;
    default:
      return false;
  }
}

// One transactional producer. Used only by its lane's thread (after Init).
struct Producer {
  std::string transactional_id;
  rd_kafka_t* rk = nullptr;
  // A fatal error or a failed abort: the next transaction first replaces
  // the producer, which fences the old one and aborts what it left open.
  bool broken = false;
  // Set by RunTransaction when commit_transaction failed in a way that
  // leaves the outcome unknown.
  bool outcome_unknown = false;
  // Topics the producer has metadata for, with the handles that keep it.
  absl::flat_hash_map<std::string, rd_kafka_topic_t*> topics;
};

// A lane owns a subset of the partitions and runs one transaction at a
// time on one of its producers, taking them in turn.
struct Lane {
  int index = 0;
  // The lane's thread only (after Init).
  std::vector<std::unique_ptr<Producer>> producers;
  size_t turn = 0;
  // Guarded by KafkaLog::mu_: the lanes the transaction in flight touches
  // (0 when idle), and whether something changed that may let this lane
  // take work it could not take before.
  uint64_t busy = 0;
  bool poked = false;
  std::condition_variable cv;
  std::thread thread;
};

// Checks the batch's shape and adds its approximate size to `bytes`. The
// same bounds as the embedded journal's, so a batch one backend takes the
// other takes too.
absl::Status SizeBatch(const std::vector<Record>& records,
                       const std::vector<OffsetCommit>& commits,
                       size_t& bytes) {
  if (records.size() + commits.size() > kMaxBatchRecords) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch of ", records.size() + commits.size(),
                     " records and commits exceeds ", kMaxBatchRecords));
  }
  for (const Record& r : records) {
    RETURN_IF_ERROR(internal::ValidateRecord(r));
    bytes += r.topic.size() + r.key.size() + r.value.size() + 64;
    for (const Header& h : r.headers) bytes += h.key.size() + h.value.size();
  }
  for (const OffsetCommit& c : commits) {
    RETURN_IF_ERROR(internal::ValidateCommit(c));
    bytes += c.group.size() + c.topic.size() + 32;
  }
  if (bytes > internal::kMaxBatchBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch of ~", bytes, " bytes exceeds ", internal::kMaxBatchBytes));
  }
  return absl::OkStatus();
}

// The options' bounds, and the extra properties' shape (none may set what
// banca sets itself).
absl::Status CheckOptions(const KafkaLogOptions& options) {
  if (options.bootstrap_servers.empty()) {
    return absl::InvalidArgumentError("kafka: no bootstrap servers");
  }
  if (options.request_timeout_ms <= 0 || options.transaction_timeout_ms <= 0 ||
      options.append_timeout_ms < 0 || options.fetch_wait_max_ms < 0 ||
      options.max_transaction_records == 0 ||
      options.max_transaction_bytes == 0 ||
      options.max_reader_partitions == 0 || options.producers < 1 ||
      options.producers > kMaxProducers) {
    return absl::InvalidArgumentError("kafka: bad timeouts or limits");
  }
  for (const std::string& p : options.properties) {
    const size_t eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("kafka property must be key=value, got \"", p, "\""));
    }
    const std::string_view key = std::string_view(p).substr(0, eq);
    for (std::string_view reserved : kReservedProperties) {
      if (key == reserved) {
        return absl::InvalidArgumentError(absl::StrCat(
            "kafka property ", ToAbsl(key), " is set by banca itself"));
      }
    }
  }
  return absl::OkStatus();
}

// One Read of a partition: from `offset` towards `end` (the end offset
// when the Read began), at most `max` records.
struct ReadSpan {
  std::string_view topic;
  int partition = 0;
  int64_t offset = 0;
  int64_t end = 0;
  size_t max = 0;
};

// A consumed message as a record of the log.
StoredRecord ToStoredRecord(rd_kafka_message_t* m, const ReadSpan& span) {
  StoredRecord r;
  r.topic = std::string(span.topic);
  r.partition = span.partition;
  r.offset = m->offset;
  rd_kafka_timestamp_type_t type;
  const int64_t ms = rd_kafka_message_timestamp(m, &type);
  r.timestamp_micros = ms > 0 ? ms * 1000 : 0;
  if (m->key != nullptr) {
    r.key.assign(static_cast<const char*>(m->key), m->key_len);
  }
  if (m->payload != nullptr) {
    r.value.assign(static_cast<const char*>(m->payload), m->len);
  }
  rd_kafka_headers_t* hdrs = nullptr;
  if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
    const char* name;
    const void* value;
    size_t size;
    for (size_t h = 0; rd_kafka_header_get_all(hdrs, h, &name, &value, &size) ==
                       RD_KAFKA_RESP_ERR_NO_ERROR;
         ++h) {
      r.headers.push_back(
          {name, value != nullptr
                     ? std::string(static_cast<const char*>(value), size)
                     : std::string()});
    }
  }
  return r;
}

std::string RandomSuffix() {
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd());
  return absl::StrCat(absl::Hex(gen(), absl::kZeroPad16));
}

class KafkaLog final : public EventLog {
 public:
  explicit KafkaLog(KafkaLogOptions options) : options_(std::move(options)) {}
  ~KafkaLog() override;

  absl::Status Init();
  // FAILED_PRECONDITION on a read-only log (KafkaLogOptions::read_only).
  absl::Status RefuseReadOnly() const;
  // One CreateTopics; `*exists` when the topic was already there.
  absl::Status CreateTopic(const TopicConfig& config, bool* exists);
  // Waits until metadata shows `config`'s topic with a leader for every
  // partition (and checks an existing topic keeps every event).
  absl::Status AwaitLeaders(const TopicConfig& config, bool exists,
                            Clock::time_point deadline);

  absl::Status EnsureTopic(const TopicConfig& config) override;
  absl::StatusOr<int> PartitionCount(std::string_view topic) override;
  void AppendAsync(std::vector<Record> records,
                   std::vector<OffsetCommit> commits,
                   AppendCallback done) override;
  absl::StatusOr<std::vector<StoredRecord>> Read(std::string_view topic,
                                                 int partition, int64_t offset,
                                                 size_t max_records) override;
  absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                    int partition) override;
  absl::Status CommitOffsets(std::vector<OffsetCommit> commits) override;
  absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                          std::string_view topic,
                                          int partition) override;
  absl::StatusOr<std::vector<TopicConfig>> ListTopics() override;
  absl::StatusOr<std::unique_ptr<GroupMember>> JoinGroup(
      const GroupOptions& options) override;

  // AppendAsync for a group member (Pending::fence).
  void AppendFencedAsync(std::vector<Record> records,
                         std::vector<OffsetCommit> commits, GroupMetadata fence,
                         AppendCallback done);

 private:
  // The steps of Init: the admin client (and a first answer from the
  // cluster), the reader, then the lanes with their producers.
  absl::Status OpenAdmin();
  absl::Status OpenReader();
  absl::Status StartLanes();
  void CommonConf(Conf& c) const;
  // The caller's extra properties (KafkaLogOptions::properties).
  void PassThrough(Conf& c) const;
  absl::Status NewProducer(Producer& pr);
  static void DestroyProducer(Producer& pr);

  // Partition count from the cache, or from cluster metadata.
  absl::StatusOr<int> Partitions(std::string_view topic);
  // One topic's cluster metadata.
  struct MetadataDeleter {
    void operator()(const rd_kafka_metadata_t* md) const {
      rd_kafka_metadata_destroy(md);
    }
  };
  using Metadata = std::unique_ptr<const rd_kafka_metadata_t, MetadataDeleter>;
  absl::StatusOr<Metadata> TopicMetadata(const std::string& topic);
  absl::StatusOr<int> FetchPartitions(const std::string& topic,
                                      bool* leaders_ready);
  // An existing topic's configuration and fewest replicas, as the broker
  // reports them (kafka_topic_check.h checks them).
  absl::StatusOr<TopicSettings> DescribeTopic(const std::string& topic);
  absl::StatusOr<std::map<std::string, std::string>> TopicConfigs(
      const std::string& topic);
  // Runs one admin call (`start` issues it with the options and the queue
  // it is given) and waits for its result event, the caller's to destroy;
  // UNAVAILABLE naming `what` when none comes in time.
  absl::StatusOr<rd_kafka_event_t*> AdminCall(
      rd_kafka_admin_op_t op, std::string_view what,
      const std::function<void(rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>&
          start);
  absl::Status CheckPartition(std::string_view topic, int partition);
  // One OffsetFetch; `*transient` when its error passes on its own.
  absl::StatusOr<int64_t> FetchCommitted(const std::string& group_id,
                                         const std::string& name, int partition,
                                         bool* transient);

  // Each record's partition and the lanes of the batch, into `p`.
  absl::Status ResolvePartitions(const std::vector<Record>& records,
                                 const std::vector<OffsetCommit>& commits,
                                 Pending& p);
  // Queues a resolved batch once there is room, and wakes its lanes.
  void Enqueue(std::unique_ptr<Pending> p);
  // The lane that owns a partition: its records and offset commits go
  // through that lane's producer unless a batch spans lanes.
  int LaneOf(std::string_view topic, int partition) const;
  void LaneLoop(Lane& lane);
  // Moves into `group` the queued batches lane `k` may run now, in issue
  // order, and returns the lanes they touch.
  uint64_t TakeGroup(int k, std::vector<std::unique_ptr<Pending>>& group)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PokeAll() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status RunTransaction(Producer& pr,
                              std::vector<std::unique_ptr<Pending>>& group);
  // The steps of RunTransaction, in order. Each fails the transaction with
  // the first error (aborting it where Kafka needs that).
  absl::Status TransactionError(Producer& pr, rd_kafka_error_t* error,
                                std::string_view what);
  absl::Status LearnTopics(Producer& pr,
                           const std::vector<std::unique_ptr<Pending>>& group,
                           Clock::time_point deadline);
  absl::Status ProduceRecords(
      Producer& pr, const std::vector<std::unique_ptr<Pending>>& group,
      std::vector<DeliverySlot>& slots, Clock::time_point deadline);
  absl::Status SendOffsets(Producer& pr,
                           const std::vector<std::unique_ptr<Pending>>& group,
                           Clock::time_point deadline);
  absl::Status AwaitDeliveries(Producer& pr,
                               const std::vector<DeliverySlot>& slots,
                               Clock::time_point deadline);
  absl::Status CommitTransaction(Producer& pr, Clock::time_point deadline);
  // Each record's position, and the highest offset acknowledged per
  // partition.
  void Acknowledge(const std::vector<std::unique_ptr<Pending>>& group,
                   const std::vector<DeliverySlot>& slots);
  // Runs the transaction again while it fails for a transient reason and
  // certainly did not commit, for up to append_timeout_ms.
  absl::Status RunTransactionWithRetries(
      Lane& lane, std::vector<std::unique_ptr<Pending>>& group);
  absl::Status Abort(Producer& pr, absl::Status cause);
  void CompleterLoop();

  std::shared_ptr<ReadPartition> ReaderFor(std::string_view topic,
                                           int partition);
  // The steps of Read, under the partition's lock: start or seek the
  // reader (false: nothing left to consume before the end), then consume
  // into `out` (`dropped`: a record was consumed past what `out` takes,
  // so the next Read must seek).
  absl::StatusOr<bool> StartOrSeek(ReadPartition& rp, const ReadSpan& span);
  absl::Status Consume(ReadPartition& rp, const ReadSpan& span,
                       std::vector<StoredRecord>& out, bool& dropped);
  void EvictReaders();

  const KafkaLogOptions options_;
  std::string transactional_id_;

  // Admin requests and metadata; the reader (read_committed, no group).
  ClientErrors admin_errors_;  // the admin client's opaque
  rd_kafka_t* admin_ = nullptr;
  rd_kafka_t* reader_ = nullptr;

  // Fixed after Init (the lanes' own fields say who may touch them).
  std::vector<std::unique_ptr<Lane>> lanes_;
  uint64_t all_lanes_ = 0;
  // A newer instance with the same transactional_id fenced one of our
  // producers. For good: replacing the producer would fence the newer
  // instance in turn, and two live writers would take turns.
  std::atomic<bool> fenced_{false};

  std::mutex meta_mu_;
  absl::flat_hash_map<std::string, int> partitions_ ABSL_GUARDED_BY(meta_mu_);

  std::mutex mu_;
  std::condition_variable room_cv_;
  // Batches in issue order. A list: lanes take batches out of the middle
  // (those of their own partitions) and leave the others in place.
  std::list<std::unique_ptr<Pending>> queue_ ABSL_GUARDED_BY(mu_);
  size_t queued_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;

  // The highest offset this log appended per partition, so EndOffset and
  // Read see our own acknowledged appends: the broker writes transaction
  // markers (which move the last stable offset) just after the commit
  // returns.
  std::mutex acked_mu_;
  absl::flat_hash_map<std::pair<std::string, int>, int64_t> acked_
      ABSL_GUARDED_BY(acked_mu_);

  std::mutex done_mu_;
  std::condition_variable done_cv_;
  std::deque<std::vector<std::unique_ptr<Pending>>> done_queue_
      ABSL_GUARDED_BY(done_mu_);
  bool done_stopping_ ABSL_GUARDED_BY(done_mu_) = false;

  std::mutex readers_mu_;
  absl::flat_hash_map<std::string, rd_kafka_topic_t*> reader_topics_
      ABSL_GUARDED_BY(readers_mu_);
  std::map<std::pair<std::string, int>, std::shared_ptr<ReadPartition>> readers_
      ABSL_GUARDED_BY(readers_mu_);
  uint64_t read_clock_ ABSL_GUARDED_BY(readers_mu_) = 0;

  std::thread completer_;
};

void KafkaLog::CommonConf(Conf& c) const {
  c.Set("bootstrap.servers", options_.bootstrap_servers);
  c.Set("client.id", options_.client_id);
  c.Set("socket.timeout.ms", absl::StrCat(options_.request_timeout_ms));
  c.Set("allow.auto.create.topics", "false");
  rd_kafka_conf_set_log_cb(c.get(), &LogKafkaLine);
}

void KafkaLog::PassThrough(Conf& c) const {
  for (const std::string& p : options_.properties) {
    const size_t eq = p.find('=');
    c.Set(std::string_view(p).substr(0, eq),
          std::string_view(p).substr(eq + 1));
  }
}

absl::Status KafkaLog::Init() {
  RETURN_IF_ERROR(CheckOptions(options_));
  transactional_id_ = options_.transactional_id;
  if (transactional_id_.empty()) {
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    transactional_id_ = absl::StrCat("banca-", options_.client_id, "-", host,
                                     "-", getpid(), "-", RandomSuffix());
  }
  RETURN_IF_ERROR(OpenAdmin());
  RETURN_IF_ERROR(OpenReader());
  if (options_.read_only) return absl::OkStatus();
  return StartLanes();
}

absl::Status KafkaLog::RefuseReadOnly() const {
  if (!options_.read_only) return absl::OkStatus();
  return absl::FailedPreconditionError("the Kafka log is open read-only");
}

absl::Status KafkaLog::OpenAdmin() {
  {
    Conf c;
    CommonConf(c);
    PassThrough(c);
    rd_kafka_conf_set_opaque(c.get(), &admin_errors_);
    rd_kafka_conf_set_log_cb(c.get(), &PrintAndNoteErrors);
    ASSIGN_OR_RETURN(auto rk, c.New(RD_KAFKA_PRODUCER));
    admin_ = rk;
  }
  // Fail at open, not at the first append, if nobody answers; say why
  // when the broker did answer but refused (a wrong SASL password, a
  // certificate the client does not trust).
  const rd_kafka_metadata_t* md = nullptr;
  rd_kafka_resp_err_t err =
      rd_kafka_metadata(admin_, 0, nullptr, &md, options_.request_timeout_ms);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    const absl::Status status = ErrStatus(
        err, absl::StrCat("connecting to ", options_.bootstrap_servers));
    const std::string cause = admin_errors_.Last();
    if (cause.empty()) return status;
    return absl::Status(
        absl::StrContains(cause, "SASL authentication")
            ? absl::StatusCode::kUnauthenticated
            : status.code(),
        absl::StrCat(status.message(), " (the last error: ", cause, ")"));
  }
  rd_kafka_metadata_destroy(md);
  return absl::OkStatus();
}

absl::Status KafkaLog::OpenReader() {
  Conf c;
  CommonConf(c);
  c.Set("isolation.level", "read_committed");
  c.Set("enable.partition.eof", "true");
  c.Set("enable.auto.commit", "false");
  c.Set("enable.auto.offset.store", "false");
  c.Set("fetch.wait.max.ms", absl::StrCat(options_.fetch_wait_max_ms));
  // Prefetch per started partition: bounded, since up to
  // max_reader_partitions are started at once.
  c.Set("queued.max.messages.kbytes", "8192");
  c.Set("queued.min.messages", "10000");
  c.Set("fetch.error.backoff.ms", "50");
  PassThrough(c);
  ASSIGN_OR_RETURN(auto rk, c.New(RD_KAFKA_CONSUMER));
  reader_ = rk;
  return absl::OkStatus();
}

absl::Status KafkaLog::StartLanes() {
  // Producers work in pairs: a lane alternates between its producers, so
  // a transaction never starts on the producer whose previous commit the
  // coordinator is still completing (it would answer AddPartitionsToTxn
  // with CONCURRENT_TRANSACTIONS, and librdkafka retries only after 20 ms).
  const int lanes = std::max(1, options_.producers / 2);
  for (int k = 0; k < lanes; ++k) {
    auto lane = std::make_unique<Lane>();
    lane->index = k;
    lanes_.push_back(std::move(lane));
    all_lanes_ |= uint64_t{1} << k;
  }
  if (!options_.transactional_id.empty()) {
    // Versions with one producer used the id itself. Fence it too, so an
    // upgraded instance fences a predecessor still running the old version
    // and aborts what it left open, like any restart.
    Producer legacy;
    legacy.transactional_id = transactional_id_;
    RETURN_IF_ERROR(NewProducer(legacy));
    DestroyProducer(legacy);
  }
  for (int j = 0; j < options_.producers; ++j) {
    auto pr = std::make_unique<Producer>();
    pr->transactional_id = absl::StrCat(transactional_id_, "-", j);
    // Also fences this producer of an earlier incarnation of this process.
    RETURN_IF_ERROR(NewProducer(*pr));
    lanes_[j % lanes]->producers.push_back(std::move(pr));
  }
  for (auto& lane : lanes_) {
    lane->thread = std::thread([this, l = lane.get()] { LaneLoop(*l); });
  }
  completer_ = std::thread([this] { CompleterLoop(); });
  return absl::OkStatus();
}

absl::Status KafkaLog::NewProducer(Producer& pr) {
  Conf c;
  CommonConf(c);
  c.Set("transactional.id", pr.transactional_id);
  c.Set("enable.idempotence", "true");
  c.Set("acks", "all");
  c.Set("transaction.timeout.ms",
        absl::StrCat(options_.transaction_timeout_ms));
  c.Set("message.timeout.ms", absl::StrCat(options_.transaction_timeout_ms));
  // Partitions are always chosen here (PartitionForKey), but should anything
  // ever leave it to librdkafka, it must agree with the embedded backend.
  c.Set("partitioner", "murmur2_random");
  c.Set("linger.ms", "5");
  c.Set("message.max.bytes", absl::StrCat(2 * kTopicMaxMessageBytes));
  c.Set("queue.buffering.max.kbytes",
        absl::StrCat(2 * options_.max_transaction_bytes / 1024 + 1024));
  c.Set("queue.buffering.max.messages",
        absl::StrCat(2 * options_.max_transaction_records + 1000));
  PassThrough(c);
  rd_kafka_conf_set_dr_msg_cb(c.get(), &OnDelivery);
  ASSIGN_OR_RETURN(auto rk, c.New(RD_KAFKA_PRODUCER));
  pr.rk = rk;
  // Also fences an older producer with this id and aborts its open
  // transaction, so its partitions' last stable offset moves on.
  if (absl::Status s = ErrorStatus(
          rd_kafka_init_transactions(pr.rk, options_.request_timeout_ms),
          "init_transactions");
      !s.ok()) {
    DestroyProducer(pr);
    return s;
  }
  pr.broken = false;
  return absl::OkStatus();
}

void KafkaLog::DestroyProducer(Producer& pr) {
  if (pr.rk == nullptr) return;
  for (auto& [name, rkt] : pr.topics) rd_kafka_topic_destroy(rkt);
  pr.topics.clear();
  rd_kafka_purge(pr.rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_poll(pr.rk, 0);
  rd_kafka_destroy(pr.rk);
  pr.rk = nullptr;
}

KafkaLog::~KafkaLog() {
  {
    std::lock_guard l(mu_);
    stopping_ = true;
    PokeAll();
  }
  room_cv_.notify_all();
  // Each lane drains what it can take; the last ones out run what waited
  // for the others.
  for (auto& lane : lanes_) {
    if (lane->thread.joinable()) lane->thread.join();
  }
  if (completer_.joinable()) {
    {
      std::lock_guard l(done_mu_);
      done_stopping_ = true;
    }
    done_cv_.notify_one();
    completer_.join();
  }
  for (auto& lane : lanes_) {
    for (auto& pr : lane->producers) DestroyProducer(*pr);
  }
  {
    std::lock_guard l(readers_mu_);
    for (auto& [key, rp] : readers_) {
      if (rp->started) rd_kafka_consume_stop(rp->rkt, rp->partition);
    }
    readers_.clear();
    for (auto& [name, rkt] : reader_topics_) rd_kafka_topic_destroy(rkt);
    reader_topics_.clear();
  }
  if (reader_ != nullptr) rd_kafka_destroy(reader_);
  if (admin_ != nullptr) rd_kafka_destroy(admin_);
}

absl::StatusOr<KafkaLog::Metadata> KafkaLog::TopicMetadata(
    const std::string& topic) {
  rd_kafka_topic_t* rkt = rd_kafka_topic_new(admin_, topic.c_str(), nullptr);
  if (rkt == nullptr) {
    return ErrStatus(rd_kafka_last_error(), absl::StrCat("topic ", topic));
  }
  const rd_kafka_metadata_t* md = nullptr;
  const rd_kafka_resp_err_t err =
      rd_kafka_metadata(admin_, 0, rkt, &md, options_.request_timeout_ms);
  rd_kafka_topic_destroy(rkt);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return ErrStatus(err, absl::StrCat("metadata of ", topic));
  }
  return Metadata(md);
}

absl::StatusOr<int> KafkaLog::FetchPartitions(const std::string& topic,
                                              bool* leaders_ready) {
  ASSIGN_OR_RETURN(const Metadata md_owner, TopicMetadata(topic));
  const rd_kafka_metadata_t* const md = md_owner.get();
  absl::StatusOr<int> result =
      absl::NotFoundError(absl::StrCat("no topic ", topic));
  for (int i = 0; i < md->topic_cnt; ++i) {
    const rd_kafka_metadata_topic_t& t = md->topics[i];
    if (topic != t.topic) continue;
    if (t.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
        t.err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC) {
      break;
    }
    if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR &&
        t.err != RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE) {
      result = ErrStatus(t.err, absl::StrCat("metadata of ", topic));
      break;
    }
    if (t.partition_cnt <= 0) {
      result = absl::UnavailableError(
          absl::StrCat("kafka: topic ", topic, " has no partitions yet"));
      break;
    }
    bool ready = t.err == RD_KAFKA_RESP_ERR_NO_ERROR;
    for (int p = 0; p < t.partition_cnt; ++p) {
      if (t.partitions[p].leader < 0 ||
          t.partitions[p].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        ready = false;
      }
    }
    if (leaders_ready != nullptr) *leaders_ready = ready;
    result = t.partition_cnt;
    break;
  }
  return result;
}

absl::StatusOr<int> KafkaLog::Partitions(std::string_view topic) {
  {
    std::lock_guard l(meta_mu_);
    auto it = partitions_.find(ToAbsl(topic));
    if (it != partitions_.end()) return it->second;
  }
  RETURN_IF_ERROR(internal::ValidateTopicName(topic));
  const std::string name(topic);
  ASSIGN_OR_RETURN(int n, FetchPartitions(name, nullptr));
  std::lock_guard l(meta_mu_);
  partitions_[name] = n;
  return n;
}

absl::Status KafkaLog::CheckPartition(std::string_view topic, int partition) {
  ASSIGN_OR_RETURN(int n, Partitions(topic));
  if (partition < 0 || partition >= n) {
    return absl::InvalidArgumentError(absl::StrCat("partition ", partition,
                                                   " of topic ", ToAbsl(topic),
                                                   " with ", n, " partitions"));
  }
  return absl::OkStatus();
}

absl::StatusOr<rd_kafka_event_t*> KafkaLog::AdminCall(
    rd_kafka_admin_op_t op, std::string_view what,
    const std::function<void(rd_kafka_AdminOptions_t*, rd_kafka_queue_t*)>&
        start) {
  char errstr[512];
  rd_kafka_AdminOptions_t* opts = rd_kafka_AdminOptions_new(admin_, op);
  rd_kafka_AdminOptions_set_request_timeout(opts, options_.request_timeout_ms,
                                            errstr, sizeof(errstr));
  if (op == RD_KAFKA_ADMIN_OP_CREATETOPICS) {
    rd_kafka_AdminOptions_set_operation_timeout(
        opts, options_.request_timeout_ms, errstr, sizeof(errstr));
  }
  rd_kafka_queue_t* q = rd_kafka_queue_new(admin_);
  start(opts, q);
  rd_kafka_AdminOptions_destroy(opts);
  rd_kafka_event_t* ev =
      rd_kafka_queue_poll(q, options_.request_timeout_ms + 5000);
  rd_kafka_queue_destroy(q);
  if (ev == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("kafka: ", ToAbsl(what), " timed out"));
  }
  return ev;
}

absl::StatusOr<TopicSettings> KafkaLog::DescribeTopic(
    const std::string& topic) {
  TopicSettings settings;
  ASSIGN_OR_RETURN(settings.configs, TopicConfigs(topic));
  ASSIGN_OR_RETURN(const Metadata md_owner, TopicMetadata(topic));
  const rd_kafka_metadata_t* const md = md_owner.get();
  int fewest = -1;
  for (int i = 0; i < md->topic_cnt; ++i) {
    if (topic != md->topics[i].topic) continue;
    for (int p = 0; p < md->topics[i].partition_cnt; ++p) {
      const int r = md->topics[i].partitions[p].replica_cnt;
      fewest = fewest < 0 ? r : std::min(fewest, r);
    }
  }
  settings.min_replicas = std::max(fewest, 0);
  return settings;
}

absl::StatusOr<std::map<std::string, std::string>> KafkaLog::TopicConfigs(
    const std::string& topic) {
  rd_kafka_ConfigResource_t* resource =
      rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
  absl::StatusOr<rd_kafka_event_t*> called =
      AdminCall(RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, "DescribeConfigs",
                [&](rd_kafka_AdminOptions_t* opts, rd_kafka_queue_t* q) {
                  rd_kafka_DescribeConfigs(admin_, &resource, 1, opts, q);
                });
  rd_kafka_ConfigResource_destroy(resource);
  ASSIGN_OR_RETURN(rd_kafka_event_t* const ev, std::move(called));
  absl::Status status =
      ErrStatus(rd_kafka_event_error(ev), "DescribeConfigs of " + topic);
  std::map<std::string, std::string> configs;
  if (status.ok()) {
    size_t n = 0;
    const rd_kafka_ConfigResource_t** resources =
        rd_kafka_DescribeConfigs_result_resources(
            rd_kafka_event_DescribeConfigs_result(ev), &n);
    for (size_t i = 0; i < n && status.ok(); ++i) {
      if (rd_kafka_ConfigResource_error(resources[i]) !=
          RD_KAFKA_RESP_ERR_NO_ERROR) {
        status = ErrStatus(rd_kafka_ConfigResource_error(resources[i]),
                           "DescribeConfigs of " + topic);
        break;
      }
      size_t count = 0;
      const rd_kafka_ConfigEntry_t** entries =
          rd_kafka_ConfigResource_configs(resources[i], &count);
      for (size_t e = 0; e < count; ++e) {
        const char* value = rd_kafka_ConfigEntry_value(entries[e]);
        configs[rd_kafka_ConfigEntry_name(entries[e])] =
            value == nullptr ? "" : value;
      }
    }
  }
  rd_kafka_event_destroy(ev);
  RETURN_IF_ERROR(status);
  return configs;
}

absl::Status KafkaLog::EnsureTopic(const TopicConfig& config) {
  RETURN_IF_ERROR(RefuseReadOnly());
  RETURN_IF_ERROR(internal::ValidateTopicName(config.name));
  if (internal::IsInternalTopic(config.name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("topic ", config.name, " is internal to the log"));
  }
  if (config.partitions <= 0 || config.partitions > kMaxPartitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("partitions must be 1..", kMaxPartitions));
  }
  // A controller failing over (or a broker just gone and not yet fenced)
  // answers a creation with a passing error: ask again until the deadline.
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  bool exists = false;
  for (int sleep_ms = 50;; sleep_ms = std::min(sleep_ms * 2, 1000)) {
    const absl::Status created = CreateTopic(config, &exists);
    if (!absl::IsUnavailable(created) || Clock::now() >= deadline) {
      RETURN_IF_ERROR(created);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
  return AwaitLeaders(config, exists, deadline);
}

absl::Status KafkaLog::CreateTopic(const TopicConfig& config, bool* exists) {
  char errstr[512];
  rd_kafka_NewTopic_t* nt = rd_kafka_NewTopic_new(
      config.name.c_str(), config.partitions, options_.replication_factor,
      errstr, sizeof(errstr));
  if (nt == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("kafka: ", errstr));
  }
  // The log is the ledger's source of truth: keep everything, forever, and
  // never compact (compaction would drop all but the last event per key).
  rd_kafka_NewTopic_set_config(nt, "retention.ms", "-1");
  rd_kafka_NewTopic_set_config(nt, "retention.bytes", "-1");
  rd_kafka_NewTopic_set_config(nt, "cleanup.policy", "delete");
  rd_kafka_NewTopic_set_config(nt, "max.message.bytes",
                               absl::StrCat(kTopicMaxMessageBytes).c_str());
  if (options_.min_insync_replicas > 0) {
    rd_kafka_NewTopic_set_config(
        nt, "min.insync.replicas",
        absl::StrCat(options_.min_insync_replicas).c_str());
  }
  absl::StatusOr<rd_kafka_event_t*> called =
      AdminCall(RD_KAFKA_ADMIN_OP_CREATETOPICS, "CreateTopics",
                [&](rd_kafka_AdminOptions_t* opts, rd_kafka_queue_t* q) {
                  rd_kafka_CreateTopics(admin_, &nt, 1, opts, q);
                });
  rd_kafka_NewTopic_destroy(nt);
  ASSIGN_OR_RETURN(rd_kafka_event_t* const ev, std::move(called));
  absl::Status status = ErrStatus(rd_kafka_event_error(ev), "CreateTopics");
  if (status.ok()) {
    size_t n = 0;
    const rd_kafka_topic_result_t** res = rd_kafka_CreateTopics_result_topics(
        rd_kafka_event_CreateTopics_result(ev), &n);
    for (size_t i = 0; i < n; ++i) {
      const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(res[i]);
      if (err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
        *exists = true;
      } else if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        const char* msg = rd_kafka_topic_result_error_string(res[i]);
        status = absl::Status(
            CodeFor(err), absl::StrCat("kafka: creating ", config.name, ": ",
                                       rd_kafka_err2name(err), ": ",
                                       msg != nullptr ? msg : ""));
      }
    }
  }
  rd_kafka_event_destroy(ev);
  return status;
}

absl::Status KafkaLog::AwaitLeaders(const TopicConfig& config, bool exists,
                                    Clock::time_point deadline) {
  // Created or already there: wait until metadata shows it with a leader
  // for every partition, so an append right after this succeeds.
  for (int sleep_ms = 5;; sleep_ms = std::min(sleep_ms * 2, 200)) {
    bool ready = false;
    absl::StatusOr<int> n = FetchPartitions(config.name, &ready);
    if (n.ok() && *n != config.partitions) {
      return absl::FailedPreconditionError(
          absl::StrCat("topic ", config.name, " has ", *n, " partitions, not ",
                       config.partitions));
    }
    if (n.ok() && ready) {
      if (exists) {
        // Someone else's topic, or one changed since: it must keep every
        // event (kafka_topic_check.h).
        ASSIGN_OR_RETURN(const TopicSettings settings,
                         DescribeTopic(config.name));
        RETURN_IF_ERROR(CheckTopicSettings(
            config.name, settings,
            {options_.replication_factor, options_.min_insync_replicas}));
      }
      std::lock_guard l(meta_mu_);
      partitions_[config.name] = *n;
      return absl::OkStatus();
    }
    // A topic just created may not be in metadata for a moment.
    if (!n.ok() && !absl::IsNotFound(n.status()) &&
        !absl::IsUnavailable(n.status())) {
      return n.status();
    }
    if (Clock::now() >= deadline) {
      return absl::UnavailableError(
          absl::StrCat("kafka: topic ", config.name, " has no leaders ",
                       exists ? "" : "after creation", ": ",
                       n.ok() ? "leader not available" : n.status().message()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
}

absl::StatusOr<int> KafkaLog::PartitionCount(std::string_view topic) {
  return Partitions(topic);
}

void KafkaLog::AppendAsync(std::vector<Record> records,
                           std::vector<OffsetCommit> commits,
                           AppendCallback done) {
  AppendFencedAsync(std::move(records), std::move(commits), nullptr,
                    std::move(done));
}

void KafkaLog::AppendFencedAsync(std::vector<Record> records,
                                 std::vector<OffsetCommit> commits,
                                 GroupMetadata fence, AppendCallback done) {
  if (absl::Status s = RefuseReadOnly(); !s.ok()) {
    done(std::move(s), {});
    return;
  }
  if (records.empty() && commits.empty()) {
    done(absl::OkStatus(), {});
    return;
  }
  auto p = std::make_unique<Pending>();
  absl::Status s = SizeBatch(records, commits, p->bytes);
  if (s.ok()) s = ResolvePartitions(records, commits, *p);
  if (!s.ok()) {
    done(std::move(s), {});
    return;
  }
  p->records = std::move(records);
  p->commits = std::move(commits);
  p->fence = std::move(fence);
  p->done = std::move(done);
  Enqueue(std::move(p));
}

absl::Status KafkaLog::ResolvePartitions(
    const std::vector<Record>& records,
    const std::vector<OffsetCommit>& commits, Pending& p) {
  // Everything before queuing, so a bad record anywhere in the batch leaves
  // nothing behind.
  p.partitions.resize(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    ASSIGN_OR_RETURN(const int n, Partitions(records[i].topic));
    int part = records[i].partition;
    if (part == -1) part = PartitionForKey(records[i].key, n);
    if (part >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", part, " of topic ", records[i].topic,
                       " with ", n, " partitions"));
    }
    p.partitions[i] = part;
    p.lanes |= uint64_t{1} << LaneOf(records[i].topic, part);
  }
  for (const OffsetCommit& c : commits) {
    ASSIGN_OR_RETURN(const int n, Partitions(c.topic));
    if (c.partition >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("commit for partition ", c.partition, " of topic ",
                       c.topic, " with ", n, " partitions"));
    }
    // The lane of the consumed partition: commits of one group and
    // partition then go through one producer, in issue order.
    p.lanes |= uint64_t{1} << LaneOf(c.topic, c.partition);
  }
  return absl::OkStatus();
}

void KafkaLog::Enqueue(std::unique_ptr<Pending> p) {
  {
    std::unique_lock l(mu_);
    const size_t bytes = p->bytes;
    room_cv_.wait(l, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return queue_.empty() ||
             queued_bytes_ + bytes <= options_.max_queued_bytes || stopping_;
    });
    if (!stopping_) {
      queued_bytes_ += bytes;
      const uint64_t lanes = p->lanes;
      queue_.push_back(std::move(p));
      if (std::has_single_bit(lanes)) {
        // Only its owner may run it (or one already busy with a batch
        // spanning lanes, which pokes everyone when it finishes).
        Lane& owner = *lanes_[std::countr_zero(lanes)];
        owner.poked = true;
        owner.cv.notify_one();
      } else {
        PokeAll();
      }
      return;
    }
  }
  p->done(absl::FailedPreconditionError("event log is closing"), {});
}

int KafkaLog::LaneOf(std::string_view topic, int partition) const {
  if (lanes_.size() == 1) return 0;
  // A topic's partitions go round the lanes from a point that depends on
  // the topic, so one-partition topics do not all land on lane 0.
  const uint32_t start = static_cast<uint32_t>(PartitionForKey(topic, 1 << 20));
  return static_cast<int>((start + static_cast<uint32_t>(partition)) %
                          lanes_.size());
}

void KafkaLog::PokeAll() {
  for (auto& lane : lanes_) {
    lane->poked = true;
    lane->cv.notify_one();
  }
}

uint64_t KafkaLog::TakeGroup(int k,
                             std::vector<std::unique_ptr<Pending>>& group) {
  // A batch may run now only if no batch issued before it that shares a
  // lane is still queued or in flight: lanes in flight elsewhere and lanes
  // of batches passed over are blocked. That keeps the per-partition order
  // of issued appends across lanes: two transactions that could touch the
  // same partition never run at once, and they start in issue order.
  uint64_t blocked = 0;
  for (const auto& lane : lanes_) {
    if (lane->index != k) blocked |= lane->busy;
  }
  const uint64_t self = uint64_t{1} << k;
  uint64_t taken = 0;
  size_t records = 0, bytes = 0, scanned = 0;
  for (auto it = queue_.begin();
       it != queue_.end() && blocked != all_lanes_ && scanned < kMaxScan;
       ++scanned) {
    const Pending& next = **it;
    // A lane runs the batches of its own partitions, and any batch that
    // spans lanes (whose other lanes are then idle: nothing before it
    // touches them).
    if ((next.lanes & blocked) != 0 ||
        (next.lanes != self && std::has_single_bit(next.lanes)) ||
        (!group.empty() && next.fence != group.front()->fence)) {
      blocked |= next.lanes;
      ++it;
      continue;
    }
    // Group commit: everything this lane may run goes into one transaction
    // (within limits), so a transaction's fixed cost (AddPartitionsToTxn,
    // EndTxn, markers) is shared.
    const size_t n = next.records.size() + next.commits.size();
    if (!group.empty() &&
        (records + n > options_.max_transaction_records ||
         bytes + next.bytes > options_.max_transaction_bytes)) {
      break;
    }
    records += n;
    bytes += next.bytes;
    queued_bytes_ -= next.bytes;
    taken |= next.lanes;
    group.push_back(std::move(*it));
    it = queue_.erase(it);
  }
  return taken;
}

void KafkaLog::LaneLoop(Lane& lane) {
  for (;;) {
    std::vector<std::unique_ptr<Pending>> group;
    {
      std::unique_lock l(mu_);
      for (;;) {
        lane.poked = false;
        lane.busy = TakeGroup(lane.index, group);
        if (!group.empty()) break;
        if (stopping_ && queue_.empty()) return;  // drained
        lane.cv.wait(
            l, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return lane.poked; });
      }
      // Lanes waiting only to learn that the queue drained at shutdown.
      if (stopping_ && queue_.empty()) PokeAll();
    }
    room_cv_.notify_all();
    const absl::Status s = RunTransactionWithRetries(lane, group);
    for (auto& p : group) {
      p->status = s;
      if (!s.ok()) p->positions.clear();
    }
    // Queued for callbacks before the lanes are released: a later batch
    // that shares a partition with this group can only start after this,
    // so callbacks too run in issue order within a partition.
    {
      std::lock_guard l(done_mu_);
      done_queue_.push_back(std::move(group));
    }
    done_cv_.notify_one();
    std::lock_guard l(mu_);
    const bool spanned = lane.busy != uint64_t{1} << lane.index;
    lane.busy = 0;
    // A group of this lane's own batches blocked only batches this thread
    // may run itself (its own, or ones spanning lanes), and it looks again
    // right away. A group that spanned lanes may have held back the others.
    if (spanned) PokeAll();
  }
}

absl::Status KafkaLog::RunTransactionWithRetries(
    Lane& lane, std::vector<std::unique_ptr<Pending>>& group) {
  const auto give_up =
      Clock::now() + std::chrono::milliseconds(options_.append_timeout_ms);
  auto backoff = std::chrono::milliseconds(50);
  // Retries stay on the same producer, which replaces itself first if it is
  // broken, so a failed transaction it may have left open is aborted
  // (fencing) before the records go again.
  Producer& pr = *lane.producers[lane.turn];
  for (int attempt = 1;; ++attempt) {
    pr.outcome_unknown = false;
    if (fenced_.load()) {
      return absl::FailedPreconditionError(
          absl::StrCat("kafka: transactional id ", transactional_id_,
                       " was fenced by a newer instance; this log no longer "
                       "appends"));
    }
    const auto started = Clock::now();
    absl::Status s = RunTransaction(pr, group);
    // librdkafka reports a transaction the broker aborted for running past
    // transaction_timeout_ms (e.g. across a long outage) as fenced too; that
    // one cannot happen to a younger transaction, and a new producer
    // recovers from it.
    if (!s.ok() &&
        Clock::now() - started <
            std::chrono::milliseconds(options_.transaction_timeout_ms) &&
        FencedByNewerInstance(pr.rk)) {
      fenced_ = true;
      continue;  // fails above, whatever the error looked like
    }
    // A failed attempt was aborted, or its producer is replaced by one with
    // the same transactional.id, which aborts it for good (fencing): none of
    // it can ever become visible, so the same records may go again. Only a
    // commit whose outcome is unknown must not be repeated.
    if (s.ok() || pr.outcome_unknown ||
        s.code() != absl::StatusCode::kUnavailable ||
        Clock::now() + backoff >= give_up) {
      if (!s.ok() && attempt > 1) {
        s = absl::Status(s.code(), absl::StrCat(s.message(), " (after ",
                                                attempt, " attempts)"));
      }
      if (s.ok()) lane.turn = (lane.turn + 1) % lane.producers.size();
      return s;
    }
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
  }
}

absl::Status KafkaLog::Abort(Producer& pr, absl::Status cause) {
  rd_kafka_error_t* e =
      rd_kafka_abort_transaction(pr.rk, options_.request_timeout_ms);
  if (e != nullptr) {
    // Replacing the producer aborts the transaction for us (fencing).
    pr.broken = true;
    rd_kafka_error_destroy(e);
  }
  return cause;
}

absl::Status KafkaLog::RunTransaction(
    Producer& pr, std::vector<std::unique_ptr<Pending>>& group) {
  if (pr.rk == nullptr || pr.broken) {
    DestroyProducer(pr);
    RETURN_IF_ERROR(NewProducer(pr));
  }
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(options_.transaction_timeout_ms);
  RETURN_IF_ERROR(LearnTopics(pr, group, deadline));
  if (rd_kafka_error_t* e = rd_kafka_begin_transaction(pr.rk)) {
    // Not abortable and nothing sent; a producer that cannot begin is
    // replaced before the next transaction.
    pr.broken = true;
    return TransactionError(pr, e, "begin_transaction");
  }
  size_t total = 0;
  for (const auto& p : group) total += p->records.size();
  // Fixed size: the delivery callback holds pointers into it.
  std::vector<DeliverySlot> slots(total);
  RETURN_IF_ERROR(ProduceRecords(pr, group, slots, deadline));
  RETURN_IF_ERROR(SendOffsets(pr, group, deadline));
  RETURN_IF_ERROR(AwaitDeliveries(pr, slots, deadline));
  RETURN_IF_ERROR(CommitTransaction(pr, deadline));
  Acknowledge(group, slots);
  return absl::OkStatus();
}

absl::Status KafkaLog::TransactionError(Producer& pr, rd_kafka_error_t* error,
                                        std::string_view what) {
  const bool fatal = rd_kafka_error_is_fatal(error);
  const bool abortable = rd_kafka_error_txn_requires_abort(error);
  absl::Status s = ErrorStatus(error, what);
  if (fatal) {
    pr.broken = true;
    return s;
  }
  if (abortable) return Abort(pr, s);
  return s;
}

namespace {

// Whether `md` shows `rkt`'s topic with its partitions, each with a leader.
bool KnowsPartitions(const rd_kafka_metadata_t* md, rd_kafka_topic_t* rkt) {
  for (int i = 0; i < md->topic_cnt; ++i) {
    const rd_kafka_metadata_topic_t& t = md->topics[i];
    if (std::string_view(t.topic) != rd_kafka_topic_name(rkt)) continue;
    if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR || t.partition_cnt <= 0) {
      return false;
    }
    for (int p = 0; p < t.partition_cnt; ++p) {
      if (t.partitions[p].leader < 0) return false;
    }
    return true;
  }
  return false;
}

// Asks the producer's brokers for the topic until one answers with its
// partitions: a broker that lags the controller (one whose controller just
// died) may not know a topic created a moment ago, and a producer that
// cached that answer fails its records with "unknown partition". Best
// effort until `deadline`: without it, producing still works, only later.
void AwaitProducerMetadata(rd_kafka_t* rk, rd_kafka_topic_t* rkt,
                           Clock::time_point deadline) {
  for (int sleep_ms = 10;; sleep_ms = std::min(sleep_ms * 2, 200)) {
    const rd_kafka_metadata_t* md = nullptr;
    if (rd_kafka_metadata(rk, 0, rkt, &md, RemainingMs(deadline)) ==
        RD_KAFKA_RESP_ERR_NO_ERROR) {
      const bool known = KnowsPartitions(md, rkt);
      rd_kafka_metadata_destroy(md);
      if (known) return;
    }
    if (Clock::now() + std::chrono::milliseconds(sleep_ms) >= deadline) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
}

}  // namespace

absl::Status KafkaLog::LearnTopics(
    Producer& pr, const std::vector<std::unique_ptr<Pending>>& group,
    Clock::time_point deadline) {
  // A producer learns of a topic it has not produced to yet only on its
  // next periodic scan (up to a second in librdkafka 2.0) unless asked:
  // every first append of a topic would wait that long.
  for (const auto& p : group) {
    for (const Record& r : p->records) {
      if (pr.topics.contains(r.topic)) continue;
      rd_kafka_topic_t* rkt =
          rd_kafka_topic_new(pr.rk, r.topic.c_str(), nullptr);
      if (rkt == nullptr) {
        return ErrStatus(rd_kafka_last_error(),
                         absl::StrCat("topic ", r.topic));
      }
      pr.topics[r.topic] = rkt;
      AwaitProducerMetadata(pr.rk, rkt, deadline);
    }
  }
  return absl::OkStatus();
}

absl::Status KafkaLog::ProduceRecords(
    Producer& pr, const std::vector<std::unique_ptr<Pending>>& group,
    std::vector<DeliverySlot>& slots, Clock::time_point deadline) {
  rd_kafka_t* const producer = pr.rk;
  size_t k = 0;
  for (const auto& p : group) {
    for (size_t i = 0; i < p->records.size(); ++i, ++k) {
      const Record& r = p->records[i];
      rd_kafka_headers_t* hdrs = nullptr;
      if (!r.headers.empty()) {
        hdrs = rd_kafka_headers_new(r.headers.size());
        for (const Header& h : r.headers) {
          rd_kafka_header_add(
              hdrs, h.key.data(), static_cast<ssize_t>(h.key.size()),
              h.value.data(), static_cast<ssize_t>(h.value.size()));
        }
      }
      for (;;) {
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            producer, RD_KAFKA_V_TOPIC(r.topic.c_str()),
            RD_KAFKA_V_PARTITION(p->partitions[i]),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_KEY(r.key.empty() ? nullptr : r.key.data(),
                           r.key.size()),
            RD_KAFKA_V_VALUE(const_cast<char*>(r.value.data()), r.value.size()),
            // Kafka keeps milliseconds; 0 lets librdkafka stamp it now.
            RD_KAFKA_V_TIMESTAMP(r.timestamp_micros / 1000),
            RD_KAFKA_V_HEADERS(hdrs), RD_KAFKA_V_OPAQUE(&slots[k]),
            RD_KAFKA_V_END);
        if (err == RD_KAFKA_RESP_ERR_NO_ERROR) break;  // headers now owned
        if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL && Clock::now() < deadline) {
          rd_kafka_poll(producer, 10);
          continue;
        }
        if (hdrs != nullptr) rd_kafka_headers_destroy(hdrs);
        return Abort(pr,
                     ErrStatus(err, absl::StrCat("producing to ", r.topic)));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status KafkaLog::SendOffsets(
    Producer& pr, const std::vector<std::unique_ptr<Pending>>& group,
    Clock::time_point deadline) {
  // Offsets ride in the transaction, per group; the last commit for a
  // partition in this transaction wins, as it would in sequence.
  std::map<std::string, std::map<std::pair<std::string, int>, int64_t>> offsets;
  for (const auto& p : group) {
    for (const OffsetCommit& c : p->commits) {
      offsets[c.group][{c.topic, c.partition}] = c.next_offset;
    }
  }
  for (const auto& [group_id, parts] : offsets) {
    rd_kafka_topic_partition_list_t* list =
        rd_kafka_topic_partition_list_new(static_cast<int>(parts.size()));
    for (const auto& [tp, next] : parts) {
      rd_kafka_topic_partition_list_add(list, tp.first.c_str(), tp.second)
          ->offset = next;
    }
    // A member's commits (all of its own group) carry its generation; the
    // others only name the group, which the coordinator does not fence.
    const GroupMetadata& fence = group.front()->fence;
    rd_kafka_consumer_group_metadata_t* cgmd =
        fence != nullptr
            ? fence.get()
            : rd_kafka_consumer_group_metadata_new(group_id.c_str());
    rd_kafka_error_t* e = rd_kafka_send_offsets_to_transaction(
        pr.rk, list, cgmd, RemainingMs(deadline));
    if (fence == nullptr) rd_kafka_consumer_group_metadata_destroy(cgmd);
    rd_kafka_topic_partition_list_destroy(list);
    if (e != nullptr) {
      return TransactionError(
          pr, e,
          absl::StrCat("committing offsets of group ", group_id,
                       fence != nullptr ? " as a member" : ""));
    }
  }
  return absl::OkStatus();
}

absl::Status KafkaLog::AwaitDeliveries(Producer& pr,
                                       const std::vector<DeliverySlot>& slots,
                                       Clock::time_point deadline) {
  // Every delivery report, before the commit: a record the broker refused
  // fails the whole transaction.
  if (const rd_kafka_resp_err_t err =
          rd_kafka_flush(pr.rk, RemainingMs(deadline));
      err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Abort(pr, ErrStatus(err, "flushing transaction"));
  }
  for (const DeliverySlot& s : slots) {
    if (!s.delivered) {
      return Abort(pr, absl::UnavailableError("kafka: record not delivered"));
    }
    if (s.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Abort(pr, ErrStatus(s.err, "delivering record"));
    }
  }
  return absl::OkStatus();
}

absl::Status KafkaLog::CommitTransaction(Producer& pr,
                                         Clock::time_point deadline) {
  for (;;) {
    rd_kafka_error_t* e =
        rd_kafka_commit_transaction(pr.rk, RemainingMs(deadline));
    if (e == nullptr) break;
    if (rd_kafka_error_txn_requires_abort(e)) {
      return TransactionError(pr, e, "commit_transaction");
    }
    if (rd_kafka_error_is_retriable(e) && Clock::now() < deadline) {
      rd_kafka_error_destroy(e);
      continue;
    }
    // Fatal, or retried until the deadline: the coordinator may or may not
    // have the commit. Replacing the producer settles it one way or the
    // other, but we cannot tell the caller which.
    pr.broken = true;
    pr.outcome_unknown = true;
    absl::Status s = ErrorStatus(e, "commit_transaction");
    return absl::Status(
        s.code(), absl::StrCat(s.message(), " (transaction outcome unknown)"));
  }
  return absl::OkStatus();
}

void KafkaLog::Acknowledge(const std::vector<std::unique_ptr<Pending>>& group,
                           const std::vector<DeliverySlot>& slots) {
  size_t k = 0;
  std::lock_guard l(acked_mu_);
  for (const auto& p : group) {
    p->positions.resize(p->records.size());
    for (size_t i = 0; i < p->records.size(); ++i, ++k) {
      Position& pos = p->positions[i];
      pos.topic = p->records[i].topic;
      pos.partition = p->partitions[i];
      pos.offset = slots[k].offset;
      int64_t& acked = acked_[{pos.topic, pos.partition}];
      acked = std::max(acked, pos.offset);
    }
  }
}

void KafkaLog::CompleterLoop() {
  for (;;) {
    std::vector<std::unique_ptr<Pending>> group;
    {
      std::unique_lock l(done_mu_);
      done_cv_.wait(l, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(done_mu_) {
        return !done_queue_.empty() || done_stopping_;
      });
      if (done_queue_.empty()) return;
      group = std::move(done_queue_.front());
      done_queue_.pop_front();
    }
    for (auto& p : group)
      p->done(std::move(p->status), std::move(p->positions));
  }
}

absl::StatusOr<int64_t> KafkaLog::EndOffset(std::string_view topic,
                                            int partition) {
  RETURN_IF_ERROR(CheckPartition(topic, partition));
  const std::string name(topic);
  int64_t acked = -1;
  {
    std::lock_guard l(acked_mu_);
    auto it = acked_.find(std::make_pair(name, partition));
    if (it != acked_.end()) acked = it->second;
  }
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  for (int sleep_ms = 1;; sleep_ms = std::min(sleep_ms * 2, 50)) {
    int64_t lo = 0, hi = 0;
    // The reader is read_committed, so ListOffsets answers with the last
    // stable offset: the end of what read_committed consumers can see.
    const rd_kafka_resp_err_t err = rd_kafka_query_watermark_offsets(
        reader_, name.c_str(), partition, &lo, &hi,
        std::max(RemainingMs(deadline), 1));
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && !IsTransientOffsetError(err)) {
      return ErrStatus(err,
                       absl::StrCat("end offset of ", name, "/", partition));
    }
    // Our own acknowledged appends are visible once the commit's markers
    // are written, just after the commit returned.
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR && hi > acked) return hi;
    if (Clock::now() >= deadline) {
      return absl::UnavailableError(absl::StrCat(
          "kafka: end offset of ", name, "/", partition,
          err != RD_KAFKA_RESP_ERR_NO_ERROR ? " unavailable"
                                            : " behind acknowledged appends"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
}

std::shared_ptr<ReadPartition> KafkaLog::ReaderFor(std::string_view topic,
                                                   int partition) {
  std::lock_guard l(readers_mu_);
  auto key = std::make_pair(std::string(topic), partition);
  auto it = readers_.find(key);
  if (it == readers_.end()) {
    rd_kafka_topic_t*& rkt = reader_topics_[key.first];
    if (rkt == nullptr) {
      rkt = rd_kafka_topic_new(reader_, key.first.c_str(), nullptr);
    }
    auto rp = std::make_shared<ReadPartition>();
    rp->rkt = rkt;
    rp->partition = partition;
    it = readers_.emplace(std::move(key), std::move(rp)).first;
  }
  it->second->last_used = ++read_clock_;
  return it->second;
}

void KafkaLog::EvictReaders() {
  std::lock_guard l(readers_mu_);
  size_t started = 0;
  for (const auto& [key, rp] : readers_) started += rp->started ? 1 : 0;
  while (started > options_.max_reader_partitions) {
    // Least recently used first; one in use by a Read is skipped.
    std::vector<ReadPartition*> order;
    for (const auto& [key, rp] : readers_) {
      if (rp->started) order.push_back(rp.get());
    }
    std::sort(order.begin(), order.end(),
              [](const ReadPartition* a, const ReadPartition* b) {
                return a->last_used < b->last_used;
              });
    bool stopped = false;
    for (ReadPartition* rp : order) {
      std::unique_lock pl(rp->mu, std::try_to_lock);
      if (!pl.owns_lock()) continue;
      rd_kafka_consume_stop(rp->rkt, rp->partition);
      rp->started = false;
      --started;
      stopped = true;
      break;
    }
    if (!stopped) return;
  }
}

absl::StatusOr<std::vector<StoredRecord>> KafkaLog::Read(std::string_view topic,
                                                         int partition,
                                                         int64_t offset,
                                                         size_t max_records) {
  if (offset < 0) return absl::InvalidArgumentError("negative offset");
  ASSIGN_OR_RETURN(int64_t end, EndOffset(topic, partition));
  if (offset > end) {
    return absl::OutOfRangeError(absl::StrCat("offset ", offset, " past end ",
                                              end, " of ", ToAbsl(topic), "/",
                                              partition));
  }
  const ReadSpan span{topic, partition, offset, end,
                      std::min(max_records, kMaxReadRecords)};
  std::vector<StoredRecord> out;
  if (offset == end || span.max == 0) return out;

  std::shared_ptr<ReadPartition> rp = ReaderFor(topic, partition);
  absl::Status status;
  {
    std::lock_guard pl(rp->mu);
    ASSIGN_OR_RETURN(const bool more, StartOrSeek(*rp, span));
    if (!more) return out;
    rp->next_lo = rp->next_hi = -1;  // unknown until we finish cleanly
    bool dropped = false;
    status = Consume(*rp, span, out, dropped);
    if (status.ok() && !dropped) {
      rp->next_lo = out.empty() ? offset : out.back().offset + 1;
      rp->next_hi = std::max(rp->next_lo, rp->eof_at);
    }
  }
  EvictReaders();
  RETURN_IF_ERROR(status);
  return out;
}

absl::StatusOr<bool> KafkaLog::StartOrSeek(ReadPartition& rp,
                                           const ReadSpan& span) {
  if (!rp.started) {
    if (rd_kafka_consume_start(rp.rkt, span.partition, span.offset) != 0) {
      return ErrStatus(rd_kafka_last_error(),
                       absl::StrCat("reading ", ToAbsl(span.topic)));
    }
    rp.started = true;
    rp.eof_at = -1;
  } else if (span.offset < rp.next_lo || span.offset > rp.next_hi) {
    if (const rd_kafka_resp_err_t err = rd_kafka_seek(
            rp.rkt, span.partition, span.offset, options_.request_timeout_ms);
        err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      // Restart from scratch next time.
      rd_kafka_consume_stop(rp.rkt, span.partition);
      rp.started = false;
      return ErrStatus(err, absl::StrCat("seeking ", ToAbsl(span.topic)));
    }
    rp.eof_at = -1;
  } else if (rp.eof_at >= span.end) {
    // Continuing, and everything before the end was consumed already:
    // only transaction markers (or aborted records) lie in between.
    return false;
  }
  return true;
}

absl::Status KafkaLog::Consume(ReadPartition& rp, const ReadSpan& span,
                               std::vector<StoredRecord>& out, bool& dropped) {
  absl::Status status;
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  size_t bytes = 0;
  bool done = false;
  std::vector<rd_kafka_message_t*> msgs(kConsumeChunk);
  while (!done) {
    // Never take more than we may return, so nothing consumed is lost and
    // the next Read continues without a seek.
    const size_t want = std::min(kConsumeChunk, span.max - out.size());
    const ssize_t n =
        rd_kafka_consume_batch(rp.rkt, span.partition, 50, msgs.data(), want);
    if (n < 0) {
      status = ErrStatus(rd_kafka_last_error(),
                         absl::StrCat("reading ", ToAbsl(span.topic)));
      break;
    }
    for (ssize_t i = 0; i < n; ++i) {
      rd_kafka_message_t* m = msgs[i];
      if (done) {
        // Past what this Read returns: an end-of-partition still counts;
        // a record dropped here means the next Read must seek.
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          rp.eof_at = std::max(rp.eof_at, m->offset);
        } else if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
          dropped = true;
        }
      } else if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        // An EOF from before the end moved is stale; only one at or past
        // the end we are reading to means nothing more is there.
        rp.eof_at = std::max(rp.eof_at, m->offset);
        if (m->offset >= span.end) done = true;
      } else if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        status =
            ErrStatus(m->err, absl::StrCat("reading ", ToAbsl(span.topic)));
        done = true;
      } else if (m->offset >= span.offset) {
        const StoredRecord& r = out.emplace_back(ToStoredRecord(m, span));
        bytes += r.key.size() + r.value.size();
        if (out.size() >= span.max || bytes >= kMaxReadBytes ||
            m->offset + 1 >= span.end) {
          done = true;
        }
      }
      rd_kafka_message_destroy(m);
    }
    if (!done && Clock::now() >= deadline) {
      if (out.empty()) {
        status = absl::UnavailableError(absl::StrCat(
            "kafka: no records from ", ToAbsl(span.topic), "/", span.partition,
            " before the end offset ", span.end, " within the timeout"));
      }
      break;
    }
  }
  return status;
}

absl::Status KafkaLog::CommitOffsets(std::vector<OffsetCommit> commits) {
  // Through the transactional producer like any other commit, so a commit
  // on its own and one riding with records are ordered the same way.
  return Append({}, std::move(commits)).status();
}

absl::StatusOr<int64_t> KafkaLog::CommittedOffset(std::string_view group,
                                                  std::string_view topic,
                                                  int partition) {
  if (group.empty() || group.size() > kMaxKeyBytes) {
    return absl::InvalidArgumentError("bad group name");
  }
  RETURN_IF_ERROR(CheckPartition(topic, partition));
  const std::string group_id(group), name(topic);
  // Asked again while the answer is transient (IsTransientCommittedError):
  // a service that reads its position at start must not fail because the
  // coordinator is still loading on a fresh or restarted cluster.
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(options_.request_timeout_ms);
  for (int sleep_ms = 1;; sleep_ms = std::min(sleep_ms * 2, 50)) {
    bool transient = false;
    absl::StatusOr<int64_t> r =
        FetchCommitted(group_id, name, partition, &transient);
    if (r.ok() || !transient || Clock::now() >= deadline) return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
  }
}

absl::StatusOr<int64_t> KafkaLog::FetchCommitted(const std::string& group_id,
                                                 const std::string& name,
                                                 int partition,
                                                 bool* transient) {
  // A short-lived consumer of the group asks its coordinator (OffsetFetch).
  // librdkafka 2.0.2's admin ListConsumerGroupOffsets crashed its main
  // thread when it retried during "coordinator load in progress" (seen in
  // CI on a fresh broker), so the admin call is not used. A read_committed
  // consumer asks for stable offsets: a commit still being written by a
  // transaction is waited out, not read half-done.
  Conf c;
  CommonConf(c);
  c.Set("group.id", group_id);
  c.Set("isolation.level", "read_committed");
  c.Set("enable.auto.commit", "false");
  ASSIGN_OR_RETURN(auto rk, c.New(RD_KAFKA_CONSUMER));
  rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(parts, name.c_str(), partition);
  const rd_kafka_resp_err_t err =
      rd_kafka_committed(rk, parts, options_.request_timeout_ms);
  absl::StatusOr<int64_t> result =
      absl::UnavailableError("kafka: no offsets in the answer");
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    *transient = IsTransientCommittedError(err);
    result =
        ErrStatus(err, absl::StrCat("committed offsets of group ", group_id));
  } else if (parts->cnt == 1) {
    const rd_kafka_topic_partition_t& tp = parts->elems[0];
    if (tp.err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      *transient = IsTransientCommittedError(tp.err);
      result = ErrStatus(tp.err, absl::StrCat("offset of group ", group_id));
    } else {
      // Never committed: -1001 (RD_KAFKA_OFFSET_INVALID).
      result = tp.offset >= 0 ? tp.offset : 0;
    }
  }
  rd_kafka_topic_partition_list_destroy(parts);
  rd_kafka_destroy(rk);
  return result;
}

// A member of a Kafka consumer group: a high-level consumer subscribed to
// the topic that takes part in the group's rebalances (eager, range
// assignment) but never consumes through the group (its partitions are
// paused; members read through EventLog::Read). Its group metadata fences
// its appends (KIP-447).
class KafkaGroupMember final : public GroupMember {
 public:
  KafkaGroupMember(KafkaLog& log, const GroupOptions& options)
      : GroupMember(options.group, options.topic), log_(log) {}

  ~KafkaGroupMember() override {
    if (rk_ == nullptr) return;
    // Leaves the group now (LeaveGroup; the rebalance callback revokes),
    // so the others need not wait for the session timeout.
    rd_kafka_consumer_close(rk_);
    rd_kafka_destroy(rk_);
  }

  absl::Status Start(Conf& conf) {
    rd_kafka_conf_set_opaque(conf.get(), this);
    rd_kafka_conf_set_rebalance_cb(conf.get(), &Rebalance);
    ASSIGN_OR_RETURN(auto rk, conf.New(RD_KAFKA_CONSUMER));
    rk_ = rk;
    rd_kafka_poll_set_consumer(rk_);
    rd_kafka_topic_partition_list_t* topics =
        rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(topics, topic().c_str(),
                                      RD_KAFKA_PARTITION_UA);
    const rd_kafka_resp_err_t err = rd_kafka_subscribe(rk_, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    return ErrStatus(
        err, absl::StrCat("subscribing group ", group(), " to ", topic()));
  }

  absl::StatusOr<Assignment> Poll() override {
    std::lock_guard poll(poll_mu_);
    // Serves heartbeats' news: rebalance callbacks run in here.
    while (rd_kafka_message_t* m = rd_kafka_consumer_poll(rk_, 0)) {
      const rd_kafka_resp_err_t err = m->err;
      rd_kafka_message_destroy(m);
      if (err == RD_KAFKA_RESP_ERR_NO_ERROR) continue;  // paused: stray
      char why[256];
      if (rd_kafka_fatal_error(rk_, why, sizeof(why)) !=
          RD_KAFKA_RESP_ERR_NO_ERROR) {
        return absl::InternalError(
            absl::StrCat("kafka group ", group(), ": fatal: ", why));
      }
      // Transient (a broker restarting; the poll interval exceeded, after
      // which librdkafka rejoins by itself): the next Poll goes on.
    }
    Assignment a;
    rd_kafka_topic_partition_list_t* parts = nullptr;
    if (const rd_kafka_resp_err_t err = rd_kafka_assignment(rk_, &parts);
        err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return ErrStatus(err, "assignment");
    }
    for (int i = 0; i < parts->cnt; ++i) {
      if (topic() == parts->elems[i].topic) {
        a.partitions.push_back(parts->elems[i].partition);
      }
    }
    rd_kafka_topic_partition_list_destroy(parts);
    std::sort(a.partitions.begin(), a.partitions.end());
    a.epoch = epoch_.load();
    GroupMetadata metadata(rd_kafka_consumer_group_metadata(rk_),
                           &rd_kafka_consumer_group_metadata_destroy);
    std::lock_guard l(mu_);
    assignment_ = a;
    metadata_ = std::move(metadata);
    return a;
  }

  void AppendAsync(std::vector<Record> records,
                   std::vector<OffsetCommit> commits,
                   AppendCallback done) override {
    GroupMetadata metadata;
    {
      std::lock_guard l(mu_);
      if (absl::Status s = CheckCommits(commits, assignment_); !s.ok()) {
        done(std::move(s), {});
        return;
      }
      metadata = metadata_;
    }
    log_.AppendFencedAsync(std::move(records), std::move(commits),
                           std::move(metadata), std::move(done));
  }

 private:
  // Eager protocol: on revocation the member gives up everything, on
  // assignment it takes the new set, paused (it does not consume here).
  static void Rebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err,
                        rd_kafka_topic_partition_list_t* parts, void* opaque) {
    auto* self = static_cast<KafkaGroupMember*>(opaque);
    if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
      rd_kafka_assign(rk, parts);
      rd_kafka_pause_partitions(rk, parts);
      self->epoch_.fetch_add(1);
    } else {
      rd_kafka_assign(rk, nullptr);
    }
  }

  KafkaLog& log_;
  rd_kafka_t* rk_ = nullptr;
  std::atomic<int64_t> epoch_{0};
  std::mutex poll_mu_;
  std::mutex mu_;
  Assignment assignment_ ABSL_GUARDED_BY(mu_);
  GroupMetadata metadata_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<std::unique_ptr<GroupMember>> KafkaLog::JoinGroup(
    const GroupOptions& options) {
  RETURN_IF_ERROR(RefuseReadOnly());
  RETURN_IF_ERROR(ValidateGroupOptions(options));
  RETURN_IF_ERROR(Partitions(options.topic).status());
  Conf c;
  CommonConf(c);
  c.Set("group.id", options.group);
  c.Set("isolation.level", "read_committed");
  c.Set("enable.auto.commit", "false");
  c.Set("enable.auto.offset.store", "false");
  c.Set("partition.assignment.strategy", "range");
  c.Set("session.timeout.ms", absl::StrCat(options.session_timeout_ms));
  // A member that stops polling is as dead as one that stops heartbeating;
  // librdkafka requires it to be at least the session timeout.
  c.Set("max.poll.interval.ms", absl::StrCat(options.session_timeout_ms));
  c.Set("heartbeat.interval.ms",
        absl::StrCat(std::max(1, options.session_timeout_ms / 4)));
  PassThrough(c);
  auto member = std::make_unique<KafkaGroupMember>(*this, options);
  RETURN_IF_ERROR(member->Start(c));
  return member;
}

absl::StatusOr<std::vector<TopicConfig>> KafkaLog::ListTopics() {
  const rd_kafka_metadata_t* md = nullptr;
  const rd_kafka_resp_err_t err =
      rd_kafka_metadata(admin_, 1, nullptr, &md, options_.request_timeout_ms);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) return ErrStatus(err, "metadata");
  std::vector<TopicConfig> out;
  for (int i = 0; i < md->topic_cnt; ++i) {
    const rd_kafka_metadata_topic_t& t = md->topics[i];
    if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR ||
        internal::IsInternalTopic(t.topic)) {
      continue;
    }
    out.push_back({t.topic, t.partition_cnt});
  }
  rd_kafka_metadata_destroy(md);
  std::sort(out.begin(), out.end(),
            [](const TopicConfig& a, const TopicConfig& b) {
              return a.name < b.name;
            });
  return out;
}

}  // namespace

absl::StatusOr<std::unique_ptr<EventLog>> OpenKafkaLog(
    const KafkaLogOptions& options) {
  auto log = std::make_unique<KafkaLog>(options);
  RETURN_IF_ERROR(log->Init());
  return std::unique_ptr<EventLog>(std::move(log));
}

absl::StatusOr<KafkaLogOptions> ParseKafkaSpec(std::string_view spec) {
  constexpr std::string_view kScheme = "kafka://";
  if (!spec.starts_with(kScheme)) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a kafka:// address: ", ToAbsl(spec)));
  }
  spec.remove_prefix(kScheme.size());
  const size_t q = spec.find('?');
  const std::string_view hosts = spec.substr(0, q);
  KafkaLogOptions o;
  if (hosts.empty()) {
    return absl::InvalidArgumentError("kafka:// needs host:port");
  }
  for (absl::string_view hp : absl::StrSplit(ToAbsl(hosts), ',')) {
    const size_t colon = hp.rfind(':');
    int port = 0;
    if (colon == absl::string_view::npos || colon == 0 ||
        !absl::SimpleAtoi(hp.substr(colon + 1), &port) || port <= 0 ||
        port > 65535) {
      return absl::InvalidArgumentError(absl::StrCat(
          "kafka:// wants host:port[,host:port], got \"", hp, "\""));
    }
  }
  o.bootstrap_servers = std::string(hosts);
  auto apply = [&](absl::string_view key,
                   absl::string_view value) -> absl::Status {
    auto as_int = [&](int* out) -> absl::Status {
      if (!absl::SimpleAtoi(value, out)) {
        return absl::InvalidArgumentError(
            absl::StrCat("kafka option ", key, " wants a number"));
      }
      return absl::OkStatus();
    };
    if (key == "client_id") {
      o.client_id = std::string(value);
    } else if (key == "transactional_id") {
      o.transactional_id = std::string(value);
    } else if (key == "producers") {
      return as_int(&o.producers);
    } else if (key == "replication_factor") {
      return as_int(&o.replication_factor);
    } else if (key == "min_insync_replicas") {
      return as_int(&o.min_insync_replicas);
    } else if (key == "request_timeout_ms") {
      return as_int(&o.request_timeout_ms);
    } else if (key == "transaction_timeout_ms") {
      return as_int(&o.transaction_timeout_ms);
    } else if (key == "append_timeout_ms") {
      return as_int(&o.append_timeout_ms);
    } else if (absl::StrContains(key, '.')) {
      o.properties.push_back(absl::StrCat(key, "=", value));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown kafka option ", key));
    }
    return absl::OkStatus();
  };
  if (q != std::string_view::npos) {
    for (absl::string_view kv :
         absl::StrSplit(ToAbsl(spec.substr(q + 1)), '&', absl::SkipEmpty())) {
      const size_t eq = kv.find('=');
      if (eq == absl::string_view::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat("kafka option must be key=value, got \"", kv, "\""));
      }
      RETURN_IF_ERROR(apply(kv.substr(0, eq), kv.substr(eq + 1)));
    }
  }
  // Secrets (sasl.password, ssl.key.password) stay out of command lines.
  if (const char* env = std::getenv("BANCA_KAFKA_PROPERTIES")) {
    for (absl::string_view kv :
         absl::StrSplit(env, ';', absl::SkipWhitespace())) {
      o.properties.push_back(std::string(kv));
    }
  }
  return o;
}

}  // namespace banca::eventlog
