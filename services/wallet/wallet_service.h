// The wallet service: the gRPC edge over the ledger, the log and the wallet
// projection, and the composition of the wallet's parts.
//
// The edge authenticates each call, checks the caller's right and the
// request, and runs a mutating one as a command (wallet_commands.h:
// claimed in the idempotency index, decided by the ledger, appended, and
// answered once durable). Beside the edge, the wallet replays its log at
// start (wallet_replay.h), carries out the tables' money requests
// (request_reader.h with table_requests.h and banked_requests.h, and
// request_quarantine.h for those that can never be), releases expired
// holds (hold_expiry.h), and in group mode shares its topic with other
// wallet processes (wallet_group.h).
#ifndef BANCA_SERVICES_WALLET_WALLET_SERVICE_H_
#define BANCA_SERVICES_WALLET_WALLET_SERVICE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "prometheus/registry.h"
#include "services/wallet/appended_offsets.h"
#include "services/wallet/banked_requests.h"
#include "services/wallet/hold_expiry.h"
#include "services/wallet/in_flight_log.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/request_loop.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/request_reader.h"
#include "services/wallet/table_requests.h"
#include "services/wallet/tournament_requests.h"
#include "services/wallet/transfer_batch.h"
#include "services/wallet/wallet_access.h"
#include "services/wallet/wallet_commands.h"
#include "services/wallet/wallet_group.h"
#include "services/wallet/wallet_metrics.h"
#include "services/wallet/wallet_replay.h"
#include "services/wallet/wallet_snapshots.h"

namespace banca::wallet {

struct WalletOptions {
  std::string currency = "EUR";
  int partitions = 8;
  std::string producer = "wallet";
  // Where the RocksDB projection lives.
  std::string projection_dir;
  // Where the wallet's snapshots live (wallet_snapshots.h); "": none, every
  // start replays the log from offset 0.
  std::string snapshot_dir;
  // A snapshot every this many events of the log, and one at a clean stop
  // (0: only at a stop).
  int64_t snapshot_every_events = 0;
  // Where the answered requests live (libs/answers/rocksdb_answer_store.h);
  // "": in memory (every start replays them).
  std::string answer_store_dir;
  // How long a request id's answer is kept: a retry within it is answered
  // again, a reuse after it is a new request (zero: for ever).
  absl::Duration idempotency_window = absl::Hours(7 * 24);
  // How often open holds are checked for expiry; 0 disables the sweeper.
  absl::Duration expiry_interval = absl::Seconds(1);
  // Holds without a ttl get this one.
  int32_t default_hold_ttl_seconds = 900;
  // How long a read waits for the projection to reach the caller's writes.
  absl::Duration read_your_writes_timeout = absl::Seconds(5);
  // How often the table service's money requests (buy-ins, hand
  // settlements, cash-outs on banca.table.requests) are picked up; 0 turns
  // the reader off (tests call PollTableRequests).
  absl::Duration table_requests_interval = absl::Milliseconds(2);
  // The partitions of the request topics the wallet makes when they are
  // missing (it reads an existing one with the partitions it has).
  int table_partitions = 8;
  int banked_partitions = 8;
  int tournament_partitions = 8;
  // Group mode (docs/architecture.md, "Several wallet processes"): this
  // process joins consumer group `group` on banca.wallet.events with the
  // other wallet processes, decides only for the owners of the partitions
  // the group assigns it (partition_ownership.h) and follows the others'
  // events. Empty: the only wallet, deciding for everyone.
  std::string group;
  int group_session_timeout_ms = 10'000;
  // How often the group is polled (each poll briefly holds decisions back
  // until the ones in flight are appended).
  absl::Duration group_poll_interval = absl::Milliseconds(200);
  // How often the other processes' events are followed.
  absl::Duration follow_interval = absl::Milliseconds(2);
  // Registry for Prometheus metrics; null disables metrics.
  prometheus::Registry* metrics = nullptr;
  // The keys callers' tokens must be signed with (docs/security.md). Start
  // refuses an empty verifier unless `insecure_dev` is set, which turns
  // every identity and role check off (a developer's machine only).
  auth::Verifier verifier;
  bool insecure_dev = false;
  std::string audience = std::string(auth::kDefaultAudience);
};

// Every method but ListTransactions uses gRPC's callback API: a command
// returns its handler thread to gRPC as soon as its event is queued on the
// log, and the log's completion thread sends the reply once the event is
// durable, so no thread waits on an fsync. ListTransactions stays
// synchronous because it may wait for the projection.
using WalletServiceBase = v1::WalletService::WithCallbackMethod_OpenAccount<
    v1::WalletService::WithCallbackMethod_CloseAccount<
        v1::WalletService::WithCallbackMethod_Deposit<
            v1::WalletService::WithCallbackMethod_Withdraw<
                v1::WalletService::WithCallbackMethod_GetBalance<
                    v1::WalletService::WithCallbackMethod_PlaceHold<
                        v1::WalletService::WithCallbackMethod_CaptureHold<
                            v1::WalletService::WithCallbackMethod_ReleaseHold<
                                v1::WalletService::WithCallbackMethod_Transfer<
                                    v1::WalletService::
                                        WithCallbackMethod_TransferBatch<
                                            v1::WalletService::
                                                WithCallbackMethod_GetLedgerSummary<
                                                    v1::WalletService::
                                                        Service>>>>>>>>>>>;

class WalletService final : public WalletServiceBase {
 public:
  // Replays the wallet topic into the ledger, opens the projection and
  // starts following the log.
  static absl::StatusOr<std::unique_ptr<WalletService>> Start(
      eventlog::EventLog& log, const Clock& clock, WalletOptions options);
  ~WalletService() override;

  // Stops the background threads and brings the projection up to date.
  absl::Status Stop();

  grpc::ServerUnaryReactor* OpenAccount(grpc::CallbackServerContext*,
                                        const v1::OpenAccountRequest*,
                                        v1::AccountResponse*) override;
  grpc::ServerUnaryReactor* CloseAccount(grpc::CallbackServerContext*,
                                         const v1::CloseAccountRequest*,
                                         v1::AccountResponse*) override;
  grpc::ServerUnaryReactor* Deposit(grpc::CallbackServerContext*,
                                    const v1::DepositRequest*,
                                    v1::TransactionResponse*) override;
  grpc::ServerUnaryReactor* Withdraw(grpc::CallbackServerContext*,
                                     const v1::WithdrawRequest*,
                                     v1::TransactionResponse*) override;
  grpc::ServerUnaryReactor* GetBalance(grpc::CallbackServerContext*,
                                       const v1::GetBalanceRequest*,
                                       v1::BalanceResponse*) override;
  grpc::Status ListTransactions(grpc::ServerContext*,
                                const v1::ListTransactionsRequest*,
                                v1::ListTransactionsResponse*) override;
  grpc::ServerUnaryReactor* PlaceHold(grpc::CallbackServerContext*,
                                      const v1::PlaceHoldRequest*,
                                      v1::HoldResponse*) override;
  grpc::ServerUnaryReactor* CaptureHold(grpc::CallbackServerContext*,
                                        const v1::CaptureHoldRequest*,
                                        v1::HoldResponse*) override;
  grpc::ServerUnaryReactor* ReleaseHold(grpc::CallbackServerContext*,
                                        const v1::ReleaseHoldRequest*,
                                        v1::HoldResponse*) override;
  grpc::ServerUnaryReactor* Transfer(grpc::CallbackServerContext*,
                                     const v1::TransferRequest*,
                                     v1::TransactionResponse*) override;
  // Each item as Transfer, decided in the items' order; the reply goes out
  // when the last item's event is durable (transfer_batch.h).
  grpc::ServerUnaryReactor* TransferBatch(grpc::CallbackServerContext*,
                                          const v1::TransferBatchRequest*,
                                          v1::TransferBatchResponse*) override;
  grpc::ServerUnaryReactor* GetLedgerSummary(
      grpc::CallbackServerContext*, const v1::GetLedgerSummaryRequest*,
      v1::LedgerSummaryResponse*) override;

  // Carries out the table service's money requests logged since the last
  // call (table_requests.h); returns how many records.
  absl::StatusOr<int> PollTableRequests() { return table_reader_->Poll(); }
  // The banked tables' stakes and settlements (banca.banked.requests,
  // banked_requests.h).
  absl::StatusOr<int> PollBankedRequests() { return banked_reader_->Poll(); }
  absl::StatusOr<int> PollTournamentRequests() {
    return tournament_reader_->Poll();
  }

  // Records of banca.table.requests (and of the banked tables' topic) this
  // process has yet to carry out: the log's end less each reader's
  // position, summed over its readers (in group mode one per owned
  // partition). Near 0 when the wallet keeps up; exported as
  // banca_wallet_request_lag_records{topic}.
  absl::StatusOr<int64_t> TableRequestLag() { return table_reader_->Lag(); }
  absl::StatusOr<int64_t> BankedRequestLag() { return banked_reader_->Lag(); }

  // Group mode: the wallet partitions this process decides for now.
  std::vector<int> OwnedPartitions() const;

  const ledger::Ledger& ledger() const { return ledger_; }
  const ledger::IdempotencyIndex& idempotency() const { return idempotency_; }
  projection::ProjectionStore& projection() { return *store_; }
  // Events replayed at start (after the snapshot loaded, if any).
  int64_t replayed_events() const { return replayed_events_; }
  // Takes a snapshot now (wallet_snapshots.h); "" when none was taken.
  absl::StatusOr<std::string> TakeSnapshot() { return snapshots_->Take(); }

 private:
  WalletService(eventlog::EventLog& log, const Clock& clock,
                WalletOptions options,
                std::unique_ptr<ledger::AnswerStore> answer_store);

  // The caller of an RPC; UNAUTHENTICATED without a valid token (unless
  // insecure_dev).
  absl::StatusOr<Caller> Authenticate(
      const grpc::ServerContextBase* context) const;
  // A client's mutating call: `checked` is the caller's right and the
  // request's validity, decided before anything else.
  template <typename Fill>
  grpc::ServerUnaryReactor* Command(
      grpc::CallbackServerContext* context, std::string_view method,
      const absl::StatusOr<Caller>& caller, std::string_view request_id,
      const google::protobuf::Message& body, absl::Status checked,
      const WalletCommands::Decide& decide, Fill fill);
  // A Transfer's checks, for the single call and each batch item alike:
  // the caller's right (by reason and account classes), then the
  // request's validity.
  absl::Status CheckTransfer(const Caller& caller,
                             const v1::TransferRequest& request) const;
  // A checked Transfer's decision (it reads `request` when it runs) and
  // the player its answer's balance is of ("" for none).
  struct TransferCommand {
    WalletCommands::Decide decide;
    std::string player;
  };
  TransferCommand MakeTransfer(const v1::TransferRequest& request);
  // One item of a TransferBatch (`repeats`: the earlier item with its
  // request id, or -1): checked and run as a Transfer, its answer in
  // `result`, then counted down.
  void BatchItem(grpc::CallbackServerContext* context, const Caller& caller,
                 const v1::TransferRequest& item, int repeats,
                 v1::TransferBatchResult& result,
                 std::shared_ptr<BatchCountdown> countdown);
  void Reply(grpc::ServerUnaryReactor* reactor, std::string_view method,
             absl::Time start, const absl::Status& status);
  grpc::Status Finish(std::string_view method, absl::Time start,
                      const absl::Status& status);

  eventlog::EventLog& log_;
  // log_ counting the appends in flight, for snapshots.
  InFlightLog in_flight_;
  const Clock& clock_;
  const WalletOptions options_;
  // Null when metrics are off.
  std::unique_ptr<WalletMetrics> metrics_;
  // Group mode only: what this process decides for (the ledger asks).
  std::unique_ptr<PartitionOwnership> ownership_;
  ledger::Ledger ledger_;
  // Null when answers are kept in memory.
  std::unique_ptr<ledger::AnswerStore> answer_store_;
  ledger::IdempotencyIndex idempotency_;
  AppendedOffsets appended_;
  // Notified once, by Stop: every background loop ends.
  absl::Notification stopping_;
  WalletReplay replay_;
  // Group mode only.
  std::unique_ptr<WalletGroup> group_;
  std::unique_ptr<WalletCommands> commands_;
  std::unique_ptr<RequestQuarantine> quarantine_;
  std::unique_ptr<TableRequests> table_requests_;
  std::unique_ptr<BankedRequests> banked_requests_;
  std::unique_ptr<TournamentRequests> tournament_requests_;
  std::unique_ptr<RequestReader> table_reader_;
  std::unique_ptr<RequestReader> banked_reader_;
  std::unique_ptr<RequestReader> tournament_reader_;
  std::unique_ptr<HoldExpiry> expiry_;
  std::unique_ptr<RequestLoop> request_loop_;
  std::unique_ptr<WalletSnapshots> snapshots_;
  std::unique_ptr<projection::ProjectionStore> store_;
  projection::WalletProjector projector_;
  std::unique_ptr<projection::ProjectionRunner> runner_;
  int64_t replayed_events_ = 0;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_SERVICE_H_
