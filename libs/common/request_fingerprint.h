// A fingerprint of a request body without its request id, so that a retry
// (same id, same body) is told apart from a reuse of the id for another
// request (same id, other body: ALREADY_EXISTS). Every service's idempotency
// uses it.
#ifndef BANCA_LIBS_COMMON_REQUEST_FINGERPRINT_H_
#define BANCA_LIBS_COMMON_REQUEST_FINGERPRINT_H_

#include <string>
#include <string_view>

#include "google/protobuf/message.h"

namespace banca {

// 16 bytes of SHA-256 over the method name and the deterministic
// serialization of `body` with its `request_id` field cleared, plus `caller`
// (so one caller's id never matches another's request).
std::string RequestFingerprint(std::string_view method,
                               const google::protobuf::Message& body,
                               std::string_view caller = "");

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_REQUEST_FINGERPRINT_H_
