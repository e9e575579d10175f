// One table event as a log record: the payload in an EventEnvelope whose
// routing fields are copied into the record's headers (DESIGN "Event
// log"). Shared by the poker tables' and the banked tables' topics, which
// differ only in topic, stream and payload type.
#ifndef BANCA_LIBS_WIRE_ENVELOPE_RECORD_H_
#define BANCA_LIBS_WIRE_ENVELOPE_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/envelope.pb.h"
#include "google/protobuf/message.h"
#include "libs/eventlog/event_log.h"

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

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_ENVELOPE_RECORD_H_
