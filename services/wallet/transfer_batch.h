// TransferBatch's own parts (docs/architecture.md, "Transfer batches"):
// the batch's limits, the items whose request id an earlier item of the
// batch already used, and the count of answers that finishes the call
// once the last item is answered. Each item is otherwise a Transfer: the
// service checks and decides it with the single call's code.
#ifndef BANCA_SERVICES_WALLET_TRANSFER_BATCH_H_
#define BANCA_SERVICES_WALLET_TRANSFER_BATCH_H_

#include <atomic>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "banca/v1/wallet.pb.h"

namespace banca::wallet {

// TigerBeetle's batch size: a batch of this many two-leg transfers with
// short ids is about 1 MiB on the wire, and its answer about 2 MiB (under
// gRPC's default 4 MiB receive limit of the client). The request as a
// whole is also held to the server's receive limit (request_limits.h).
inline constexpr int kMaxTransferBatchItems = 8'190;

// INVALID_ARGUMENT for an empty batch or one over kMaxTransferBatchItems.
absl::Status CheckTransferBatchSize(const v1::TransferBatchRequest& request);

// For each item, the index of the first earlier item with the same
// request_id, or -1. Such a repeat is refused on its own (INVALID_ARGUMENT)
// and the first is decided: two items of one call are never one request.
std::vector<int> RepeatedRequestIds(const v1::TransferBatchRequest& request);

// An item's refusal as its answer.
void SetItemStatus(const absl::Status& status, v1::TransferBatchResult& result);

// Counts answers in; the `count`th Done runs `finish`, once, on the thread
// that calls it (items are answered on the log's completion thread, so
// the last to become durable sends the reply).
class BatchCountdown {
 public:
  BatchCountdown(int count, std::function<void()> finish)
      : left_(count), finish_(std::move(finish)) {}
  void Done() {
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) finish_();
  }

 private:
  std::atomic<int> left_;
  std::function<void()> finish_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_TRANSFER_BATCH_H_
