#include "services/table/banked_codec.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::table {
namespace {

constexpr std::string_view kStakeStep = "/stake";

}  // namespace

std::string BankedStream(std::string_view table_id) {
  return absl::StrCat("banked/", ToAbsl(table_id));
}

std::string_view BankedGameName(v1::BankedGame game) {
  switch (game) {
    case v1::BANKED_GAME_ROULETTE_FRENCH:
      return "roulette_french";
    case v1::BANKED_GAME_ROULETTE_AMERICAN:
      return "roulette_american";
    case v1::BANKED_GAME_BLACKJACK:
      return "blackjack";
    case v1::BANKED_GAME_STUD_NO_DRAW:
      return "stud_no_draw";
    default:
      return "";
  }
}

std::string StakeSagaId(std::string_view table_id, int64_t n) {
  return absl::StrCat("banked/", ToAbsl(table_id), "/stake/", n);
}

std::string StakeRequestId(std::string_view saga_id) {
  return absl::StrCat(ToAbsl(saga_id), ToAbsl(kStakeStep));
}

std::string SagaOfStakeRequest(std::string_view request_id) {
  const absl::string_view id = ToAbsl(request_id);
  if (!absl::StartsWith(id, "banked/") ||
      !absl::EndsWith(id, ToAbsl(kStakeStep))) {
    return "";
  }
  return std::string(id.substr(0, id.size() - kStakeStep.size()));
}

eventlog::Record EncodeBankedRecord(const v1::BankedTableEvent& event,
                                    uint64_t sequence,
                                    const BankedEventContext& context) {
  const std::string stream = BankedStream(event.table_id());
  const std::string event_id = absl::StrCat(stream, "#", sequence);
  v1::EventEnvelope envelope;
  envelope.set_event_id(event_id);
  envelope.set_stream_id(stream);
  envelope.set_sequence(sequence);
  envelope.set_type(std::string(kBankedEventType));
  envelope.set_schema_version(kBankedSchemaVersion);
  envelope.set_occurred_at_micros(context.occurred_at_micros);
  envelope.set_producer(context.producer);
  envelope.set_correlation_id(context.correlation_id);
  envelope.set_causation_id(event.request_id());
  event.SerializeToString(envelope.mutable_payload());
  eventlog::Record record;
  record.topic = std::string(kBankedTopic);
  record.key = stream;
  record.timestamp_micros = context.occurred_at_micros;
  record.headers = {{"event_id", event_id},
                    {"type", std::string(kBankedEventType)},
                    {"schema_version", absl::StrCat(kBankedSchemaVersion)},
                    {"producer", context.producer}};
  if (!context.correlation_id.empty()) {
    record.headers.push_back({"correlation_id", context.correlation_id});
  }
  envelope.SerializeToString(&record.value);
  return record;
}

absl::StatusOr<DecodedBankedEvent> DecodeBankedRecord(
    const eventlog::StoredRecord& record) {
  DecodedBankedEvent out;
  const std::string where = absl::StrCat("record ", record.topic, "/",
                                         record.partition, "@", record.offset);
  if (!out.envelope.ParseFromString(record.value)) {
    return absl::DataLossError(
        absl::StrCat(where, " is not an event envelope"));
  }
  if (out.envelope.type() != kBankedEventType) {
    return absl::DataLossError(absl::StrCat(
        where, " has type ", out.envelope.type(), ", not a banked event"));
  }
  if (!out.event.ParseFromString(out.envelope.payload())) {
    return absl::DataLossError(
        absl::StrCat(where, ": banked event payload does not parse"));
  }
  return out;
}

}  // namespace banca::table
