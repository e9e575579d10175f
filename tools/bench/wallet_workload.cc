#include "tools/bench/wallet_workload.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/alarm.h"
#include "grpcpp/grpcpp.h"
#include "services/common/transport_security.h"

namespace banca::bench {
namespace {

using v1::WalletService;

std::shared_ptr<grpc::Channel> WorkloadChannel(
    const WorkloadOptions& options, const grpc::ChannelArguments& args) {
  if (options.tokens) {
    return edge::AuthorizedChannel(options.target, options.tokens, args,
                                   options.credentials);
  }
  return grpc::CreateCustomChannel(
      options.target, edge::OrPlaintext(options.credentials), args);
}

bool IsRuleRejection(const grpc::Status& s) {
  return s.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
         s.error_code() == grpc::StatusCode::ALREADY_EXISTS ||
         s.error_code() == grpc::StatusCode::NOT_FOUND;
}

struct Worker {
  WalletService::Stub* stub;
  const WorkloadOptions* options;
  int index;
  std::mt19937_64 rng;
  int64_t next_request = 0;
  std::vector<double> latencies_ms;
  int64_t ok = 0, rejected = 0, failed = 0;
  std::string first_error;

  std::string RequestId() {
    return absl::StrCat(options->run_id, "-w", index, "-", next_request++);
  }
  std::string Player(int p) { return absl::StrCat(options->run_id, "-p", p); }

  // One call; counts and times it from `scheduled`.
  template <typename Call>
  bool Do(absl::Time scheduled, Call&& call) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(30));
    grpc::Status s = call(&context);
    latencies_ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - scheduled));
    if (s.ok()) {
      ++ok;
      return true;
    }
    if (IsRuleRejection(s)) {
      ++rejected;
    } else {
      ++failed;
      if (first_error.empty()) {
        first_error = absl::StrCat(s.error_code(), ": ", s.error_message());
      }
    }
    return false;
  }

  // Runs one step for player p; returns how many calls it made.
  int Step(int p, absl::Time scheduled) {
    const std::string player = Player(p);
    const int64_t amount = 100 + static_cast<int64_t>(rng() % 5'000);
    if (options->mix == WorkloadMix::kReads) {
      v1::GetBalanceRequest req;
      req.set_player_id(player);
      v1::BalanceResponse resp;
      Do(scheduled, [&](grpc::ClientContext* c) {
        return stub->GetBalance(c, req, &resp);
      });
      return 1;
    }
    if (options->mix == WorkloadMix::kPayments || rng() % 3 != 0) {
      const bool deposit = options->mix == WorkloadMix::kPayments
                               ? (rng() % 2 == 0)
                               : (rng() % 4 != 0);
      Payment(player, deposit, amount, scheduled);
      return 1;
    }
    return TableSession(p, player, amount, scheduled);
  }

  // A deposit of `amount`, or a withdrawal of half of it.
  void Payment(const std::string& player, bool deposit, int64_t amount,
               absl::Time scheduled) {
    if (deposit) {
      v1::DepositRequest req;
      req.set_request_id(RequestId());
      req.set_player_id(player);
      req.set_amount_minor(amount);
      req.set_payment_ref(absl::StrCat("pay-", req.request_id()));
      v1::TransactionResponse resp;
      Do(scheduled,
         [&](grpc::ClientContext* c) { return stub->Deposit(c, req, &resp); });
    } else {
      v1::WithdrawRequest req;
      req.set_request_id(RequestId());
      req.set_player_id(player);
      req.set_amount_minor(amount / 2);
      req.set_payment_ref(absl::StrCat("pay-", req.request_id()));
      v1::TransactionResponse resp;
      Do(scheduled,
         [&](grpc::ClientContext* c) { return stub->Withdraw(c, req, &resp); });
    }
  }

  // A table session: buy in with a hold, play, cash out. Returns the calls
  // it made.
  int TableSession(int p, const std::string& player, int64_t amount,
                   absl::Time scheduled) {
    const std::string table = absl::StrCat("t", p % 16);
    v1::PlaceHoldRequest hold;
    hold.set_request_id(RequestId());
    hold.set_player_id(player);
    hold.set_amount_minor(amount);
    hold.set_reason(v1::POSTING_REASON_BUY_IN);
    hold.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
    hold.mutable_reference()->set_id(table);
    hold.set_ttl_seconds(600);
    v1::HoldResponse held;
    if (!Do(scheduled, [&](grpc::ClientContext* c) {
          return stub->PlaceHold(c, hold, &held);
        })) {
      return 1;
    }
    int calls = 1;
    const int64_t buy_in = amount / 2;
    const std::string seat = absl::StrCat("table/", table, "/seat/", player);
    v1::CaptureHoldRequest capture;
    capture.set_request_id(RequestId());
    capture.set_hold_id(held.hold_id());
    capture.set_amount_minor(buy_in);
    capture.set_to_account(seat);
    capture.set_reason(v1::POSTING_REASON_BUY_IN);
    *capture.mutable_reference() = hold.reference();
    v1::HoldResponse captured;
    ++calls;
    const bool bought_in = Do(absl::Now(), [&](grpc::ClientContext* c) {
      return stub->CaptureHold(c, capture, &captured);
    });
    v1::ReleaseHoldRequest release;
    release.set_request_id(RequestId());
    release.set_hold_id(held.hold_id());
    v1::HoldResponse released;
    ++calls;
    Do(absl::Now(), [&](grpc::ClientContext* c) {
      return stub->ReleaseHold(c, release, &released);
    });
    if (!bought_in) return calls;
    // The house takes 5 % rake; the rest goes back to the player.
    const int64_t rake = buy_in / 20;
    auto transfer = [&](const std::string& to, int64_t value,
                        v1::PostingReason reason) {
      if (value <= 0) return;
      v1::TransferRequest t;
      t.set_request_id(RequestId());
      t.set_from_account(seat);
      t.set_to_account(to);
      t.set_amount_minor(value);
      t.set_reason(reason);
      t.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
      t.mutable_reference()->set_id(absl::StrCat("h-", t.request_id()));
      v1::TransactionResponse r;
      ++calls;
      Do(absl::Now(),
         [&](grpc::ClientContext* c) { return stub->Transfer(c, t, &r); });
    };
    transfer("house/rake", rake, v1::POSTING_REASON_RAKE);
    transfer(absl::StrCat("player/", player, "/cash"), buy_in - rake,
             v1::POSTING_REASON_PAYOUT);
    return calls;
  }
};

// A batch workload's player starts with enough cash for every buy-in it
// could have in flight at once.
void Fund(const WorkloadOptions& options, WalletService::Stub& stub, int p) {
  v1::DepositRequest req;
  req.set_request_id(absl::StrCat(options.run_id, "-fund-", p));
  req.set_player_id(absl::StrCat(options.run_id, "-p", p));
  req.set_amount_minor(1'000'000'000);
  req.set_payment_ref(req.request_id());
  v1::TransactionResponse resp;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(30));
  (void)stub.Deposit(&context, req, &resp);
}

void OpenAccounts(
    const WorkloadOptions& options,
    const std::vector<std::unique_ptr<WalletService::Stub>>& stubs) {
  const int channels = static_cast<int>(stubs.size());
  // Open every player's account first (idempotent: reruns are fine).
  {
    std::vector<std::thread> openers;
    const int openers_count = std::min(options.concurrency, 16);
    for (int t = 0; t < openers_count; ++t) {
      openers.emplace_back([&, t] {
        for (int p = t; p < options.players; p += openers_count) {
          v1::OpenAccountRequest req;
          req.set_request_id(absl::StrCat(options.run_id, "-open-", p));
          req.set_player_id(absl::StrCat(options.run_id, "-p", p));
          v1::AccountResponse resp;
          grpc::ClientContext context;
          context.set_deadline(std::chrono::system_clock::now() +
                               std::chrono::seconds(30));
          context.set_wait_for_ready(true);
          (void)stubs[p % channels]->OpenAccount(&context, req, &resp);
          if (options.mix == WorkloadMix::kBatch)
            Fund(options, *stubs[p % channels], p);
        }
      });
    }
    for (auto& t : openers) t.join();
  }
}

double Percentile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

absl::Duration PacingInterval(const WorkloadOptions& options) {
  return options.rate_per_sec > 0
             ? absl::Seconds(1) / static_cast<double>(options.rate_per_sec)
             : absl::ZeroDuration();
}

// Adds one client's counts and latencies into the run's totals.
void Accumulate(int64_t ok, int64_t rejected, int64_t failed,
                const std::string& first_error, const std::vector<double>& ms,
                WorkloadResult& total, std::vector<double>& all) {
  total.ok += ok;
  total.rejected += rejected;
  total.failed += failed;
  if (total.first_error.empty()) total.first_error = first_error;
  all.insert(all.end(), ms.begin(), ms.end());
}

// Rates and percentiles, once every client is counted in.
void Summarize(absl::Time start, std::vector<double>& all, WorkloadResult& r) {
  r.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  const int64_t calls = r.ok + r.rejected + r.failed;
  r.ops_per_sec = r.seconds > 0 ? calls / r.seconds : 0;
  r.p50_ms = Percentile(all, 0.50);
  r.p99_ms = Percentile(all, 0.99);
  r.max_ms = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
}

}  // namespace

WorkloadResult RunWalletWorkload(const WorkloadOptions& options) {
  constexpr int kChannels = 4;
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<WalletService::Stub>> stubs;
  for (int i = 0; i < kChannels; ++i) {
    grpc::ChannelArguments args;
    // Separate connections, so the calls are not all on one HTTP/2 stream set.
    args.SetInt("banca.channel", i);
    channels.push_back(WorkloadChannel(options, args));
    stubs.push_back(WalletService::NewStub(channels.back()));
  }
  OpenAccounts(options, stubs);

  std::atomic<int64_t> issued{0};
  std::atomic<int64_t> done{0};
  std::vector<Worker> workers(options.concurrency);
  const absl::Time start = absl::Now();
  const absl::Duration interval = PacingInterval(options);
  std::vector<std::thread> threads;
  for (int t = 0; t < options.concurrency; ++t) {
    workers[t] = Worker{stubs[t % kChannels].get(), &options, t,
                        std::mt19937_64(0x5eed + t)};
    threads.emplace_back([&, t] {
      Worker& w = workers[t];
      while (true) {
        const int64_t n = issued.fetch_add(1);
        if (n >= options.operations) break;
        absl::Time scheduled = absl::Now();
        if (options.rate_per_sec > 0) {
          scheduled = start + interval * static_cast<double>(n);
          const absl::Duration wait = scheduled - absl::Now();
          if (wait > absl::ZeroDuration()) absl::SleepFor(wait);
        }
        // Players are spread over workers so no two workers race one player
        // (races would only add rule rejections, not errors).
        const int per_worker =
            std::max(1, options.players / options.concurrency);
        const int p =
            (t + options.concurrency * static_cast<int>(w.rng() % per_worker)) %
            options.players;
        const int calls = w.Step(p, scheduled);
        if (calls > 1) issued.fetch_add(calls - 1);
        done.fetch_add(calls);
      }
    });
  }
  std::thread reporter;
  std::atomic<bool> finished{false};
  if (options.progress) {
    reporter = std::thread([&] {
      for (int tick = 1; !finished.load(); ++tick) {
        absl::SleepFor(absl::Milliseconds(100));
        if (tick % 10 == 0) {
          options.progress(std::min(done.load(), options.operations),
                           options.operations);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  finished = true;
  if (reporter.joinable()) reporter.join();

  WorkloadResult result;
  std::vector<double> all;
  for (auto& w : workers) {
    Accumulate(w.ok, w.rejected, w.failed, w.first_error, w.latencies_ms,
               result, all);
  }
  Summarize(start, all, result);
  const int64_t calls = result.ok + result.rejected + result.failed;
  if (options.progress) options.progress(calls, options.operations);
  return result;
}

}  // namespace banca::bench

namespace banca::bench {
namespace {

// One client's call in flight.
struct Slot {
  int index = 0;
  std::unique_ptr<grpc::ClientContext> context;
  std::unique_ptr<grpc::ClientAsyncResponseReader<v1::TransactionResponse>>
      payment;
  std::unique_ptr<grpc::ClientAsyncResponseReader<v1::BalanceResponse>> read;
  std::unique_ptr<grpc::ClientAsyncResponseReader<v1::TransferBatchResponse>>
      batch;
  v1::TransferBatchResponse batch_response;
  v1::TransactionResponse payment_response;
  v1::BalanceResponse read_response;
  grpc::Status status;
  absl::Time scheduled;
  grpc::Alarm alarm;
  bool waiting_alarm = false;
  // kBatch: transfers in this slot's call.
  int items = 1;
};

// One thread of the async workload: its slots' calls on one completion
// queue, each slot taking the next operation when its call ends.
class AsyncWorker {
 public:
  AsyncWorker(const WorkloadOptions& options, WalletService::Stub& stub,
              int thread, int slots, std::atomic<int64_t>& issued,
              absl::Time start)
      : options_(options),
        stub_(stub),
        thread_(thread),
        rng_(0xa5c + thread),
        slots_(slots),
        issued_(issued),
        start_(start),
        interval_(PacingInterval(options)) {}

  void Run() {
    for (size_t i = 0; i < slots_.size(); ++i) {
      slots_[i].index = static_cast<int>(i);
      Next(slots_[i]);
    }
    void* tag;
    bool ok;
    while (active_ > 0 && cq_.Next(&tag, &ok)) {
      Slot& s = *static_cast<Slot*>(tag);
      if (s.waiting_alarm) {
        s.waiting_alarm = false;
        Launch(s);
        continue;
      }
      --active_;
      Record(s);
      Next(s);
    }
    cq_.Shutdown();
    while (cq_.Next(&tag, &ok)) {
    }
  }

  const WorkloadResult& result() const { return result_; }
  const std::vector<double>& latencies() const { return latencies_; }

 private:
  void Launch(Slot& s) {
    s.context = std::make_unique<grpc::ClientContext>();
    s.context->set_deadline(std::chrono::system_clock::now() +
                            std::chrono::seconds(30));
    const std::string player = absl::StrCat(
        options_.run_id, "-p", static_cast<int>(rng_() % options_.players));
    if (options_.mix == WorkloadMix::kReads) {
      v1::GetBalanceRequest req;
      req.set_player_id(player);
      s.read = stub_.AsyncGetBalance(s.context.get(), req, &cq_);
      s.read->Finish(&s.read_response, &s.status, &s);
      return;
    }
    if (options_.mix == WorkloadMix::kBatch) {
      LaunchBatch(s);
      return;
    }
    const std::string rid =
        absl::StrCat(options_.run_id, "-a", thread_, "-", request_++);
    const int64_t amount = 100 + static_cast<int64_t>(rng_() % 5'000);
    if (rng_() % 2 == 0) {
      v1::DepositRequest req;
      req.set_request_id(rid);
      req.set_player_id(player);
      req.set_amount_minor(amount);
      req.set_payment_ref("pay-" + rid);
      s.payment = stub_.AsyncDeposit(s.context.get(), req, &cq_);
    } else {
      v1::WithdrawRequest req;
      req.set_request_id(rid);
      req.set_player_id(player);
      req.set_amount_minor(amount / 2);
      req.set_payment_ref("pay-" + rid);
      s.payment = stub_.AsyncWithdraw(s.context.get(), req, &cq_);
    }
    s.payment->Finish(&s.payment_response, &s.status, &s);
  }

  // A table's settlements: buy-ins from players' cash to their seats,
  // each followed by its payout back, so no account runs dry.
  void LaunchBatch(Slot& s) {
    v1::TransferBatchRequest req;
    req.mutable_items()->Reserve(s.items);
    while (req.items_size() < s.items) {
      const int p = static_cast<int>(rng_() % options_.players);
      const std::string player = absl::StrCat(options_.run_id, "-p", p);
      const std::string table = absl::StrCat("t", p % 16);
      const std::string cash = absl::StrCat("player/", player, "/cash");
      const std::string seat = absl::StrCat("table/", table, "/seat/", player);
      const int64_t amount = 100 + static_cast<int64_t>(rng_() % 5'000);
      AddTransfer(req, cash, seat, amount, v1::POSTING_REASON_BUY_IN, table);
      if (req.items_size() < s.items) {
        AddTransfer(req, seat, cash, amount, v1::POSTING_REASON_PAYOUT, table);
      }
    }
    s.batch = stub_.AsyncTransferBatch(s.context.get(), req, &cq_);
    s.batch->Finish(&s.batch_response, &s.status, &s);
  }

  void AddTransfer(v1::TransferBatchRequest& req, const std::string& from,
                   const std::string& to, int64_t amount,
                   v1::PostingReason reason, const std::string& table) {
    v1::TransferRequest* t = req.add_items();
    t->set_request_id(
        absl::StrCat(options_.run_id, "-b", thread_, "-", request_++));
    t->set_from_account(from);
    t->set_to_account(to);
    t->set_amount_minor(amount);
    t->set_reason(reason);
    t->mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
    t->mutable_reference()->set_id(table);
  }

  // Takes the next operation for a slot: now, or at its scheduled time.
  void Next(Slot& s) {
    const int64_t step =
        options_.mix == WorkloadMix::kBatch ? options_.batch_size : 1;
    const int64_t n = issued_.fetch_add(step);
    if (n >= options_.operations) return;
    s.items = static_cast<int>(std::min(step, options_.operations - n));
    ++active_;
    s.scheduled = absl::Now();
    if (options_.rate_per_sec > 0) {
      s.scheduled = start_ + interval_ * static_cast<double>(n);
      if (s.scheduled > absl::Now()) {
        s.waiting_alarm = true;
        s.alarm.Set(&cq_, absl::ToChronoTime(s.scheduled), &s);
        return;
      }
    }
    Launch(s);
  }

  void Record(const Slot& s) {
    latencies_.push_back(absl::ToDoubleMilliseconds(absl::Now() - s.scheduled));
    if (s.status.ok() && options_.mix == WorkloadMix::kBatch) {
      for (const v1::TransferBatchResult& r : s.batch_response.results()) {
        ++(r.code() == 0 ? result_.transfers : result_.transfers_rejected);
      }
    }
    if (s.status.ok()) {
      ++result_.ok;
    } else if (IsRuleRejection(s.status)) {
      ++result_.rejected;
    } else {
      ++result_.failed;
      if (result_.first_error.empty()) {
        result_.first_error =
            absl::StrCat(s.status.error_code(), ": ", s.status.error_message());
      }
    }
  }

  const WorkloadOptions& options_;
  WalletService::Stub& stub_;
  const int thread_;
  grpc::CompletionQueue cq_;
  std::mt19937_64 rng_;
  std::vector<Slot> slots_;
  std::atomic<int64_t>& issued_;
  const absl::Time start_;
  const absl::Duration interval_;
  int active_ = 0;
  int64_t request_ = 0;
  WorkloadResult result_;
  std::vector<double> latencies_;
};

}  // namespace

WorkloadResult RunAsyncWalletWorkload(const WorkloadOptions& options) {
  constexpr int kThreads = 2;
  std::vector<std::unique_ptr<WalletService::Stub>> stubs;
  for (int i = 0; i < kThreads; ++i) {
    grpc::ChannelArguments args;
    args.SetInt("banca.channel", i);
    // A full batch's answer is about 2 MiB, near gRPC's default 4 MiB.
    args.SetMaxReceiveMessageSize(16 << 20);
    stubs.push_back(WalletService::NewStub(WorkloadChannel(options, args)));
  }
  OpenAccounts(options, stubs);
  std::atomic<int64_t> issued{0};
  const absl::Time start = absl::Now();
  std::vector<std::unique_ptr<AsyncWorker>> workers;
  for (int t = 0; t < kThreads; ++t) {
    const int slots = options.concurrency / kThreads +
                      (t < options.concurrency % kThreads ? 1 : 0);
    workers.push_back(std::make_unique<AsyncWorker>(options, *stubs[t], t,
                                                    slots, issued, start));
  }
  std::vector<std::thread> threads;
  for (auto& w : workers) threads.emplace_back([&w] { w->Run(); });
  for (auto& t : threads) t.join();
  WorkloadResult result;
  std::vector<double> all;
  for (const auto& w : workers) {
    const WorkloadResult& p = w->result();
    Accumulate(p.ok, p.rejected, p.failed, p.first_error, w->latencies(),
               result, all);
    result.transfers += p.transfers;
    result.transfers_rejected += p.transfers_rejected;
  }
  Summarize(start, all, result);
  result.transfers_per_sec =
      result.seconds > 0 ? result.transfers / result.seconds : 0;
  return result;
}

}  // namespace banca::bench
