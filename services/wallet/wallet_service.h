// The wallet service: the gRPC edge over the ledger, the log and the wallet
// projection.
//
// A mutating call is validated, claimed in the idempotency index, decided by
// the ledger, appended to the log while the ledger's locks are held (so the
// log's order is the ledger's), and answered only once the append is
// durable. A retry with the same request id gets the first answer back,
// rebuilt from the event, even after a restart. If the log ever fails to
// make an event durable, the process stops: its memory then holds a decision
// the log does not, and only a restart (which replays the log) is safe.
#ifndef BANCA_SERVICES_WALLET_WALLET_SERVICE_H_
#define BANCA_SERVICES_WALLET_WALLET_SERVICE_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "banca/v1/table.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/group_member.h"
#include "libs/ledger/idempotency.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "prometheus/registry.h"
#include "services/wallet/partition_ownership.h"
#include "services/wallet/wallet_access.h"
#include "services/wallet/wallet_metrics.h"

namespace banca::wallet {

struct WalletOptions {
  std::string currency = "EUR";
  int partitions = 8;
  std::string producer = "wallet";
  // Where the RocksDB projection lives.
  std::string projection_dir;
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
  int table_partitions = 8;
  int banked_partitions = 8;
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
                                        WithCallbackMethod_GetLedgerSummary<
                                            v1::WalletService::
                                                Service>>>>>>>>>>;

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
  grpc::ServerUnaryReactor* GetLedgerSummary(
      grpc::CallbackServerContext*, const v1::GetLedgerSummaryRequest*,
      v1::LedgerSummaryResponse*) override;

  // Carries out the table service's money requests logged since the last
  // call (services/wallet/table_requests.cc); returns how many events.
  absl::StatusOr<int> PollTableRequests();
  // The banked tables' stakes and settlements (banca.banked.requests,
  // services/wallet/banked_requests.cc).
  absl::StatusOr<int> PollBankedRequests();

  // Records of banca.table.requests (and of the banked tables' topic) this
  // process has yet to carry out: the log's end less each reader's
  // position, summed over its readers (in group mode one per owned
  // partition). Near 0 when the wallet keeps up; exported as
  // banca_wallet_request_lag_records{topic}.
  absl::StatusOr<int64_t> TableRequestLag();
  absl::StatusOr<int64_t> BankedRequestLag();

  // Group mode: the wallet partitions this process decides for now.
  std::vector<int> OwnedPartitions() const;

  const ledger::Ledger& ledger() const { return ledger_; }
  projection::ProjectionStore& projection() { return *store_; }
  // Events replayed at start.
  int64_t replayed_events() const { return replayed_events_; }

 private:
  WalletService(eventlog::EventLog& log, const Clock& clock,
                WalletOptions options);
  absl::Status Replay();
  // Applies one logged event to the ledger and the idempotency index.
  // Replaying, a repeat is DATA_LOSS; following, an event this process
  // decided itself is skipped (false).
  absl::StatusOr<bool> ApplyLogged(const eventlog::StoredRecord& record,
                                   bool replaying);

  // Runs one mutating command end to end (see the file comment). `done`
  // runs exactly once: at once for an error or a repeat, else on the log's
  // completion thread when the event is durable.
  using Decide =
      std::function<absl::Status(const ledger::CommandMeta&, ledger::CommitFn)>;
  using Done = std::function<void(absl::StatusOr<v1::WalletEvent>)>;
  // `decided`, if given, receives the event as decided (or, for a repeat,
  // as recorded) before ExecuteAsync returns.
  // `request_id` is the idempotency key (a client's is namespaced by
  // Caller::ClientKey); `actor` is recorded on the event.
  void ExecuteAsync(std::string_view method, std::string_view request_id,
                    std::string_view actor,
                    const google::protobuf::Message& body,
                    const grpc::ServerContextBase* context,
                    const Decide& decide, Done done,
                    v1::WalletEvent* decided = nullptr);
  // For the table readers: decides now (the ledger's order is the log's)
  // and returns the decision, or its error, without waiting for the event
  // to be durable; WaitQueued waits until every queued event is. A step
  // then costs no fsync wait of its own: they share the log's group commit.
  // A later step may use what an earlier one decided (a buy-in's capture,
  // the hold's id): both are on the player's stream, durable in order.
  absl::StatusOr<v1::WalletEvent> ExecuteQueued(
      std::string_view method, std::string_view request_id,
      const google::protobuf::Message& body, const Decide& decide);
  void WaitQueued();
  // Blocking form, for the service's own threads (hold expiry).
  absl::StatusOr<v1::WalletEvent> Execute(std::string_view method,
                                          std::string_view request_id,
                                          const google::protobuf::Message& body,
                                          const Decide& decide);
  // The caller of an RPC; UNAUTHENTICATED without a valid token (unless
  // insecure_dev).
  absl::StatusOr<Caller> Authenticate(
      const grpc::ServerContextBase* context) const;
  // A client's mutating call: `checked` is the caller's right and the
  // request's validity, decided before anything else.
  template <typename Fill>
  grpc::ServerUnaryReactor* Command(grpc::CallbackServerContext* context,
                                    std::string_view method,
                                    const absl::StatusOr<Caller>& caller,
                                    std::string_view request_id,
                                    const google::protobuf::Message& body,
                                    absl::Status checked, const Decide& decide,
                                    Fill fill);
  void Reply(grpc::ServerUnaryReactor* reactor, std::string_view method,
             absl::Time start, const absl::Status& status);
  void ExpiryLoop();
  void TableRequestsLoop();
  // Carry out a request whose deciding owner is on `wallet_partition`
  // (-1: any); skip the others'.
  using CarryOut = absl::Status (WalletService::*)(
      const eventlog::StoredRecord&, int wallet_partition);
  absl::Status CarryOutTableRequest(const eventlog::StoredRecord& record,
                                    int wallet_partition);
  absl::Status CarryOutBankedRequest(const eventlog::StoredRecord& record,
                                     int wallet_partition);
  bool DecidedHere(std::string_view owner, int wallet_partition) const;
  // A request record that does not decode (`why`): whether it asked for
  // money nobody can tell, so the kUnnamedRequester's reader quarantines it
  // (QuarantineOrRetry) and the others pass it over.
  absl::Status CarryOutUndecodable(const eventlog::StoredRecord& record,
                                   int wallet_partition,
                                   const absl::Status& why);
  // The requests of banca.table.requests, by kind (table_requests.cc).
  absl::Status CarryOutBuyIn(const eventlog::StoredRecord& record,
                             const v1::TableEvent& event, int wallet_partition);
  absl::Status CarryOutHandSettled(const eventlog::StoredRecord& record,
                                   const v1::TableEvent& event,
                                   int wallet_partition);
  absl::Status CarryOutCashOut(const eventlog::StoredRecord& record,
                               const v1::TableEvent& event,
                               std::string_view event_id, int wallet_partition);
  // A request that cannot be carried out (request_quarantine.h): whether
  // `record` was quarantined already (it is then not carried out again);
  // `why` stopping `step` of `record` quarantined on `owner`'s stream if
  // permanent (OK: the reader moves on), else returned (the reader
  // retries); a buy-in's hold that a failed step left open, released.
  bool Quarantined(const eventlog::StoredRecord& record) const;
  absl::Status QuarantineOrRetry(const eventlog::StoredRecord& record,
                                 std::string_view owner, std::string_view step,
                                 const absl::Status& why);
  absl::Status ReleaseStrandedHold(const eventlog::StoredRecord& record,
                                   std::string_view hold_id);
  absl::StatusOr<int> PollRequests(std::string_view topic,
                                   std::string_view group,
                                   std::vector<int64_t>& offsets,
                                   CarryOut carry_out, int wallet_partition);
  // In group mode one cursor (group "<group>.<p>") per owned wallet
  // partition p; else one for everything.
  absl::StatusOr<int> PollRequestsPerPartition(
      std::string_view topic, std::string_view group,
      std::vector<int64_t>& single, std::map<int, std::vector<int64_t>>& owned,
      CarryOut carry_out);

  // Group mode (wallet_group.cc).
  absl::Status JoinGroup();
  void GroupLoop();
  // Applies the events other processes appended since the last call, up to
  // the end of every partition.
  absl::Status Follow();
  // Drains decisions, polls the group and, on a new assignment, takes the
  // partitions over only once their previous owner's appends are settled
  // and followed.
  void PollGroup();
  // The offset commit that fences an append on `stream`.
  eventlog::OffsetCommit FenceFor(std::string_view stream);
  void RecordAppended(const std::vector<eventlog::Position>& positions);
  grpc::Status Finish(std::string_view method, absl::Time start,
                      const absl::Status& status);

  eventlog::EventLog& log_;
  const Clock& clock_;
  const WalletOptions options_;
  // Group mode only: what this process decides for (the ledger asks).
  std::unique_ptr<PartitionOwnership> ownership_;
  ledger::Ledger ledger_;
  ledger::IdempotencyIndex idempotency_;
  std::unique_ptr<projection::ProjectionStore> store_;
  projection::WalletProjector projector_;
  std::unique_ptr<projection::ProjectionRunner> runner_;
  std::unique_ptr<WalletMetrics> metrics_;
  int64_t replayed_events_ = 0;

  // Group mode only.
  std::unique_ptr<eventlog::GroupMember> member_;
  std::thread group_thread_;
  int64_t assignment_epoch_ = -1;  // group thread only
  absl::Mutex follow_mu_;
  std::vector<int64_t> followed_ ABSL_GUARDED_BY(follow_mu_);

  absl::Mutex appended_mu_;
  projection::OffsetMap appended_;

  absl::Mutex stop_mu_;
  absl::CondVar stop_cv_;
  bool stopping_ = false;
  std::thread expiry_thread_;
  std::thread table_requests_thread_;
  absl::Mutex table_requests_mu_;
  std::vector<int64_t> table_offsets_ ABSL_GUARDED_BY(table_requests_mu_);
  std::vector<int64_t> banked_offsets_ ABSL_GUARDED_BY(table_requests_mu_);
  std::map<int, std::vector<int64_t>> table_cursors_
      ABSL_GUARDED_BY(table_requests_mu_);
  std::map<int, std::vector<int64_t>> banked_cursors_
      ABSL_GUARDED_BY(table_requests_mu_);
  absl::StatusOr<int64_t> RequestLagLocked(
      std::string_view topic, const std::vector<int64_t>& single,
      const std::map<int, std::vector<int64_t>>& owned)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(table_requests_mu_);
  // What the table readers queued on the log (buy-ins, stakes, hand
  // settlements, cash-outs) and is not durable yet (ExecuteQueued,
  // WaitQueued).
  absl::Mutex queued_mu_;
  absl::CondVar queued_cv_;
  int64_t queued_ ABSL_GUARDED_BY(queued_mu_) = 0;
  absl::Status queued_error_ ABSL_GUARDED_BY(queued_mu_);
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_WALLET_SERVICE_H_
