#include "libs/common/request_fingerprint.h"

#include <sodium.h>

#include <memory>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace banca {

std::string RequestFingerprint(std::string_view method,
                               const google::protobuf::Message& body,
                               std::string_view caller) {
  std::unique_ptr<google::protobuf::Message> copy(body.New());
  copy->CopyFrom(body);
  const auto* field = copy->GetDescriptor()->FindFieldByName("request_id");
  if (field != nullptr) copy->GetReflection()->ClearField(copy.get(), field);
  std::string bytes(method);
  bytes.push_back('\0');
  if (!caller.empty()) {  // keeps the wallet's caller-less fingerprints
    bytes.append(caller);
    bytes.push_back('\0');
  }
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    copy->SerializeToCodedStream(&out);
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest,
                     reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  return std::string(reinterpret_cast<const char*>(digest), 16);
}

}  // namespace banca
