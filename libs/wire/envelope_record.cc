#include "libs/wire/envelope_record.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::wire {

eventlog::Record EnvelopeRecord(const EnvelopeMeta& meta,
                                const google::protobuf::Message& payload) {
  const std::string event_id = absl::StrCat(meta.stream, "#", meta.sequence);
  v1::EventEnvelope envelope;
  envelope.set_event_id(event_id);
  envelope.set_stream_id(meta.stream);
  envelope.set_sequence(meta.sequence);
  envelope.set_type(meta.type);
  envelope.set_schema_version(meta.schema_version);
  envelope.set_occurred_at_micros(meta.occurred_at_micros);
  envelope.set_producer(meta.producer);
  envelope.set_correlation_id(meta.correlation_id);
  envelope.set_causation_id(meta.causation_id);
  payload.SerializeToString(envelope.mutable_payload());
  eventlog::Record record;
  record.topic = meta.topic;
  record.key = meta.stream;
  record.timestamp_micros = meta.occurred_at_micros;
  record.headers = {{"event_id", event_id},
                    {"type", meta.type},
                    {"schema_version", absl::StrCat(meta.schema_version)},
                    {"producer", meta.producer}};
  if (!meta.correlation_id.empty()) {
    record.headers.push_back({"correlation_id", meta.correlation_id});
  }
  envelope.SerializeToString(&record.value);
  return record;
}

std::string TableTopicStream(const TableTopics& topics,
                             std::string_view table_id) {
  return absl::StrCat(ToAbsl(topics.stream_prefix), ToAbsl(table_id));
}

eventlog::Record TableEventRecord(const TableTopics& topics,
                                  std::string_view topic,
                                  std::string_view table_id,
                                  std::string_view request_id,
                                  const google::protobuf::Message& event,
                                  uint64_t sequence,
                                  const TableEventContext& context) {
  return EnvelopeRecord(
      EnvelopeMeta{std::string(topic), TableTopicStream(topics, table_id),
                   std::string(topics.type), topics.schema_version, sequence,
                   context.producer, context.correlation_id,
                   std::string(request_id), context.occurred_at_micros},
      event);
}

absl::Status DecodeEnvelope(const eventlog::StoredRecord& record,
                            std::string_view type, std::string_view what,
                            v1::EventEnvelope* envelope,
                            google::protobuf::Message* payload) {
  const std::string where = absl::StrCat("record ", record.topic, "/",
                                         record.partition, "@", record.offset);
  if (!envelope->ParseFromString(record.value)) {
    return absl::DataLossError(
        absl::StrCat(where, " is not an event envelope"));
  }
  if (envelope->type() != type) {
    return absl::DataLossError(absl::StrCat(where, " has type ",
                                            envelope->type(), ", not a ",
                                            ToAbsl(what), " event"));
  }
  if (!payload->ParseFromString(envelope->payload())) {
    return absl::DataLossError(absl::StrCat(where, ": ", ToAbsl(what),
                                            " event payload does not parse"));
  }
  return absl::OkStatus();
}

}  // namespace banca::wire
