#include "services/common/event_size.h"

#include "absl/strings/str_cat.h"

namespace banca::edge {

absl::Status CheckEventSize(const google::protobuf::Message& event) {
  const size_t bytes = event.ByteSizeLong();
  if (bytes <= kMaxEventBytes) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "the request would log a ", event.GetTypeName(), " of ", bytes,
      " bytes; an event is at most ", kMaxEventBytes, " bytes"));
}

}  // namespace banca::edge
