#include "services/wallet/wallet_service.h"

#include <sodium.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/answers/rocksdb_answer_store.h"
#include "libs/common/log_line.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/ledger/account.h"
#include "libs/money/money.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_responses.h"
#include "services/common/bearer_auth.h"

namespace banca::wallet {
namespace {

constexpr int32_t kMaxHoldTtlSeconds = 7 * 24 * 3600;
constexpr int32_t kMaxPageSize = 500;
constexpr int32_t kDefaultPageSize = 50;
// The caller's right first, then the request's validity: a caller without
// the right learns nothing about the request.
template <typename May, typename Valid>
absl::Status Vet(const absl::StatusOr<Caller>& caller, May may, Valid valid) {
  RETURN_IF_ERROR(caller.status());
  RETURN_IF_ERROR(may(*caller));
  return valid();
}

grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()),
                      std::string(s.message()));
}

// A topic of money requests the wallet only reads: made with `partitions`
// when it is missing, so that the reader can start before the tables that
// write it; one that exists is read with the partitions it has (its writers
// hold it to theirs).
absl::Status EnsureRequestsTopic(eventlog::EventLog& log,
                                 std::string_view topic, int partitions) {
  if (log.PartitionCount(topic).ok()) return absl::OkStatus();
  return log.EnsureTopic({std::string(topic), partitions});
}

absl::Status Invalid(std::string_view what) {
  return absl::InvalidArgumentError(ToAbsl(what));
}

// A request id the idempotency index can keep (ledger::IsValidRequestId).
absl::Status CheckRequestId(std::string_view id) {
  if (ledger::IsValidRequestId(id)) return absl::OkStatus();
  return Invalid(
      "request_id must be 1-128 printable ASCII characters without spaces");
}

absl::Status CheckPlayerId(std::string_view id) {
  if (!ledger::IsValidId(id)) {
    return Invalid(
        "player_id must be 1-64 of [A-Za-z0-9_.-], starting with a "
        "letter or digit");
  }
  return absl::OkStatus();
}

absl::Status CheckAmount(int64_t amount) {
  if (amount <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("amount_minor must be positive, got ", amount));
  }
  if (amount > money::kMaxAmountMinor) {
    return absl::InvalidArgumentError(absl::StrCat("amount_minor ", amount,
                                                   " exceeds the limit ",
                                                   money::kMaxAmountMinor));
  }
  return absl::OkStatus();
}

absl::Status CheckCurrency(std::string_view currency,
                           const std::string& ledger_currency) {
  if (currency.empty() || currency == ledger_currency) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("currency \"", ToAbsl(currency.substr(0, 8)),
                   "\" is not this wallet's currency ", ledger_currency));
}

absl::Status CheckReasonGiven(v1::PostingReason reason) {
  if (reason == v1::POSTING_REASON_UNSPECIFIED ||
      !v1::PostingReason_IsValid(reason)) {
    return Invalid("a posting reason is required");
  }
  if (reason == v1::POSTING_REASON_HOLD ||
      reason == v1::POSTING_REASON_HOLD_RELEASE) {
    return Invalid("hold and hold_release postings are made by the ledger");
  }
  return absl::OkStatus();
}

// Money moves in and out of player/<id>/held only through holds.
absl::Status CheckNotHeld(std::string_view account) {
  if (absl::EndsWith(ToAbsl(account), "/held") &&
      absl::StartsWith(ToAbsl(account), "player/")) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(account), " moves only through holds"));
  }
  return absl::OkStatus();
}

v1::Reference PaymentRef(const std::string& payment_ref) {
  v1::Reference ref;
  ref.set_kind(v1::REFERENCE_KIND_PAYMENT);
  ref.set_id(payment_ref);
  return ref;
}

v1::LedgerTransaction TwoLegs(v1::PostingReason reason, v1::Reference ref,
                              const std::string& from, const std::string& to,
                              int64_t amount, std::string memo = "") {
  v1::LedgerTransaction tx;
  tx.set_reason(reason);
  *tx.mutable_reference() = std::move(ref);
  tx.set_memo(std::move(memo));
  auto* debit = tx.add_postings();
  debit->set_account(from);
  debit->set_amount_minor(-amount);
  auto* credit = tx.add_postings();
  credit->set_account(to);
  credit->set_amount_minor(amount);
  return tx;
}

const v1::LedgerTransaction& PostedTx(const v1::WalletEvent& event) {
  return event.transaction_posted().tx();
}

ledger::LedgerOptions LedgerOptionsFor(const std::string& currency,
                                       const PartitionOwnership* ownership) {
  ledger::LedgerOptions options{currency};
  if (ownership != nullptr) {
    options.decides = [ownership](std::string_view owner) {
      return ownership->Decides(owner);
    };
  }
  return options;
}

}  // namespace

WalletService::WalletService(eventlog::EventLog& log, const Clock& clock,
                             WalletOptions options,
                             std::unique_ptr<ledger::AnswerStore> answer_store)
    : log_(log),
      in_flight_(log),
      clock_(clock),
      options_(std::move(options)),
      metrics_(options_.metrics == nullptr
                   ? nullptr
                   : std::make_unique<WalletMetrics>(*options_.metrics)),
      ownership_(options_.group.empty() ? nullptr
                                        : std::make_unique<PartitionOwnership>(
                                              options_.partitions)),
      ledger_(LedgerOptionsFor(options_.currency, ownership_.get())),
      answer_store_(std::move(answer_store)),
      idempotency_({.window = options_.idempotency_window,
                    .clock = &clock_,
                    .store = answer_store_.get()}),
      replay_(log_, ledger_, idempotency_, appended_) {
  if (ownership_ != nullptr) {
    group_ = std::make_unique<WalletGroup>(
        log_,
        WalletGroupOptions{options_.group, options_.partitions,
                           options_.group_session_timeout_ms,
                           options_.group_poll_interval,
                           options_.follow_interval},
        *ownership_, replay_, appended_, stopping_);
  }
  commands_ = std::make_unique<WalletCommands>(
      in_flight_, clock_, options_.producer, idempotency_, ownership_.get(),
      group_.get(), appended_, metrics_.get());
  quarantine_ = std::make_unique<RequestQuarantine>(ledger_, idempotency_,
                                                    *commands_, metrics_.get());
  table_requests_ = std::make_unique<TableRequests>(
      ledger_, *commands_, *quarantine_, clock_, options_.partitions,
      options_.default_hold_ttl_seconds);
  banked_requests_ = std::make_unique<BankedRequests>(
      ledger_, *commands_, *quarantine_, options_.partitions);
  tournament_requests_ = std::make_unique<TournamentRequests>(
      ledger_, *commands_, *quarantine_, options_.partitions);
  table_reader_ = std::make_unique<RequestReader>(
      log_, ownership_.get(), *commands_,
      std::string(wire::kTableRequestsTopic),
      std::string(wire::kTableRequestsGroup),
      [this](const eventlog::StoredRecord& record, int wallet_partition) {
        return table_requests_->CarryOut(record, wallet_partition);
      });
  banked_reader_ = std::make_unique<RequestReader>(
      log_, ownership_.get(), *commands_,
      std::string(wire::kBankedRequestsTopic),
      std::string(wire::kBankedRequestsGroup),
      [this](const eventlog::StoredRecord& record, int wallet_partition) {
        return banked_requests_->CarryOut(record, wallet_partition);
      });
  tournament_reader_ = std::make_unique<RequestReader>(
      log_, ownership_.get(), *commands_,
      std::string(wire::kTournamentRequestsTopic),
      std::string(wire::kTournamentRequestsGroup),
      [this](const eventlog::StoredRecord& record, int wallet_partition) {
        return tournament_requests_->CarryOut(record, wallet_partition);
      });
  expiry_ = std::make_unique<HoldExpiry>(ledger_, *commands_, clock_,
                                         ownership_.get(), metrics_.get(),
                                         options_.expiry_interval, stopping_);
  request_loop_ = std::make_unique<RequestLoop>(
      std::vector<RequestReader*>{table_reader_.get(), banked_reader_.get(),
                                  tournament_reader_.get()},
      metrics_.get(), options_.table_requests_interval, stopping_);
  snapshots_ = std::make_unique<WalletSnapshots>(
      in_flight_, ledger_, idempotency_, appended_,
      WalletSnapshotOptions{.dir = options_.snapshot_dir,
                            .every_events = options_.snapshot_every_events,
                            .take = ownership_ == nullptr},
      stopping_);
}

absl::StatusOr<std::unique_ptr<WalletService>> WalletService::Start(
    eventlog::EventLog& log, const Clock& clock, WalletOptions options) {
  if (sodium_init() < 0) return absl::InternalError("libsodium init failed");
  if (!money::IsCurrencyCode(options.currency)) {
    return absl::InvalidArgumentError("currency must be a 3-letter code");
  }
  if (options.projection_dir.empty()) {
    return absl::InvalidArgumentError("projection_dir is required");
  }
  if (options.verifier.empty() && !options.insecure_dev) {
    return absl::InvalidArgumentError(
        "the wallet checks signed caller tokens: give it the token keys "
        "(--token-key-file or --token-verify-key-file), or --insecure-dev "
        "on a developer's machine");
  }
  std::unique_ptr<ledger::AnswerStore> answer_store;
  if (!options.answer_store_dir.empty()) {
    ASSIGN_OR_RETURN(answer_store, answers::RocksDbAnswerStore::Open(
                                       options.answer_store_dir,
                                       {.window = options.idempotency_window,
                                        .clock = &clock}));
  }
  std::unique_ptr<WalletService> service(new WalletService(
      log, clock, std::move(options), std::move(answer_store)));
  const WalletOptions& opts = service->options_;
  RETURN_IF_ERROR(
      log.EnsureTopic({std::string(wire::kWalletTopic), opts.partitions}));
  ASSIGN_OR_RETURN(const snapshot::LogOffsets from,
                   service->snapshots_->Load());
  const absl::Time replay_start = absl::Now();
  ASSIGN_OR_RETURN(service->replayed_events_, service->replay_.Replay(from));
  Log(LogLevel::kInfo, "wallet", "log replayed",
      {{"events", service->replayed_events_},
       {"replay_ms", absl::ToInt64Milliseconds(absl::Now() - replay_start)}});
  if (service->group_ != nullptr) RETURN_IF_ERROR(service->group_->Join());
  ASSIGN_OR_RETURN(service->store_,
                   projection::ProjectionStore::Open(opts.projection_dir));
  // Catch up before serving so reads are current from the first call.
  RETURN_IF_ERROR(
      projection::CatchUp(log, *service->store_, service->projector_).status());
  service->runner_ = std::make_unique<projection::ProjectionRunner>(
      log, *service->store_, service->projector_);
  service->runner_->Start();
  if (service->metrics_) {
    service->metrics_->SetLedger(service->ledger_.Summarize());
  }
  if (opts.expiry_interval > absl::ZeroDuration()) service->expiry_->Start();
  if (opts.table_requests_interval > absl::ZeroDuration()) {
    RETURN_IF_ERROR(EnsureRequestsTopic(log, wire::kTableRequestsTopic,
                                        opts.table_partitions));
    RETURN_IF_ERROR(EnsureRequestsTopic(log, wire::kBankedRequestsTopic,
                                        opts.banked_partitions));
    RETURN_IF_ERROR(EnsureRequestsTopic(log, wire::kTournamentRequestsTopic,
                                        opts.tournament_partitions));
    service->request_loop_->Start();
  }
  service->snapshots_->Start();
  return service;
}

WalletService::~WalletService() { (void)Stop(); }

absl::Status WalletService::Stop() {
  if (!stopping_.HasBeenNotified()) stopping_.Notify();
  expiry_->Join();
  request_loop_->Join();
  // Leaving the group hands the partitions to the others at once.
  if (group_ != nullptr) group_->Stop();
  // A clean stop's snapshot: the next start replays nothing before it.
  snapshots_->Join();
  if (absl::StatusOr<std::string> taken = snapshots_->Take(); !taken.ok()) {
    Log(LogLevel::kWarning, "wallet", "snapshot at stop failed",
        {{"error", taken.status().message()}});
  }
  absl::Status status;
  if (runner_ != nullptr) {
    status = runner_->Stop();
    runner_.reset();
  }
  return status;
}

std::vector<int> WalletService::OwnedPartitions() const {
  if (ownership_ == nullptr) {
    std::vector<int> all(options_.partitions);
    for (int p = 0; p < options_.partitions; ++p) all[p] = p;
    return all;
  }
  return ownership_->Owned();
}

void WalletService::Reply(grpc::ServerUnaryReactor* reactor,
                          std::string_view method, absl::Time start,
                          const absl::Status& status) {
  if (metrics_) {
    metrics_->ObserveRequest(method, absl::StatusCodeToString(status.code()),
                             absl::ToDoubleSeconds(absl::Now() - start));
  }
  reactor->Finish(ToGrpc(status));
}

grpc::Status WalletService::Finish(std::string_view method, absl::Time start,
                                   const absl::Status& status) {
  if (metrics_) {
    metrics_->ObserveRequest(method, absl::StatusCodeToString(status.code()),
                             absl::ToDoubleSeconds(absl::Now() - start));
  }
  return ToGrpc(status);
}

// A mutating call: check the request, then run the command; the reply goes
// out when the event is durable (or at once on an error or a repeat).
absl::StatusOr<Caller> WalletService::Authenticate(
    const grpc::ServerContextBase* context) const {
  Caller caller;
  if (options_.insecure_dev) {
    caller.insecure = true;
    return caller;
  }
  ASSIGN_OR_RETURN(caller.claims,
                   edge::AuthenticateBearer(context, options_.verifier,
                                            clock_.NowMicros() / 1'000'000,
                                            options_.audience));
  return caller;
}

template <typename Fill>
grpc::ServerUnaryReactor* WalletService::Command(
    grpc::CallbackServerContext* context, std::string_view method,
    const absl::StatusOr<Caller>& caller, std::string_view request_id,
    const google::protobuf::Message& body, absl::Status checked,
    const WalletCommands::Decide& decide, Fill fill) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::Time start = absl::Now();
  if (checked.ok()) checked = CheckRequestId(request_id);
  if (!checked.ok()) {
    Reply(reactor, method, start, checked);
    return reactor;
  }
  commands_->ExecuteAsync(method, caller->ClientKey(request_id),
                          caller->actor(), body, context, decide,
                          [this, reactor, method, start,
                           fill](absl::StatusOr<v1::WalletEvent> event) {
                            if (event.ok()) fill(*event);
                            Reply(reactor, method, start, event.status());
                          });
  return reactor;
}

grpc::ServerUnaryReactor* WalletService::OpenAccount(
    grpc::CallbackServerContext* context, const v1::OpenAccountRequest* request,
    v1::AccountResponse* response) {
  const std::string currency =
      request->currency().empty() ? options_.currency : request->currency();
  const absl::StatusOr<Caller> caller = Authenticate(context);
  return Command(
      context, "OpenAccount", caller, request->request_id(), *request,
      Vet(caller, MayManageAccounts,
          [&] { return CheckPlayerId(request->player_id()); }),
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.OpenAccount(meta, request->player_id(), currency,
                                   commit);
      },
      [response](const v1::WalletEvent& e) {
        *response = wire::AccountResponseFrom(e);
      });
}

grpc::ServerUnaryReactor* WalletService::CloseAccount(
    grpc::CallbackServerContext* context,
    const v1::CloseAccountRequest* request, v1::AccountResponse* response) {
  const absl::StatusOr<Caller> caller = Authenticate(context);
  return Command(
      context, "CloseAccount", caller, request->request_id(), *request,
      Vet(caller, MayManageAccounts,
          [&] { return CheckPlayerId(request->player_id()); }),
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.CloseAccount(meta, request->player_id(), commit);
      },
      [this, response](const v1::WalletEvent& e) {
        *response = wire::AccountResponseFrom(e);
        response->set_currency(options_.currency);
      });
}

namespace {

// The checks shared by deposits and withdrawals.
template <typename Request>
absl::Status CheckPayment(const Request& r, const std::string& currency) {
  RETURN_IF_ERROR(CheckPlayerId(r.player_id()));
  RETURN_IF_ERROR(CheckAmount(r.amount_minor()));
  RETURN_IF_ERROR(CheckCurrency(r.currency(), currency));
  if (!ledger::IsValidId(r.payment_ref())) {
    return Invalid("payment_ref must be 1-64 of [A-Za-z0-9_.-]");
  }
  return absl::OkStatus();
}

}  // namespace

grpc::ServerUnaryReactor* WalletService::Deposit(
    grpc::CallbackServerContext* context, const v1::DepositRequest* request,
    v1::TransactionResponse* response) {
  const absl::StatusOr<Caller> caller = Authenticate(context);
  return Command(
      context, "Deposit", caller, request->request_id(), *request,
      Vet(caller, MayDeposit,
          [&] { return CheckPayment(*request, options_.currency); }),
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.Post(
            meta, ledger::PlayerOwner(request->player_id()),
            TwoLegs(v1::POSTING_REASON_DEPOSIT,
                    PaymentRef(request->payment_ref()), "external/payments",
                    ledger::PlayerCashAccount(request->player_id()),
                    request->amount_minor()),
            commit);
      },
      [request, response](const v1::WalletEvent& e) {
        *response =
            wire::TransactionResponseFrom(PostedTx(e), request->player_id());
      });
}

grpc::ServerUnaryReactor* WalletService::Withdraw(
    grpc::CallbackServerContext* context, const v1::WithdrawRequest* request,
    v1::TransactionResponse* response) {
  const absl::StatusOr<Caller> caller = Authenticate(context);
  return Command(
      context, "Withdraw", caller, request->request_id(), *request,
      Vet(
          caller,
          [&](const Caller& c) { return MayWithdraw(c, request->player_id()); },
          [&] { return CheckPayment(*request, options_.currency); }),
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.Post(
            meta, ledger::PlayerOwner(request->player_id()),
            TwoLegs(v1::POSTING_REASON_WITHDRAWAL,
                    PaymentRef(request->payment_ref()),
                    ledger::PlayerCashAccount(request->player_id()),
                    "external/payments", request->amount_minor()),
            commit);
      },
      [request, response](const v1::WalletEvent& e) {
        *response =
            wire::TransactionResponseFrom(PostedTx(e), request->player_id());
      });
}

grpc::ServerUnaryReactor* WalletService::GetBalance(
    grpc::CallbackServerContext* context, const v1::GetBalanceRequest* request,
    v1::BalanceResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::Time start = absl::Now();
  absl::Status status = Vet(
      Authenticate(context),
      [&](const Caller& c) { return MayRead(c, request->player_id()); },
      [&] { return CheckPlayerId(request->player_id()); });
  if (status.ok()) {
    auto balance = ledger_.Balance(request->player_id());
    status = balance.status();
    if (balance.ok()) {
      response->set_player_id(request->player_id());
      response->set_currency(balance->currency);
      response->set_available_minor(balance->available);
      response->set_held_minor(balance->held);
      response->set_total_minor(balance->available + balance->held);
    }
  }
  Reply(reactor, "GetBalance", start, status);
  return reactor;
}

grpc::Status WalletService::ListTransactions(
    grpc::ServerContext* context, const v1::ListTransactionsRequest* request,
    v1::ListTransactionsResponse* response) {
  const absl::Time start = absl::Now();
  absl::Status status = Vet(
      Authenticate(context),
      [&](const Caller& c) { return MayRead(c, request->player_id()); },
      [&] { return CheckPlayerId(request->player_id()); });
  int32_t page_size =
      request->page_size() == 0 ? kDefaultPageSize : request->page_size();
  if (status.ok() && (page_size < 0 || page_size > kMaxPageSize)) {
    status = absl::InvalidArgumentError(
        absl::StrCat("page_size must be 0..", kMaxPageSize));
  }
  const std::string prefix = projection::StatementPrefix(request->player_id());
  std::string start_key;
  if (status.ok() && !request->page_token().empty()) {
    std::string decoded;
    if (request->page_token().size() > 1024 ||
        !absl::WebSafeBase64Unescape(request->page_token(), &decoded) ||
        !absl::StartsWith(decoded, prefix)) {
      status = Invalid("page_token is not a token from this listing");
    } else {
      start_key = std::move(decoded);
    }
  }
  if (status.ok()) status = ledger_.Balance(request->player_id()).status();
  if (status.ok() && runner_ != nullptr) {
    status = runner_->WaitFor(appended_.Snapshot(),
                              options_.read_your_writes_timeout);
  }
  if (status.ok()) {
    auto rows = store_->Scan(prefix, start_key, page_size + 1);
    status = rows.status();
    if (rows.ok()) {
      for (size_t i = 0; i < rows->size(); ++i) {
        if (i == static_cast<size_t>(page_size)) {
          std::string token;
          absl::WebSafeBase64Escape((*rows)[i].first, &token);
          response->set_next_page_token(token);
          break;
        }
        if (!response->add_entries()->ParseFromString((*rows)[i].second)) {
          status = absl::DataLossError("statement entry does not parse");
          break;
        }
      }
    }
  }
  return Finish("ListTransactions", start, status);
}

grpc::ServerUnaryReactor* WalletService::PlaceHold(
    grpc::CallbackServerContext* context, const v1::PlaceHoldRequest* request,
    v1::HoldResponse* response) {
  const int32_t ttl = request->ttl_seconds() == 0
                          ? options_.default_hold_ttl_seconds
                          : request->ttl_seconds();
  const absl::StatusOr<Caller> caller = Authenticate(context);
  absl::Status status = Vet(caller, MayPlaceHold, [&]() -> absl::Status {
    RETURN_IF_ERROR(CheckPlayerId(request->player_id()));
    RETURN_IF_ERROR(CheckAmount(request->amount_minor()));
    RETURN_IF_ERROR(CheckCurrency(request->currency(), options_.currency));
    if (ttl < 0 || ttl > kMaxHoldTtlSeconds) {
      return absl::InvalidArgumentError(
          absl::StrCat("ttl_seconds must be 0..", kMaxHoldTtlSeconds));
    }
    return absl::OkStatus();
  });
  const int64_t expires = clock_.NowMicros() + int64_t{ttl} * 1'000'000;
  return Command(
      context, "PlaceHold", caller, request->request_id(), *request, status,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.PlaceHold(meta, request->player_id(),
                                 request->amount_minor(), request->reason(),
                                 request->reference(), expires, commit);
      },
      [response](const v1::WalletEvent& e) {
        *response = wire::HoldResponseFrom(e);
      });
}

grpc::ServerUnaryReactor* WalletService::CaptureHold(
    grpc::CallbackServerContext* context, const v1::CaptureHoldRequest* request,
    v1::HoldResponse* response) {
  const absl::StatusOr<Caller> caller = Authenticate(context);
  absl::Status status = caller.status();
  if (status.ok()) {
    // Who placed it, and where its money may go, before anything else.
    absl::StatusOr<ledger::HoldView> hold = ledger_.Hold(request->hold_id());
    status = hold.status();
    if (status.ok()) status = MayCaptureHold(*caller, hold->placed_by);
    absl::StatusOr<ledger::AccountInfo> to =
        ledger::ParseAccount(request->to_account());
    if (status.ok()) status = to.status();
    if (status.ok()) status = CheckNotHeld(request->to_account());
    if (status.ok()) status = CheckReasonGiven(request->reason());
    if (status.ok()) {
      status = MayTransfer(*caller, request->reason(),
                           ledger::AccountClass::kPlayer, to->account_class);
    }
  }
  if (status.ok()) status = CheckAmount(request->amount_minor());
  return Command(
      context, "CaptureHold", caller, request->request_id(), *request, status,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.CaptureHold(
            meta, request->hold_id(), request->amount_minor(),
            request->to_account(), request->reason(), request->reference(),
            request->final(), commit);
      },
      [response](const v1::WalletEvent& e) {
        *response = wire::HoldResponseFrom(e);
      });
}

grpc::ServerUnaryReactor* WalletService::ReleaseHold(
    grpc::CallbackServerContext* context, const v1::ReleaseHoldRequest* request,
    v1::HoldResponse* response) {
  const absl::StatusOr<Caller> caller = Authenticate(context);
  absl::Status status = caller.status();
  if (status.ok()) {
    absl::StatusOr<ledger::HoldView> hold = ledger_.Hold(request->hold_id());
    status = hold.status();
    if (status.ok()) status = MayReleaseHold(*caller, hold->placed_by);
  }
  return Command(
      context, "ReleaseHold", caller, request->request_id(), *request, status,
      [&](const ledger::CommandMeta& meta, ledger::CommitFn commit) {
        return ledger_.ReleaseHold(meta, request->hold_id(), false, commit);
      },
      [response](const v1::WalletEvent& e) {
        *response = wire::HoldResponseFrom(e);
      });
}

absl::Status WalletService::CheckTransfer(
    const Caller& caller, const v1::TransferRequest& request) const {
  ASSIGN_OR_RETURN(const ledger::AccountInfo from,
                   ledger::ParseAccount(request.from_account()));
  ASSIGN_OR_RETURN(const ledger::AccountInfo to,
                   ledger::ParseAccount(request.to_account()));
  RETURN_IF_ERROR(CheckNotHeld(request.from_account()));
  RETURN_IF_ERROR(CheckNotHeld(request.to_account()));
  RETURN_IF_ERROR(CheckReasonGiven(request.reason()));
  RETURN_IF_ERROR(MayTransfer(caller, request.reason(), from.account_class,
                              to.account_class));
  RETURN_IF_ERROR(CheckAmount(request.amount_minor()));
  RETURN_IF_ERROR(CheckCurrency(request.currency(), options_.currency));
  if (request.from_account() == request.to_account()) {
    return Invalid("from_account and to_account are the same");
  }
  return absl::OkStatus();
}

WalletService::TransferCommand WalletService::MakeTransfer(
    const v1::TransferRequest& request) {
  const absl::StatusOr<ledger::AccountInfo> from =
      ledger::ParseAccount(request.from_account());
  std::string owner = from.ok() ? std::string(from->owner) : "";
  TransferCommand command;
  command.player = from.ok() ? std::string(from->player_id) : "";
  command.decide = [this, &request, owner = std::move(owner)](
                       const ledger::CommandMeta& meta,
                       ledger::CommitFn commit) {
    v1::LedgerTransaction tx =
        TwoLegs(request.reason(), request.reference(), request.from_account(),
                request.to_account(), request.amount_minor(), request.memo());
    tx.set_currency(request.currency());
    return ledger_.Post(meta, owner, std::move(tx), commit);
  };
  return command;
}

grpc::ServerUnaryReactor* WalletService::Transfer(
    grpc::CallbackServerContext* context, const v1::TransferRequest* request,
    v1::TransactionResponse* response) {
  const absl::StatusOr<Caller> caller = Authenticate(context);
  TransferCommand command = MakeTransfer(*request);
  return Command(
      context, "Transfer", caller, request->request_id(), *request,
      caller.ok() ? CheckTransfer(*caller, *request) : caller.status(),
      command.decide,
      [response, player = std::move(command.player)](const v1::WalletEvent& e) {
        *response = wire::TransactionResponseFrom(PostedTx(e), player);
      });
}

void WalletService::BatchItem(grpc::CallbackServerContext* context,
                              const Caller& caller,
                              const v1::TransferRequest& item, int repeats,
                              v1::TransferBatchResult& result,
                              std::shared_ptr<BatchCountdown> countdown) {
  absl::Status checked = CheckTransfer(caller, item);
  if (checked.ok()) checked = CheckRequestId(item.request_id());
  if (checked.ok() && repeats >= 0) {
    checked = absl::InvalidArgumentError(
        absl::StrCat("request_id repeats item ", repeats, " of this batch"));
  }
  if (!checked.ok()) {
    SetItemStatus(checked, result);
    countdown->Done();
    return;
  }
  TransferCommand command = MakeTransfer(item);
  commands_->ExecuteAsync(
      "Transfer", caller.ClientKey(item.request_id()), caller.actor(), item,
      context, command.decide,
      [&result, countdown = std::move(countdown),
       player =
           std::move(command.player)](absl::StatusOr<v1::WalletEvent> event) {
        if (event.ok()) {
          *result.mutable_transaction() =
              wire::TransactionResponseFrom(PostedTx(*event), player);
        } else {
          SetItemStatus(event.status(), result);
        }
        countdown->Done();
      });
}

grpc::ServerUnaryReactor* WalletService::TransferBatch(
    grpc::CallbackServerContext* context,
    const v1::TransferBatchRequest* request,
    v1::TransferBatchResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::Time start = absl::Now();
  const absl::StatusOr<Caller> caller = Authenticate(context);
  const absl::Status status = Vet(caller, MayTransferAtAll, [&] {
    return CheckTransferBatchSize(*request);
  });
  if (!status.ok()) {
    Reply(reactor, "TransferBatch", start, status);
    return reactor;
  }
  // Every answer's place exists before the first item can be answered
  // (on the log's thread, while later items are still being decided).
  const int items = request->items_size();
  response->mutable_results()->Reserve(items);
  for (int i = 0; i < items; ++i) response->add_results();
  const std::vector<int> repeats = RepeatedRequestIds(*request);
  // One count per item, and one for this loop: no reply before it ends.
  auto countdown =
      std::make_shared<BatchCountdown>(items + 1, [this, reactor, start] {
        Reply(reactor, "TransferBatch", start, absl::OkStatus());
      });
  for (int i = 0; i < items; ++i) {
    BatchItem(context, *caller, request->items(i), repeats[i],
              *response->mutable_results(i), countdown);
  }
  countdown->Done();
  return reactor;
}

grpc::ServerUnaryReactor* WalletService::GetLedgerSummary(
    grpc::CallbackServerContext* context, const v1::GetLedgerSummaryRequest*,
    v1::LedgerSummaryResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const absl::Time start = absl::Now();
  const absl::Status status =
      Vet(Authenticate(context), MaySummarize, [] { return absl::OkStatus(); });
  if (!status.ok()) {
    Reply(reactor, "GetLedgerSummary", start, status);
    return reactor;
  }
  const ledger::LedgerSummary summary = ledger_.Summarize();
  response->set_currency(options_.currency);
  for (int c = 0; c < static_cast<int>(summary.classes.size()); ++c) {
    auto* total = response->add_classes();
    total->set_account_class(std::string(
        ledger::AccountClassName(static_cast<ledger::AccountClass>(c))));
    total->set_balance_minor(summary.classes[c].balance);
    total->set_accounts(summary.classes[c].accounts);
  }
  response->set_ledger_sum_minor(summary.sum);
  response->set_deposits_minor(summary.deposits);
  response->set_withdrawals_minor(summary.withdrawals);
  response->set_transactions(summary.transactions);
  response->set_open_holds(summary.open_holds);
  if (metrics_) metrics_->SetLedger(summary);
  Reply(reactor, "GetLedgerSummary", start, absl::OkStatus());
  return reactor;
}

}  // namespace banca::wallet
