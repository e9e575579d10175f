// The Kafka event log backend (librdkafka), behind the EventLog interface.
//
// Every append is a Kafka transaction: a transactional, idempotent producer
// (acks=all) sends the records of a group of queued AppendAsync batches, plus
// their consumer-offset commits, and commits them together. A batch is
// therefore atomic across partitions and topics, and readers
// (isolation.level=read_committed) never see part of one.
//
// Transactional producers are used in pairs ("lanes"). A lane runs one
// transaction at a time and alternates between its two producers: after a
// commit returns, the coordinator still writes the transaction's markers,
// and the next transaction of the same producer would wait for them (it is
// refused with CONCURRENT_TRANSACTIONS and retried 20 ms later), while the
// other producer can start at once. With more than one lane, each owns a
// fixed subset of the partitions and lanes commit in parallel; a batch that
// spans lanes runs only when no earlier batch of those lanes is queued or
// in flight. Either way, batches are taken in issue order and two
// transactions that may touch the same partition never overlap, which keeps
// the per-partition order of issued appends. See docs/eventlog.md for why,
// and for what it costs.
//
// One difference from the embedded backend that callers must know: Kafka
// writes a transaction marker (a control record) into every partition a
// transaction touched, and that marker takes an offset. Offsets are
// therefore strictly increasing within a partition but NOT dense: the next
// record after offset o may have offset o + 2 or more. Read from
// `last.offset + 1`, never from `first + count`.
#ifndef BANCA_LIBS_EVENTLOG_KAFKA_LOG_H_
#define BANCA_LIBS_EVENTLOG_KAFKA_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

struct KafkaLogOptions {
  // "host:port[,host:port]".
  std::string bootstrap_servers;
  std::string client_id = "banca";
  // The producer's transactional.id. Give every live instance of a service
  // its own stable id ("wallet-0"): a restarted instance with the same id
  // fences its predecessor and aborts the transaction it left open at once.
  // Empty: a random id per process, so an open transaction left by a crash
  // holds back read_committed readers of its partitions until
  // `transaction_timeout_ms` passes. Producer j uses
  // "<transactional_id>-<j>", so no live instance's id may have the form
  // "<another instance's id>-<number>". Opening also fences
  // "<transactional_id>" itself, the id of versions with one producer.
  std::string transactional_id;
  // Transactional producers, 1..64: producers / 2 lanes (1 lane for 1) of
  // two producers each (an odd one joins a lane). 1 is a single producer
  // that runs transactions back to back. Keep it the same across restarts
  // of one transactional_id: a restart fences only the producers it opens
  // itself, so producers beyond the new count would not be fenced (their
  // open transactions then hold back readers until transaction_timeout_ms).
  int producers = 2;

  // Topic creation (EnsureTopic). -1: the broker's default.
  int replication_factor = -1;
  int min_insync_replicas = -1;

  // Extra librdkafka properties, "key=value", applied to every client this
  // log creates (producer, reader, admin) after banca's own settings: SASL,
  // TLS, socket tuning. Properties banca relies on for its guarantees
  // (acks, enable.idempotence, isolation.level, transactional.id) are
  // rejected.
  std::vector<std::string> properties;

  // Bound on any one admin, metadata or offset request, and on a Read that
  // waits for records it knows exist.
  int request_timeout_ms = 30'000;
  // The broker aborts a transaction left open this long.
  int transaction_timeout_ms = 30'000;
  // How long an append keeps retrying while the cluster is unreachable
  // (broker restarts, leader elections): a transaction that failed for a
  // transient reason, and certainly did not commit, is run again until
  // this passes. Then the append fails with UNAVAILABLE.
  int append_timeout_ms = 120'000;
  // How long the reader's fetch waits at the end of a partition. A Read
  // that ends on a transaction marker waits this long to learn that no
  // record follows, so it is short.
  int fetch_wait_max_ms = 10;

  // AppendAsync blocks while this many bytes of records wait for the
  // producer (back-pressure instead of unbounded memory).
  size_t max_queued_bytes = 128 << 20;
  // A transaction carries at most this many records / bytes of queued
  // batches (always at least one whole batch).
  size_t max_transaction_records = 20'000;
  size_t max_transaction_bytes = 64 << 20;
  // Partitions the reader keeps started (prefetching) at once; the least
  // recently read is stopped beyond this.
  size_t max_reader_partitions = 64;
  // For readers that must change nothing (`banca audit verify` beside a
  // running system): no producer is made (no transactional id is
  // registered or fenced), and every append, offset commit, new topic and
  // group join is FAILED_PRECONDITION. Reads are read_committed as always.
  bool read_only = false;
};

// Connects, checks the cluster answers, and initializes the transactional
// producer (which also fences an older instance with the same
// transactional.id). UNAVAILABLE if the cluster does not answer within
// `request_timeout_ms`; INVALID_ARGUMENT for bad options.
absl::StatusOr<std::unique_ptr<EventLog>> OpenKafkaLog(
    const KafkaLogOptions& options);

// Parses "kafka://host:port[,host:port][?key=value&...]" into options. Keys:
// client_id, transactional_id, producers, replication_factor,
// min_insync_replicas, request_timeout_ms, transaction_timeout_ms,
// append_timeout_ms; any key
// containing a dot is a librdkafka property (e.g. security.protocol=SASL_SSL).
// Secrets belong in the environment, not on command lines:
// BANCA_KAFKA_PROPERTIES, as "key=value;key=value", is appended to
// `properties`.
absl::StatusOr<KafkaLogOptions> ParseKafkaSpec(std::string_view spec);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_KAFKA_LOG_H_
