#include "libs/common/request_fingerprint.h"

#include <sodium.h>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "libs/common/check.h"

namespace banca {
namespace {

using google::protobuf::internal::WireFormatLite;

// Removes singular field `number` from the top level of the message
// serialized in bytes[start, end). What is left is what the message would
// serialize to with that field cleared: a message has no length prefix of
// its own, and a deterministic serialization writes a singular field once,
// in place, whatever the others hold.
void StripTopLevelField(std::string& bytes, size_t start, int number) {
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data() + start),
      static_cast<int>(bytes.size() - start));
  while (true) {
    const size_t at = start + static_cast<size_t>(in.CurrentPosition());
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return;
    // The bytes were just serialized: they always parse.
    BANCA_CHECK(WireFormatLite::SkipField(&in, tag));
    if (WireFormatLite::GetTagFieldNumber(tag) == number) {
      bytes.erase(at, start + static_cast<size_t>(in.CurrentPosition()) - at);
      return;
    }
  }
}

}  // namespace

std::string RequestFingerprint(std::string_view method,
                               const google::protobuf::Message& body,
                               std::string_view caller) {
  std::string bytes(method);
  bytes.push_back('\0');
  if (!caller.empty()) {  // keeps the wallet's caller-less fingerprints
    bytes.append(caller);
    bytes.push_back('\0');
  }
  const size_t start = bytes.size();
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    body.SerializeToCodedStream(&out);
  }
  // Without the request id, as a copy of the request with it cleared would
  // serialize (request_fingerprint_test checks that equivalence), but with
  // no copy made.
  if (const auto* field = body.GetDescriptor()->FindFieldByName("request_id");
      field != nullptr) {
    StripTopLevelField(bytes, start, field->number());
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest,
                     reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  return std::string(reinterpret_cast<const char*>(digest), 16);
}

}  // namespace banca
