#include "tools/bench/holdem_bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "banca/v1/table.grpc.pb.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/alarm.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/seal/deck_keys.h"
#include "services/common/authorized_channel.h"
#include "services/common/server_options.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"

namespace banca::bench {
namespace {

constexpr int64_t kSmallBlind = 50;
constexpr int64_t kBigBlind = 100;
constexpr int64_t kBuyInMin = 5'000;
constexpr int64_t kBuyInMax = 20'000;
constexpr int64_t kDeposit = 100'000'000;
// Channels (TCP connections) the clients share.
constexpr int kChannels = 4;
// Client threads polling the completion queue.
constexpr int kPollers = 2;
// Tries of a Rebuy or Sit that fails (the table may be waiting for it).
constexpr int kRebuyAttempts = 5;

// `sorted` is not empty.
double Quantile(const std::vector<double>& sorted, double q) {
  return sorted[std::min(sorted.size() - 1,
                         static_cast<size_t>(q * sorted.size()))];
}

double CpuSeconds() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

class Bench {
 public:
  explicit Bench(const HoldemBenchOptions& o)
      : o_(o), key_(*edge::EphemeralSigningKey()) {}
  ~Bench() { Stop(); }

  absl::Status Start() {
    std::filesystem::create_directories(o_.dir + "/projections/wallet");
    eventlog::EmbeddedLogOptions lo;
    lo.fsync = o_.fsync;
    ASSIGN_OR_RETURN(auto log, eventlog::OpenEmbeddedLog(o_.dir + "/log", lo));
    log_ = std::move(log);
    wallet::WalletOptions wo;
    wo.projection_dir = o_.dir + "/projections/wallet";
    wo.table_requests_interval = absl::Milliseconds(1);
    (void)wo.verifier.Add(key_.public_key());
    ASSIGN_OR_RETURN(auto w, wallet::WalletService::Start(*log_, clock_, wo));
    wallet_ = std::move(w);
    table::TableServiceOptions to;
    (void)to.verifier.Add(key_.public_key());
    // A throw-away key: the bench's log is its own and never replayed.
    to.deck_keys =
        *seal::DeckKeys::FromKeyFileText(seal::DeckKeys::NewKeyHex());
    to.max_tables = std::max(to.max_tables, o_.tables);
    ASSIGN_OR_RETURN(auto t, table::TableService::Start(*log_, clock_, to));
    tables_ = std::move(t);
    grpc::ServerBuilder builder;
    edge::ApplyServerOptions(builder);
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(wallet_.get());
    builder.RegisterService(tables_.get());
    server_ = builder.BuildAndStart();
    if (server_ == nullptr || port == 0) {
      return absl::UnavailableError("cannot listen on 127.0.0.1");
    }
    for (int c = 0; c < kChannels; ++c) {
      grpc::ChannelArguments args;
      args.SetInt("banca.bench.channel", c);  // one connection each
      auto channel =
          grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", port),
                                    grpc::InsecureChannelCredentials(), args);
      table_stubs_.push_back(v1::TableService::NewStub(channel));
      wallet_stubs_.push_back(v1::WalletService::NewStub(channel));
    }
    return absl::OkStatus();
  }

  void Stop() {
    if (running_ > 0) StopBots();
    if (server_ != nullptr) {
      server_->Shutdown(std::chrono::system_clock::now() +
                        std::chrono::seconds(2));
      server_.reset();
    }
    if (tables_ != nullptr) tables_->Stop();
    if (wallet_ != nullptr) (void)wallet_->Stop();
    tables_.reset();
    wallet_.reset();
    log_.reset();
  }

  absl::StatusOr<HoldemBenchResult> Run() {
    const absl::Time setup_start = absl::Now();
    // Tables and players, several at a time (each buy-in waits for the
    // wallet's saga).
    std::atomic<int> next{0};
    std::mutex error_mu;
    absl::Status error;
    std::vector<std::thread> setup;
    for (int w = 0; w < std::min(o_.tables, 16); ++w) {
      setup.emplace_back([&] {
        for (int t = next++; t < o_.tables; t = next++) {
          if (absl::Status s = SetUpTable(t); !s.ok()) {
            std::lock_guard<std::mutex> lock(error_mu);
            error = s;
            return;
          }
        }
      });
    }
    for (std::thread& t : setup) t.join();
    RETURN_IF_ERROR(error);
    HoldemBenchResult out;
    out.setup_seconds = absl::ToDoubleSeconds(absl::Now() - setup_start);

    StartBots();
    absl::SleepFor(o_.warmup);
    ASSIGN_OR_RETURN(int64_t before, SettledHands());
    const int64_t actions_before = actions_.load();
    const int64_t rejected_before = rejected_.load();
    const double cpu_before = CpuSeconds();
    measuring_ = true;
    const absl::Time start = absl::Now();
    absl::SleepFor(o_.duration);
    measuring_ = false;
    const absl::Time end = absl::Now();
    ASSIGN_OR_RETURN(int64_t lag, wallet_->TableRequestLag());
    out.wallet_lag_records = lag;
    const double cpu = CpuSeconds() - cpu_before;
    ASSIGN_OR_RETURN(int64_t after, SettledHands());
    out.actions = actions_.load() - actions_before;
    out.rejected = rejected_.load() - rejected_before;
    out.views = views_.load();
    out.pauses = pauses_.load();
    out.turns = turns_.load();
    StopBots();
    {
      std::lock_guard<std::mutex> lock(error_mu_);
      RETURN_IF_ERROR(stream_error_);
    }

    out.seconds = absl::ToDoubleSeconds(end - start);
    out.hands = after - before;
    out.rebuys = rebuys_.load();
    out.resits = resits_.load();
    ASSIGN_OR_RETURN(int64_t seated, SeatedPlayers());
    out.players_per_table_at_end = static_cast<double>(seated) / o_.tables;
    out.hands_per_sec = out.hands / out.seconds;
    out.actions_per_sec = out.actions / out.seconds;
    out.cpu_ms_per_hand = out.hands > 0 ? 1000 * cpu / out.hands : 0;
    std::vector<double> all;
    for (const auto& b : bots_) {
      all.insert(all.end(), b->latencies.begin(), b->latencies.end());
    }
    for (const auto& play : seats_) {
      const std::vector<double>& l = play->seat().latencies();
      all.insert(all.end(), l.begin(), l.end());
    }
    for (const auto& gateway : gateways_) {
      for (const BotSeat& seat : gateway->seats()) {
        all.insert(all.end(), seat.latencies().begin(), seat.latencies().end());
      }
    }
    std::sort(all.begin(), all.end());
    if (!all.empty()) {
      out.p50_action_ms = Quantile(all, 0.50);
      out.p99_action_ms = Quantile(all, 0.99);
      out.max_action_ms = all.back();
    }
    {
      std::lock_guard<std::mutex> lock(rebuy_mu_);
      std::sort(topup_ms_.begin(), topup_ms_.end());
      if (!topup_ms_.empty()) {
        out.p50_rebuy_ms = Quantile(topup_ms_, 0.50);
        out.p99_rebuy_ms = Quantile(topup_ms_, 0.99);
      }
    }
    return out;
  }

 private:
  struct RebuyJob {
    int t = 0;
    std::string player;
    int seat = 0;
    int64_t stack = 0;
    int attempts = 0;
    bool sit = false;  // not seated: sit down again rather than rebuy
  };

  std::string TableId(int t) const { return absl::StrCat("bench-", t); }
  std::string Player(int t, int i) const {
    return absl::StrCat("bot-", t, "-", i);
  }
  const std::string& Token(const std::string& subject, auth::Role role) {
    std::lock_guard<std::mutex> lock(tokens_mu_);
    std::string& token = tokens_[absl::StrCat(subject, "/", role)];
    if (token.empty()) {
      token = *edge::DayToken(key_, role, subject);
    }
    return token;
  }
  void As(grpc::ClientContext& ctx, const std::string& subject,
          auth::Role role = auth::Role::kPlayer) {
    ctx.AddMetadata("authorization", "Bearer " + Token(subject, role));
  }
  v1::TableService::Stub& Tables(int t) { return *table_stubs_[t % kChannels]; }

  absl::Status Check(const grpc::Status& s, const std::string& what) {
    if (s.ok()) return absl::OkStatus();
    return absl::InternalError(absl::StrCat(what, ": ", s.error_message()));
  }

  absl::Status SetUpTable(int t) {
    const std::string id = TableId(t);
    v1::CreateTableRequest create;
    create.set_request_id("create-" + id);
    create.set_table_id(id);
    create.set_name(absl::StrCat("Bench ", t));
    v1::PokerTableConfig* c = create.mutable_config();
    c->set_variant(v1::POKER_VARIANT_HOLDEM);
    c->set_limit(v1::BETTING_LIMIT_NO_LIMIT);
    c->set_seats(o_.players);
    c->set_small_blind_minor(kSmallBlind);
    c->set_big_blind_minor(kBigBlind);
    c->set_buy_in_min_minor(kBuyInMin);
    c->set_buy_in_max_minor(kBuyInMax);
    c->set_rake_mode(v1::RAKE_MODE_SETTING_POT);
    c->set_rake_bps(500);
    c->set_rake_cap_minor(300);
    c->set_action_seconds(600);  // bots never time out, even on a slow box
    v1::TableInfo info;
    {
      grpc::ClientContext ctx;
      As(ctx, "bench-operator", auth::Role::kOperator);
      RETURN_IF_ERROR(Check(Tables(t).CreateTable(&ctx, create, &info),
                            "CreateTable " + id));
    }
    v1::WalletService::Stub& wallet = *wallet_stubs_[t % kChannels];
    for (int i = 0; i < o_.players; ++i) {
      const std::string p = Player(t, i);
      v1::OpenAccountRequest open;
      open.set_request_id("open-" + p);
      open.set_player_id(p);
      v1::AccountResponse account;
      grpc::ClientContext c1;
      As(c1, "bench-operator", auth::Role::kOperator);
      RETURN_IF_ERROR(
          Check(wallet.OpenAccount(&c1, open, &account), "OpenAccount " + p));
      v1::DepositRequest dep;
      dep.set_request_id("deposit-" + p);
      dep.set_player_id(p);
      dep.set_amount_minor(kDeposit);
      dep.set_payment_ref("bench-" + p);
      v1::TransactionResponse tx;
      grpc::ClientContext c2;
      As(c2, "payments", auth::Role::kService);
      RETURN_IF_ERROR(Check(wallet.Deposit(&c2, dep, &tx), "Deposit " + p));
      v1::SitRequest sit;
      sit.set_request_id("sit-" + p);
      sit.set_table_id(id);
      sit.set_seat(i + 1);
      sit.set_buy_in_minor(kBuyInMax);
      v1::SeatResponse seat;
      grpc::ClientContext c3;
      As(c3, p);
      RETURN_IF_ERROR(Check(Tables(t).Sit(&c3, sit, &seat), "Sit " + p));
    }
    return absl::OkStatus();
  }

  // Every table's info, as the operator lists it.
  absl::StatusOr<v1::ListTablesResponse> ListTables() {
    v1::ListTablesResponse list;
    grpc::ClientContext ctx;
    As(ctx, "bench-operator", auth::Role::kOperator);
    RETURN_IF_ERROR(
        Check(table_stubs_[0]->ListTables(&ctx, {}, &list), "ListTables"));
    return list;
  }
  absl::StatusOr<int64_t> SeatedPlayers() {
    ASSIGN_OR_RETURN(v1::ListTablesResponse list, ListTables());
    int64_t seated = 0;
    for (const v1::TableInfo& t : list.tables()) seated += t.players();
    return seated;
  }
  absl::StatusOr<int64_t> SettledHands() {
    ASSIGN_OR_RETURN(v1::ListTablesResponse list, ListTables());
    int64_t settled = 0;
    for (const v1::TableInfo& t : list.tables()) {
      settled += t.hands_played() - (t.in_hand() ? 1 : 0);
    }
    return settled;
  }

  // Random legal action from the player's own view, with the engine
  // bench's mix (libs/games/poker/random_play.cc RandomLegalDecision), so
  // that a hand means the same in both figures: 2% what the decision timer
  // would do (HE-45: check, else fold; the bots do it themselves rather
  // than wait out the clock), 20% all in, 12% a random bet or raise, 8% the
  // minimum one, 13% fold when facing a bet, else check or call.
  static void Choose(const v1::LegalActionsView& legal, std::mt19937_64& rng,
                     v1::ActRequest* act) {
    auto can = [&](v1::PokerActionType type) {
      return std::find(legal.actions().begin(), legal.actions().end(), type) !=
             legal.actions().end();
    };
    const bool can_size =
        can(v1::POKER_ACTION_TYPE_BET) || can(v1::POKER_ACTION_TYPE_RAISE);
    const v1::PokerActionType sized = can(v1::POKER_ACTION_TYPE_BET)
                                          ? v1::POKER_ACTION_TYPE_BET
                                          : v1::POKER_ACTION_TYPE_RAISE;
    const int roll = static_cast<int>(rng() % 100);
    act->set_amount_minor(0);
    if (roll < 2) {
      act->set_action(can(v1::POKER_ACTION_TYPE_CHECK)
                          ? v1::POKER_ACTION_TYPE_CHECK
                          : v1::POKER_ACTION_TYPE_FOLD);
    } else if (roll < 22 && can(v1::POKER_ACTION_TYPE_ALL_IN)) {
      act->set_action(v1::POKER_ACTION_TYPE_ALL_IN);
    } else if (roll < 34 && can_size &&
               legal.max_to_minor() > legal.min_to_minor()) {
      act->set_action(sized);
      act->set_amount_minor(
          legal.min_to_minor() +
          static_cast<int64_t>(
              rng() % (legal.max_to_minor() - legal.min_to_minor() + 1)));
    } else if (roll < 42 && can_size) {
      act->set_action(sized);
      act->set_amount_minor(legal.min_to_minor());
    } else if (roll < 55 && can(v1::POKER_ACTION_TYPE_CALL)) {
      act->set_action(v1::POKER_ACTION_TYPE_FOLD);
    } else if (can(v1::POKER_ACTION_TYPE_CHECK)) {
      act->set_action(v1::POKER_ACTION_TYPE_CHECK);
    } else if (can(v1::POKER_ACTION_TYPE_CALL)) {
      act->set_action(v1::POKER_ACTION_TYPE_CALL);
    } else {
      act->set_action(static_cast<v1::PokerActionType>(legal.actions(0)));
    }
  }

  // One table's bots: one call in flight at a time, on the shared
  // completion queue. Any view says whose turn it is and what that player
  // may do (to_act_legal): the last Act's answer, else a fresh view; then
  // that player acts. One RPC per action.
  struct Bot {
    enum class Step : uint8_t { kSeen, kMine, kAct, kPause } step;
    int t = 0;
    std::mt19937_64 rng;
    std::vector<std::string> bearer;  // per seat index
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<grpc::ClientAsyncResponseReader<v1::TableView>> call;
    grpc::Status status;
    v1::TableView seen;
    v1::ActRequest act;
    grpc::Alarm alarm;
    absl::Time sent;
    int actor = 0;  // seat index of the player acting
    int64_t requests = 0;
    int64_t last_hand = -1;
    std::vector<double> latencies;
  };

  // One bot's play, whatever carries it (its own Play stream or a session
  // on a gateway's Relay stream): counts the answers and turn notices the
  // service sends and decides the bot's action when an update shows that
  // it is its turn (the joining view or a turn notice; the answer to an
  // accepted action carries no view).
  class BotSeat {
   public:
    BotSeat(Bench& bench, int t, int index)
        : bench_(bench), t_(t), index_(index) {
      rng_.seed(bench.o_.seed * 1'000'003 + t * 16 + index);
    }

    int t() const { return t_; }
    const std::string& player() const { return player_; }
    const std::vector<double>& latencies() const { return latencies_; }

    // What the bot sends after an update.
    enum class Reply : uint8_t { kNone, kAct, kRebuy };
    Reply Update(const v1::PlayUpdate& update, v1::ActRequest* act,
                 v1::RebuyRequest* rebuy) {
      if (absl::StartsWith(update.request_id(), kRebuyPrefix)) {
        Rebought(update);
      } else if (!update.request_id().empty()) {
        if (update.code() != 0) {
          ++bench_.rejected_;
          acted_version_ = -1;  // the turn is still ours: act again
        } else {
          ++bench_.actions_;
          if (bench_.measuring_) {
            latencies_.push_back(
                absl::ToDoubleMilliseconds(absl::Now() - sent_));
          }
        }
      } else if (bench_.measuring_) {
        ++bench_.turns_;
      }
      if (!update.has_view()) return Reply::kNone;
      const v1::TableView& v = update.view();
      if (v.hand_number() != last_hand_ || !v.in_hand()) {
        last_hand_ = v.hand_number();
        bench_.QueueRebuys(t_, v);
      }
      if (bench_.stop_) return Reply::kNone;
      if (NeedsRebuy(v)) {
        rebuying_ = true;
        rebuy_sent_ = absl::Now();
        rebuy->set_request_id(absl::StrCat(kRebuyPrefix, ++requests_));
        rebuy->set_amount_minor(kBuyInMax - stack_);
        return Reply::kRebuy;
      }
      // The joining view and a turn notice can show the same turn (the
      // same version): act once.
      if (!v.in_hand() || v.my_seat() == 0 || v.to_act() != v.my_seat() ||
          v.legal().actions_size() == 0 || v.version() <= acted_version_) {
        return Reply::kNone;
      }
      acted_version_ = v.version();
      act->set_request_id(absl::StrCat("act-", ++requests_));
      act->set_hand_number(v.hand_number());
      Choose(v.legal(), rng_, act);
      sent_ = absl::Now();
      return Reply::kAct;
    }

   private:
    static constexpr char kRebuyPrefix[] = "stream-rebuy-";

    // A stream client buys back in itself, over its own stream (the other
    // clients' rebuys are Rebuy calls): when its view shows it out of the
    // hand with less than the big blind, and no rebuy of its is under way
    // or answered for this hand (the money joins the stack when the hand
    // ends).
    bool NeedsRebuy(const v1::TableView& v) {
      if (!bench_.stream_rebuys_ || rebuying_ || v.my_seat() == 0 ||
          v.hand_number() <= rebought_hand_) {
        return false;
      }
      for (const v1::SeatState& s : v.seats()) {
        if (s.seat() != v.my_seat()) continue;
        stack_ = s.stack_minor();
        return s.stack_minor() < kBigBlind && !s.in_hand();
      }
      return false;
    }
    void Rebought(const v1::PlayUpdate& answer) {
      rebuying_ = false;
      if (answer.code() == 0) {
        ++bench_.rebuys_;
        rebought_hand_ = last_hand_;
        if (bench_.measuring_) {
          std::lock_guard<std::mutex> lock(bench_.rebuy_mu_);
          bench_.topup_ms_.push_back(
              absl::ToDoubleMilliseconds(absl::Now() - rebuy_sent_));
        }
        return;
      }
      // Tried again by a Rebuy call (a Sit if the session is over), with
      // that path's retries.
      bench_.TopUp(
          {t_, player_, index_ + 1, stack_, 0,
           answer.code() == static_cast<int32_t>(grpc::StatusCode::NOT_FOUND)});
    }

    Bench& bench_;
    const int t_;
    const int index_;
    const std::string player_ = bench_.Player(t_, index_);
    std::mt19937_64 rng_;
    int64_t acted_version_ = -1;
    int64_t last_hand_ = -1;
    int64_t requests_ = 0;
    absl::Time sent_;
    std::vector<double> latencies_;
    int64_t stack_ = 0;
    bool rebuying_ = false;
    int64_t rebought_hand_ = -1;
    absl::Time rebuy_sent_;
  };

  // A client stream's writes, one in flight at a time (gRPC's rule):
  // the rest wait, and a Merge function may fold a waiting request into the
  // last one not yet started. Reads and writes may complete on different
  // gRPC threads at once: mu_ guards the queue.
  template <typename Request>
  class Writes {
   public:
    // The request to start now, if any.
    const Request* Push(Request request,
                        bool (*merge)(Request& into, Request& more) = nullptr) {
      std::lock_guard<std::mutex> lock(mu_);
      if (merge != nullptr && queue_.size() >= 2 &&
          merge(queue_.back(), request)) {
        return nullptr;
      }
      queue_.push_back(std::move(request));
      if (writing_) return nullptr;
      writing_ = true;
      return &queue_.front();
    }
    // The written request is done: the next to start, if any.
    const Request* Done(bool ok) {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.pop_front();
      if (ok && !queue_.empty()) return &queue_.front();
      writing_ = false;
      return nullptr;
    }

   private:
    std::mutex mu_;
    std::deque<Request> queue_;
    bool writing_ = false;
  };

  // One bot's Play stream (--api=play).
  class PlaySeat final
      : public grpc::ClientBidiReactor<v1::PlayRequest, v1::PlayUpdate> {
   public:
    PlaySeat(Bench& bench, int t, int index)
        : bench_(bench), seat_(bench, t, index) {}

    void Open() {
      ctx_.AddMetadata(
          "authorization",
          "Bearer " + bench_.Token(seat_.player(), auth::Role::kPlayer));
      bench_.Tables(seat_.t()).async()->Play(&ctx_, this);
      v1::PlayRequest join;
      join.mutable_join()->set_table_id(bench_.TableId(seat_.t()));
      Write(std::move(join));
      StartRead(&update_);
      StartCall();
    }
    void Cancel() { ctx_.TryCancel(); }
    const BotSeat& seat() const { return seat_; }

    void OnReadDone(bool ok) override {
      if (!ok) return;  // the stream is over: OnDone follows
      v1::ActRequest act;
      v1::RebuyRequest rebuy;
      v1::PlayRequest request;
      switch (seat_.Update(update_, &act, &rebuy)) {
        case BotSeat::Reply::kNone:
          break;
        case BotSeat::Reply::kAct:
          *request.mutable_act() = std::move(act);
          Write(std::move(request));
          break;
        case BotSeat::Reply::kRebuy:
          *request.mutable_rebuy() = std::move(rebuy);
          Write(std::move(request));
          break;
      }
      StartRead(&update_);
    }

    void OnWriteDone(bool ok) override {
      if (const v1::PlayRequest* next = writes_.Done(ok)) StartWrite(next);
    }

    void OnDone(const grpc::Status& status) override {
      bench_.NoteEnd(status, "Play stream of " + seat_.player());
      --bench_.running_;
    }

   private:
    void Write(v1::PlayRequest request) {
      if (const v1::PlayRequest* next = writes_.Push(std::move(request))) {
        StartWrite(next);
      }
    }

    Bench& bench_;
    BotSeat seat_;
    grpc::ClientContext ctx_;
    v1::PlayUpdate update_;
    Writes<v1::PlayRequest> writes_;
  };

  // A connection gateway (--api=relay): one Relay stream carrying the
  // sessions of every bot of its tables, each opened with the bot's own
  // token. The actions decided from one batch of updates go out as one
  // request.
  class Gateway final
      : public grpc::ClientBidiReactor<v1::RelayRequest, v1::RelayUpdate> {
   public:
    Gateway(Bench& bench, int index) : bench_(bench), index_(index) {}

    // Session numbers are positions in seats_ plus one.
    void Add(int t, int i) { seats_.emplace_back(bench_, t, i); }
    const std::vector<BotSeat>& seats() const { return seats_; }

    void Open() {
      ctx_.AddMetadata(
          "authorization",
          "Bearer " + bench_.Token(absl::StrCat("bench-gateway-", index_),
                                   auth::Role::kGateway));
      bench_.table_stubs_[index_ % kChannels]->async()->Relay(&ctx_, this);
      v1::RelayRequest opens;
      for (size_t n = 0; n < seats_.size(); ++n) {
        v1::RelayMessage* m = opens.add_messages();
        m->set_session(static_cast<uint32_t>(n + 1));
        m->mutable_open()->set_player_token(
            bench_.Token(seats_[n].player(), auth::Role::kPlayer));
        m->mutable_open()->set_table_id(bench_.TableId(seats_[n].t()));
      }
      Write(std::move(opens));
      StartRead(&update_);
      StartCall();
    }
    void Cancel() { ctx_.TryCancel(); }

    void OnReadDone(bool ok) override {
      if (!ok) return;  // the stream is over: OnDone follows
      v1::RelayRequest acts;
      v1::ActRequest act;
      v1::RebuyRequest rebuy;
      for (const v1::RelayDelivery& d : update_.deliveries()) {
        if (d.session() < 1 || d.session() > seats_.size()) continue;
        BotSeat& seat = seats_[d.session() - 1];
        if (d.ended()) {
          if (!bench_.stop_) {
            bench_.NoteEnd(
                grpc::Status(static_cast<grpc::StatusCode>(d.end_code()),
                             d.end_message()),
                "Relay session of " + seat.player());
          }
          continue;
        }
        switch (seat.Update(d.update(), &act, &rebuy)) {
          case BotSeat::Reply::kNone:
            break;
          case BotSeat::Reply::kAct: {
            v1::RelayMessage* m = acts.add_messages();
            m->set_session(d.session());
            m->mutable_act()->Swap(&act);
            break;
          }
          case BotSeat::Reply::kRebuy: {
            v1::RelayMessage* m = acts.add_messages();
            m->set_session(d.session());
            m->mutable_rebuy()->Swap(&rebuy);
            break;
          }
        }
      }
      if (acts.messages_size() > 0) Write(std::move(acts));
      StartRead(&update_);
    }

    void OnWriteDone(bool ok) override {
      if (const v1::RelayRequest* next = writes_.Done(ok)) StartWrite(next);
    }

    void OnDone(const grpc::Status& status) override {
      bench_.NoteEnd(status, absl::StrCat("Relay stream ", index_));
      --bench_.running_;
    }

   private:
    static bool Merge(v1::RelayRequest& into, v1::RelayRequest& more) {
      if (into.messages_size() + more.messages_size() > 4'096) return false;
      for (v1::RelayMessage& m : *more.mutable_messages()) {
        *into.add_messages() = std::move(m);
      }
      return true;
    }
    void Write(v1::RelayRequest request) {
      if (const v1::RelayRequest* next =
              writes_.Push(std::move(request), &Merge)) {
        StartWrite(next);
      }
    }

    Bench& bench_;
    const int index_;
    std::vector<BotSeat> seats_;
    grpc::ClientContext ctx_;
    v1::RelayUpdate update_;
    Writes<v1::RelayRequest> writes_;
  };

  // A stream or a Relay session ended: an error unless the bench
  // cancelled it.
  void NoteEnd(const grpc::Status& status, const std::string& what) {
    if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
      std::lock_guard<std::mutex> lock(error_mu_);
      stream_error_ =
          absl::InternalError(absl::StrCat(what, ": ", status.error_message()));
    }
  }

  void Call(Bot& b, Bot::Step step, int player_index) {
    b.step = step;
    b.ctx = std::make_unique<grpc::ClientContext>();
    b.ctx->AddMetadata("authorization", b.bearer[player_index]);
    v1::TableService::Stub& stub = Tables(b.t);
    if (step == Bot::Step::kAct) {
      b.sent = absl::Now();
      b.call = stub.PrepareAsyncAct(b.ctx.get(), b.act, &cq_);
      b.call->StartCall();
      b.call->Finish(&b.seen, &b.status, &b);
      return;
    }
    if (measuring_) ++views_;
    v1::WatchTableRequest req;
    req.set_table_id(TableId(b.t));
    b.call = stub.PrepareAsyncGetTableView(b.ctx.get(), req, &cq_);
    b.call->StartCall();
    b.call->Finish(&b.seen, &b.status, &b);
  }

  void Pause(Bot& b) {
    if (measuring_) ++pauses_;
    b.step = Bot::Step::kPause;
    b.alarm.Set(&cq_, absl::ToChronoTime(absl::Now() + absl::Milliseconds(1)),
                &b);
  }

  int IndexOf(const Bot& b, const std::string& player) const {
    for (int i = 0; i < o_.players; ++i) {
      if (Player(b.t, i) == player) return i;
    }
    return -1;
  }

  // The bot's call finished (or its pause ran out): the next one.
  void Advance(Bot& b) {
    if (stop_) {
      --running_;
      return;
    }
    switch (b.step) {
      case Bot::Step::kPause:
        return Call(b, Bot::Step::kSeen, 0);
      case Bot::Step::kAct: {
        const double ms = absl::ToDoubleMilliseconds(absl::Now() - b.sent);
        if (!b.status.ok()) {
          ++rejected_;
          return Call(b, Bot::Step::kSeen, 0);
        }
        ++actions_;
        if (measuring_) b.latencies.push_back(ms);
        return Seen(b);  // the actor's view after the action: who is next
      }
      case Bot::Step::kSeen:
        if (!b.status.ok()) return Pause(b);
        return Seen(b);
      case Bot::Step::kMine: {
        // --api=view-act: the actor's own view, then its own `legal`.
        const v1::TableView& v = b.seen;
        if (!b.status.ok() || v.to_act() != v.my_seat() ||
            v.legal().actions_size() == 0) {
          return Call(b, Bot::Step::kSeen, 0);
        }
        return Send(b, v, v.legal());
      }
    }
  }

  void Send(Bot& b, const v1::TableView& v, const v1::LegalActionsView& l) {
    b.act.Clear();
    b.act.set_request_id(absl::StrCat("act-", ++b.requests));
    b.act.set_table_id(TableId(b.t));
    b.act.set_hand_number(v.hand_number());
    Choose(l, b.rng, &b.act);
    Call(b, Bot::Step::kAct, b.actor);
  }

  void Seen(Bot& b) {
    const v1::TableView& v = b.seen;
    if (v.hand_number() != b.last_hand || !v.in_hand()) {
      b.last_hand = v.hand_number();
      QueueRebuys(b.t, v);
    }
    if (!v.in_hand() || v.to_act() == 0 ||
        v.to_act_legal().actions_size() == 0) {
      return Pause(b);
    }
    b.actor = -1;
    for (const v1::SeatState& s : v.seats()) {
      if (s.seat() == v.to_act()) b.actor = IndexOf(b, s.player_id());
    }
    if (b.actor < 0) return Pause(b);
    if (o_.api == HoldemBenchOptions::Api::kViewAndAct) {
      return Call(b, Bot::Step::kMine, b.actor);
    }
    Send(b, v, v.to_act_legal());
  }

  // Bots that can no longer post the big blind (so they are not dealt in,
  // HE-15) buy back in to the maximum (by a Rebuy call here, unless they
  // rebuy over their own stream: BotSeat::NeedsRebuy), and bots whose
  // session the table ended (HE-71: a rebuy that came too late) sit down
  // again, so the tables stay 6-max. Each call is asynchronous: a buy-in
  // waits for the wallet's saga, and a bot that waits in a queue for a free
  // thread is out of the game by the time its rebuy arrives.
  void QueueRebuys(int t, const v1::TableView& view) {
    std::vector<bool> seated(o_.players, false);
    for (const v1::SeatState& s : view.seats()) {
      if (s.seat() >= 1 && s.seat() <= o_.players) seated[s.seat() - 1] = true;
      if (stream_rebuys_ || s.stack_minor() >= kBigBlind || s.in_hand()) {
        continue;
      }
      TopUp({t, s.player_id(), s.seat(), s.stack_minor()});
    }
    for (int i = 0; i < o_.players; ++i) {
      if (!seated[i]) TopUp({t, Player(t, i), i + 1, 0, 0, true});
    }
  }

  // One Rebuy or Sit call in flight.
  struct TopUpCall {
    RebuyJob job;
    grpc::ClientContext ctx;
    v1::RebuyRequest rebuy;
    v1::SitRequest sit;
    v1::SeatResponse answer;
    grpc::Alarm retry;
    absl::Time sent;
  };

  void TopUp(const RebuyJob& job) {
    {
      std::lock_guard<std::mutex> lock(rebuy_mu_);
      if (stop_ || !rebuy_pending_.insert(job.player).second) return;
    }
    ++topups_in_flight_;
    SendTopUp(new TopUpCall, job);
  }

  void SendTopUp(TopUpCall* call, const RebuyJob& job) {
    static std::atomic<int64_t> ids{0};
    call->job = job;
    call->sent = absl::Now();
    As(call->ctx, job.player);
    call->ctx.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(5));
    auto done = [this, call](grpc::Status status) { Done(call, status); };
    if (job.sit) {
      call->sit.set_request_id(absl::StrCat("resit-", ++ids));
      call->sit.set_table_id(TableId(job.t));
      call->sit.set_seat(job.seat);
      call->sit.set_buy_in_minor(kBuyInMax);
      Tables(job.t).async()->Sit(&call->ctx, &call->sit, &call->answer, done);
    } else {
      call->rebuy.set_request_id(absl::StrCat("rebuy-", ++ids));
      call->rebuy.set_table_id(TableId(job.t));
      call->rebuy.set_amount_minor(kBuyInMax - job.stack);
      Tables(job.t).async()->Rebuy(&call->ctx, &call->rebuy, &call->answer,
                                   done);
    }
  }

  void Done(TopUpCall* call, const grpc::Status& status) {
    RebuyJob job = call->job;
    if (status.ok()) ++(job.sit ? resits_ : rebuys_);
    if (status.ok() && measuring_) {
      std::lock_guard<std::mutex> lock(rebuy_mu_);
      topup_ms_.push_back(absl::ToDoubleMilliseconds(absl::Now() - call->sent));
    }
    if (!job.sit && status.error_code() == grpc::StatusCode::NOT_FOUND) {
      job.sit = true;  // the table ended the session: sit down again
    }
    // A Play client hears of a table only at a turn: a table left with one
    // funded player would wait forever for a top-up that failed. So a
    // failed one is tried again a little later, a few times.
    if (!status.ok() && ++job.attempts < kRebuyAttempts && !stop_) {
      auto* again = new TopUpCall;
      again->job = job;
      again->retry.Set(
          std::chrono::system_clock::now() + std::chrono::milliseconds(20),
          [this, again](bool) { SendTopUp(again, again->job); });
    } else {
      std::lock_guard<std::mutex> lock(rebuy_mu_);
      rebuy_pending_.erase(job.player);
      --topups_in_flight_;
    }
    delete call;
  }

  void Poll() {
    void* tag = nullptr;
    bool ok = false;
    while (cq_.Next(&tag, &ok)) Advance(*static_cast<Bot*>(tag));
  }

  void StartBots() {
    if (o_.api == HoldemBenchOptions::Api::kPlay) {
      for (int t = 0; t < o_.tables; ++t) {
        for (int i = 0; i < o_.players; ++i) {
          seats_.push_back(std::make_unique<PlaySeat>(*this, t, i));
        }
      }
      running_ = static_cast<int>(seats_.size());
      for (auto& seat : seats_) seat->Open();
      return;
    }
    if (o_.api == HoldemBenchOptions::Api::kRelay) {
      for (int g = 0; g < std::min(kChannels, o_.tables); ++g) {
        gateways_.push_back(std::make_unique<Gateway>(*this, g));
      }
      for (int t = 0; t < o_.tables; ++t) {
        for (int i = 0; i < o_.players; ++i) {
          gateways_[t % gateways_.size()]->Add(t, i);
        }
      }
      running_ = static_cast<int>(gateways_.size());
      for (auto& gateway : gateways_) gateway->Open();
      return;
    }
    for (int t = 0; t < o_.tables; ++t) {
      auto b = std::make_unique<Bot>();
      b->t = t;
      b->rng.seed(o_.seed * 1'000'003 + t);
      for (int i = 0; i < o_.players; ++i) {
        b->bearer.push_back("Bearer " +
                            Token(Player(t, i), auth::Role::kPlayer));
      }
      bots_.push_back(std::move(b));
    }
    running_ = o_.tables;
    for (int i = 0; i < kPollers; ++i)
      pollers_.emplace_back([this] { Poll(); });
    for (auto& b : bots_) Call(*b, Bot::Step::kSeen, 0);
  }

  void StopBots() {
    {
      std::lock_guard<std::mutex> lock(rebuy_mu_);
      stop_ = true;
    }
    // Each bot stops at its next completion (or its stream is cancelled);
    // then the queue drains. Top-ups in flight end within their deadline.
    for (auto& seat : seats_) seat->Cancel();
    for (auto& gateway : gateways_) gateway->Cancel();
    while (running_ > 0 || topups_in_flight_ > 0) {
      absl::SleepFor(absl::Milliseconds(1));
    }
    cq_.Shutdown();
    for (std::thread& t : pollers_) t.join();
    pollers_.clear();
  }

  const HoldemBenchOptions o_;
  const auth::SigningKey key_;
  SystemClock clock_;
  std::unique_ptr<eventlog::EventLog> log_;
  std::unique_ptr<wallet::WalletService> wallet_;
  std::unique_ptr<table::TableService> tables_;
  std::unique_ptr<grpc::Server> server_;
  std::vector<std::unique_ptr<v1::TableService::Stub>> table_stubs_;
  std::vector<std::unique_ptr<v1::WalletService::Stub>> wallet_stubs_;
  std::mutex tokens_mu_;
  std::map<std::string, std::string> tokens_;
  grpc::CompletionQueue cq_;
  std::vector<std::unique_ptr<Bot>> bots_;
  std::vector<std::unique_ptr<PlaySeat>> seats_;
  std::vector<std::unique_ptr<Gateway>> gateways_;
  std::mutex error_mu_;
  absl::Status stream_error_;  // a Play stream that ended in error
  std::vector<std::thread> pollers_;
  std::atomic<int> running_{0};
  std::mutex rebuy_mu_;
  std::set<std::string> rebuy_pending_;  // players with a top-up under way
  std::vector<double> topup_ms_;         // answered top-ups in the window
  std::atomic<int> topups_in_flight_{0};
  std::atomic<bool> stop_{false};
  // The bots rebuy over their stream or Relay session (Play and Relay
  // clients), not by Rebuy calls.
  const bool stream_rebuys_ = o_.api == HoldemBenchOptions::Api::kPlay ||
                              o_.api == HoldemBenchOptions::Api::kRelay;
  std::atomic<bool> measuring_{false};
  std::atomic<int64_t> actions_{0};
  std::atomic<int64_t> rejected_{0};
  std::atomic<int64_t> rebuys_{0};
  std::atomic<int64_t> resits_{0};
  std::atomic<int64_t> views_{0};
  std::atomic<int64_t> pauses_{0};
  std::atomic<int64_t> turns_{0};
};

}  // namespace

absl::StatusOr<HoldemBenchResult> RunHoldemServiceBench(
    const HoldemBenchOptions& options) {
  if (options.tables < 1 || options.tables > 1000 || options.players < 2 ||
      options.players > 10) {
    return absl::InvalidArgumentError("--tables 1..1000, --players 2..10");
  }
  Bench bench(options);
  RETURN_IF_ERROR(bench.Start());
  return bench.Run();
}

}  // namespace banca::bench
