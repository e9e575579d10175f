// One event as a log record: the payload in an EventEnvelope whose
// routing fields are copied into the record's headers (DESIGN "Event
// log"). The poker tables' and the banked tables' codecs are this one
// shape over their TableTopics (topics.h), which differ only in topics,
// stream prefix and payload type; the wallet's codec uses the envelope.
#ifndef BANCA_LIBS_WIRE_ENVELOPE_RECORD_H_
#define BANCA_LIBS_WIRE_ENVELOPE_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "banca/v1/envelope.pb.h"
#include "google/protobuf/message.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/event_log.h"
#include "libs/wire/topics.h"

namespace banca::wire {

struct EnvelopeMeta {
  std::string topic;
  std::string stream;  // also the record's key
  std::string type;    // the payload's message name
  uint32_t schema_version = 1;
  uint64_t sequence = 0;  // event id "<stream>#<sequence>"
  std::string producer;
  std::string correlation_id;
  std::string causation_id;
  int64_t occurred_at_micros = 0;
};

eventlog::Record EnvelopeRecord(const EnvelopeMeta& meta,
                                const google::protobuf::Message& payload);

// DATA_LOSS naming the record unless it is an envelope of `type` whose
// payload parses into `payload` ("not a <what> event" otherwise).
absl::Status DecodeEnvelope(const eventlog::StoredRecord& record,
                            std::string_view type, std::string_view what,
                            v1::EventEnvelope* envelope,
                            google::protobuf::Message* payload);

// A table's events (poker and banked alike; topics.h TableTopics): who
// writes them, and when.
struct TableEventContext {
  std::string producer = "table";
  std::string correlation_id;
  int64_t occurred_at_micros = 0;
};

// "<prefix><table id>": a table's stream and the key of its records.
std::string TableTopicStream(const TableTopics& topics,
                             std::string_view table_id);

// The record of a table event (`table_id` and `request_id` are its own)
// on `topic`, topics.topic or, for the wallet's copy, topics.requests_topic:
// the copy has the same envelope (stream, sequence, event id), caused by
// the event's request id.
eventlog::Record TableEventRecord(const TableTopics& topics,
                                  std::string_view topic,
                                  std::string_view table_id,
                                  std::string_view request_id,
                                  const google::protobuf::Message& event,
                                  uint64_t sequence,
                                  const TableEventContext& context);

template <typename Event>
eventlog::Record EncodeTableEvent(const TableTopics& topics,
                                  std::string_view topic, const Event& event,
                                  uint64_t sequence,
                                  const TableEventContext& context) {
  return TableEventRecord(topics, topic, event.table_id(), event.request_id(),
                          event, sequence, context);
}

// `event`'s record, followed, when `request` is set, by the wallet's copy
// of the money request `*request` on topics.requests_topic: what a table
// host appends, in one batch.
template <typename Event>
void AppendTableEvent(const TableTopics& topics, const Event& event,
                      const Event* request, uint64_t sequence,
                      const TableEventContext& context,
                      std::vector<eventlog::Record>* records) {
  records->push_back(
      EncodeTableEvent(topics, topics.topic, event, sequence, context));
  if (request == nullptr) return;
  records->push_back(EncodeTableEvent(topics, topics.requests_topic, *request,
                                      sequence, context));
}

template <typename Event>
struct DecodedEnvelope {
  v1::EventEnvelope envelope;
  Event event;
};

// DATA_LOSS naming the record unless it is one of topics' events.
template <typename Event>
absl::StatusOr<DecodedEnvelope<Event>> DecodeTableEvent(
    const TableTopics& topics, const eventlog::StoredRecord& record) {
  DecodedEnvelope<Event> out;
  RETURN_IF_ERROR(DecodeEnvelope(record, topics.type, topics.what,
                                 &out.envelope, &out.event));
  return out;
}

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_ENVELOPE_RECORD_H_
