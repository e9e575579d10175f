#include "services/wallet/transfer_batch.h"

#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace banca::wallet {

absl::Status CheckTransferBatchSize(const v1::TransferBatchRequest& request) {
  if (request.items_size() == 0) {
    return absl::InvalidArgumentError("a transfer batch needs 1 item or more");
  }
  if (request.items_size() > kMaxTransferBatchItems) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a transfer batch carries at most ", kMaxTransferBatchItems,
        " items, got ", request.items_size()));
  }
  return absl::OkStatus();
}

std::vector<int> RepeatedRequestIds(const v1::TransferBatchRequest& request) {
  std::vector<int> first(request.items_size(), -1);
  absl::flat_hash_map<std::string_view, int> seen;
  seen.reserve(request.items_size());
  for (int i = 0; i < request.items_size(); ++i) {
    const std::string& id = request.items(i).request_id();
    auto [it, inserted] = seen.try_emplace(std::string_view(id), i);
    if (!inserted) first[i] = it->second;
  }
  return first;
}

void SetItemStatus(const absl::Status& status,
                   v1::TransferBatchResult& result) {
  result.set_code(static_cast<int32_t>(status.code()));
  result.set_message(std::string(status.message()));
}

}  // namespace banca::wallet
