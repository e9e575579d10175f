#include "services/audit/log_tail.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "google/protobuf/util/json_util.h"
#include "libs/common/json_text.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"

namespace banca::audit {
namespace {

using Json = nlohmann::ordered_json;

std::string When(int64_t micros) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::FromUnixMicros(micros),
                          absl::UTCTimeZone());
}

bool IsWallet(const eventlog::StoredRecord& record) {
  return record.topic == wire::kWalletTopic;
}

// The name of the event's kind ("transaction_posted"; "" none).
std::string KindName(const v1::WalletEvent& event) {
  const google::protobuf::OneofDescriptor* kind =
      event.GetDescriptor()->FindOneofByName("kind");
  const google::protobuf::FieldDescriptor* set =
      kind == nullptr
          ? nullptr
          : event.GetReflection()->GetOneofFieldDescriptor(event, kind);
  return set == nullptr ? "" : set->name();
}

// The event's fields as protobuf writes them in JSON.
Json EventFields(const v1::WalletEvent& event) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string text;
  if (!google::protobuf::util::MessageToJsonString(event, &text, options)
           .ok()) {
    return nullptr;
  }
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

void AddWalletEvent(const eventlog::StoredRecord& record, Json& out) {
  absl::StatusOr<wire::DecodedWalletEvent> decoded =
      wire::DecodeWalletRecord(record);
  if (!decoded.ok()) {
    out["error"] = std::string(decoded.status().message());
    return;
  }
  const v1::EventEnvelope& env = decoded->envelope;
  out["event_id"] = env.event_id();
  out["stream"] = env.stream_id();
  out["sequence"] = env.sequence();
  out["type"] = KindName(decoded->event);
  out["request_id"] = decoded->event.request_id();
  out["actor"] = decoded->event.actor();
  out["description"] = wire::DescribeWalletEvent(decoded->event);
  out["event"] = EventFields(decoded->event);
}

}  // namespace

absl::StatusOr<std::vector<eventlog::StoredRecord>> TailTopic(
    eventlog::EventLog& log, const std::string& topic, int64_t n) {
  if (n < 1 || n > kMaxTail) {
    return absl::InvalidArgumentError(
        absl::StrCat("the number of records is 1..", kMaxTail, ", not ", n));
  }
  absl::StatusOr<int> partitions = log.PartitionCount(topic);
  if (!partitions.ok()) return partitions.status();
  // The last n of each partition, merged by time.
  std::vector<eventlog::StoredRecord> records;
  for (int p = 0; p < *partitions; ++p) {
    absl::StatusOr<int64_t> end = log.EndOffset(topic, p);
    if (!end.ok()) return end.status();
    absl::StatusOr<std::vector<eventlog::StoredRecord>> got =
        log.Read(topic, p, std::max<int64_t>(0, *end - n), n);
    if (!got.ok()) return got.status();
    for (eventlog::StoredRecord& r : *got) records.push_back(std::move(r));
  }
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
    return std::tie(a.timestamp_micros, a.partition, a.offset) <
           std::tie(b.timestamp_micros, b.partition, b.offset);
  });
  if (records.size() > static_cast<size_t>(n)) {
    records.erase(records.begin(), records.end() - n);
  }
  return records;
}

std::string TailLine(const eventlog::StoredRecord& record) {
  std::string what;
  if (IsWallet(record)) {
    absl::StatusOr<wire::DecodedWalletEvent> decoded =
        wire::DecodeWalletRecord(record);
    what = decoded.ok()
               ? absl::StrCat(decoded->envelope.event_id(), " ",
                              wire::DescribeWalletEvent(decoded->event))
               : absl::StrCat("UNDECODABLE: ", decoded.status().message());
  } else {
    what = absl::StrCat(record.value.size(), " bytes");
  }
  return absl::StrCat(When(record.timestamp_micros), " ", record.partition, "@",
                      record.offset, " ", what);
}

std::string TailJson(const eventlog::StoredRecord& record) {
  Json out;
  out["topic"] = record.topic;
  out["partition"] = record.partition;
  out["offset"] = record.offset;
  out["time"] = When(record.timestamp_micros);
  out["key"] = record.key;
  Json headers = Json::object();
  for (const eventlog::Header& h : record.headers) headers[h.key] = h.value;
  out["headers"] = std::move(headers);
  if (IsWallet(record)) {
    AddWalletEvent(record, out);
  } else {
    out["bytes"] = record.value.size();
  }
  return JsonText(out);
}

}  // namespace banca::audit
