#include "tests/fuzz/service_harness.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/table.pb.h"
#include "banca/v1/wallet.pb.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "services/common/server_options.h"
#include "tests/fuzz/fuzz_deck_keys.h"

namespace banca::fuzz {

const std::vector<std::string_view> kMethods = {
    "/banca.v1.WalletService/OpenAccount",
    "/banca.v1.WalletService/CloseAccount",
    "/banca.v1.WalletService/Deposit",
    "/banca.v1.WalletService/Withdraw",
    "/banca.v1.WalletService/GetBalance",
    "/banca.v1.WalletService/ListTransactions",
    "/banca.v1.WalletService/PlaceHold",
    "/banca.v1.WalletService/CaptureHold",
    "/banca.v1.WalletService/ReleaseHold",
    "/banca.v1.WalletService/Transfer",
    "/banca.v1.WalletService/GetLedgerSummary",
    "/banca.v1.TableService/CreateTable",
    "/banca.v1.TableService/ListTables",
    "/banca.v1.TableService/Sit",
    "/banca.v1.TableService/Rebuy",
    "/banca.v1.TableService/Leave",
    "/banca.v1.TableService/SitOut",
    "/banca.v1.TableService/SitIn",
    "/banca.v1.TableService/Act",
    "/banca.v1.TableService/GetTableView",
    "/banca.v1.TableService/GetLastHand",
    "/banca.v1.TableService/GetSessionSummary",
    "/banca.v1.TableService/VoidHand",
    "/banca.v1.BankedTableService/CreateTable",
    "/banca.v1.BankedTableService/ListTables",
    "/banca.v1.BankedTableService/Join",
    "/banca.v1.BankedTableService/Leave",
    "/banca.v1.BankedTableService/PlaceBet",
    "/banca.v1.BankedTableService/WithdrawBet",
    "/banca.v1.BankedTableService/Launch",
    "/banca.v1.BankedTableService/Act",
    "/banca.v1.BankedTableService/GetTableView",
    "/banca.v1.BankedTableService/GetLastNumbers",
    "/banca.v1.BankedTableService/GetLastRound",
    "/banca.v1.BankedTableService/GetReplay",
    "/banca.v1.BankedTableService/GetSessionSummary",
    "/banca.v1.BankedTableService/VoidRound",
};

size_t MethodIndex(std::string_view method) {
  for (size_t i = 0; i < kMethods.size(); ++i) {
    if (kMethods[i] == method) return i;
  }
  std::fprintf(stderr, "service_harness: no method %.*s\n",
               static_cast<int>(method.size()), method.data());
  std::abort();
}

std::string Input(size_t method, Caller caller,
                  const google::protobuf::Message& request) {
  std::string input;
  input.push_back(static_cast<char>(method));
  input.push_back(static_cast<char>(caller));
  return input + request.SerializeAsString();
}

std::vector<std::string> SetupInputs() {
  std::vector<std::string> inputs;
  for (const char* player : {"ana", "bob"}) {
    v1::OpenAccountRequest open;
    open.set_request_id(absl::StrCat("setup-open-", player));
    open.set_player_id(player);
    open.set_currency("EUR");
    inputs.push_back(Input(MethodIndex("/banca.v1.WalletService/OpenAccount"),
                           kOperator, open));
    v1::DepositRequest deposit;
    deposit.set_request_id(absl::StrCat("setup-deposit-", player));
    deposit.set_player_id(player);
    deposit.set_amount_minor(1'000'000);
    deposit.set_currency("EUR");
    deposit.set_payment_ref(absl::StrCat("psp-", player));
    inputs.push_back(Input(MethodIndex("/banca.v1.WalletService/Deposit"),
                           kPayments, deposit));
  }
  v1::CreateTableRequest poker;
  poker.set_request_id("setup-poker");
  poker.set_table_id("t1");
  poker.set_name("fuzz");
  v1::PokerTableConfig& config = *poker.mutable_config();
  config.set_variant(v1::POKER_VARIANT_HOLDEM);
  config.set_small_blind_minor(50);
  config.set_big_blind_minor(100);
  config.set_buy_in_min_minor(2'000);
  config.set_buy_in_max_minor(20'000);
  config.set_currency("EUR");
  inputs.push_back(Input(MethodIndex("/banca.v1.TableService/CreateTable"),
                         kOperator, poker));
  v1::CreateBankedTableRequest roulette;
  roulette.set_request_id("setup-roulette");
  roulette.set_table_id("r1");
  roulette.set_name("fuzz");
  roulette.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
  inputs.push_back(
      Input(MethodIndex("/banca.v1.BankedTableService/CreateTable"), kOperator,
            roulette));
  return inputs;
}

namespace {

std::string TokenFor(const auth::SigningKey& key, auth::Role role,
                     const char* name) {
  auth::Claims claims;
  claims.role = role;
  claims.subject = auth::Subject(role, name);
  claims.issued_at_unix_seconds = absl::ToUnixSeconds(absl::Now());
  claims.expires_unix_seconds = claims.issued_at_unix_seconds + 86'400;
  absl::StatusOr<std::string> token = auth::IssueToken(key, claims);
  if (!token.ok()) std::abort();
  return *token;
}

template <typename T>
T OrDie(absl::StatusOr<T> v, const char* what) {
  if (!v.ok()) {
    std::fprintf(stderr, "service_harness: %s: %s\n", what,
                 std::string(v.status().message()).c_str());
    std::abort();
  }
  return std::move(*v);
}

}  // namespace

ServiceHarness::ServiceHarness(std::string dir) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
  std::array<unsigned char, auth::kSeedBytes> seed;
  seed.fill(0x42);
  const auth::SigningKey key =
      OrDie(auth::SigningKey::FromSeed(seed), "signing key");
  if (!verifier_.Add(key.public_key()).ok()) std::abort();
  tokens_ = {
      TokenFor(key, auth::Role::kPlayer, "ana"),
      TokenFor(key, auth::Role::kPlayer, "bob"),
      TokenFor(key, auth::Role::kOperator, "ops"),
      TokenFor(key, auth::Role::kFinance, "fin"),
      TokenFor(key, auth::Role::kAuditor, "aud"),
      TokenFor(key, auth::Role::kService, "payments"),
      TokenFor(key, auth::Role::kService, "table"),
      TokenFor(key, auth::Role::kGateway, "gw"),
      "",
      "v2.0123456789abcdef.c3ViPXBsYXllcjphbmE.AAAA",
  };

  eventlog::EmbeddedLogOptions log_options;
  log_options.fsync = false;  // a throw-away log
  log_ = OrDie(eventlog::OpenEmbeddedLog(dir_ + "/log", log_options), "log");
  StartServices();
}

void ServiceHarness::StartServices() {
  wallet::WalletOptions w;
  w.projection_dir = dir_ + "/projection";
  std::filesystem::create_directories(w.projection_dir);
  w.verifier = verifier_;
  wallet_ = OrDie(wallet::WalletService::Start(*log_, clock_, w), "wallet");

  table::TableServiceOptions t;
  t.verifier = verifier_;
  // Fixed: the services restart on the same log and must open its decks.
  t.deck_keys = fuzz::FuzzDeckKeys();
  t.sit_wait = absl::Milliseconds(500);
  tables_ = OrDie(table::TableService::Start(*log_, clock_, t), "tables");

  table::BankedTableServiceOptions b;
  b.verifier = verifier_;
  b.deck_keys = fuzz::FuzzDeckKeys();
  b.stake_wait = absl::Milliseconds(500);
  banked_ = OrDie(table::BankedTableService::Start(*log_, clock_, b), "banked");

  grpc::ServerBuilder builder;
  edge::ApplyServerOptions(builder);
  builder.RegisterService(wallet_.get());
  builder.RegisterService(tables_.get());
  builder.RegisterService(banked_.get());
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) std::abort();
  stub_ = std::make_unique<grpc::GenericStub>(
      server_->InProcessChannel(grpc::ChannelArguments()));
}

ServiceHarness::~ServiceHarness() {
  Stop();
  log_.reset();
  std::filesystem::remove_all(dir_);
}

void ServiceHarness::Stop() {
  if (server_ != nullptr) {
    server_->Shutdown(std::chrono::system_clock::now() +
                      std::chrono::seconds(2));
    server_.reset();
  }
  stub_.reset();
  banked_.reset();
  tables_.reset();
  if (wallet_ != nullptr) (void)wallet_->Stop();
  wallet_.reset();
}

grpc::Status ServiceHarness::Send(std::string_view input,
                                  std::string* response) {
  if (input.size() < 2 || stub_ == nullptr) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "short input");
  }
  const size_t method = static_cast<uint8_t>(input[0]) % kMethods.size();
  const size_t caller = static_cast<uint8_t>(input[1]) % kCallerCount;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(30));
  if (!tokens_[caller].empty()) {
    context.AddMetadata("authorization",
                        absl::StrCat("Bearer ", tokens_[caller]));
  }
  grpc::Slice slice(input.data() + 2, input.size() - 2);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer reply;
  std::promise<grpc::Status> done;
  stub_->UnaryCall(&context, std::string(kMethods[method]), grpc::StubOptions(),
                   &request, &reply,
                   [&done](grpc::Status s) { done.set_value(std::move(s)); });
  grpc::Status status = done.get_future().get();
  if (response != nullptr) {
    response->clear();
    std::vector<grpc::Slice> slices;
    if (status.ok() && reply.Dump(&slices).ok()) {
      for (const grpc::Slice& s : slices) {
        response->append(reinterpret_cast<const char*>(s.begin()), s.size());
      }
    }
  }
  return status;
}

void ServiceHarness::Setup() {
  for (const std::string& input : SetupInputs()) {
    grpc::Status s = Send(input);
    if (!s.ok()) {
      std::fprintf(
          stderr, "service_harness setup: %s: %s\n",
          std::string(kMethods[static_cast<uint8_t>(input[0])]).c_str(),
          s.error_message().c_str());
    }
  }
}

int64_t ServiceHarness::LedgerSum() const {
  return wallet_->ledger().Summarize().sum;
}

absl::Status ServiceHarness::CheckNewRecords() {
  for (std::string_view topic :
       {wire::kWalletTopic, wire::kTableTopic, wire::kTableRequestsTopic,
        wire::kBankedTopic, wire::kBankedRequestsTopic}) {
    absl::StatusOr<int> partitions = log_->PartitionCount(topic);
    if (!partitions.ok()) continue;  // not created yet
    for (int p = 0; p < *partitions; ++p) {
      int64_t& from = read_up_to_[{std::string(topic), p}];
      auto check = [&](const eventlog::StoredRecord& r) -> absl::Status {
        const std::string where =
            absl::StrCat(r.topic, "/", r.partition, "@", r.offset, ": ");
        absl::Status s;
        if (topic == wire::kWalletTopic) {
          absl::StatusOr<wire::DecodedWalletEvent> d =
              wire::DecodeWalletRecord(r);
          s = d.ok() ? shadow_.Apply(d->envelope.stream_id(),
                                     d->envelope.sequence(), d->event)
                     : d.status();
        } else if (topic == wire::kTableTopic ||
                   topic == wire::kTableRequestsTopic) {
          s = wire::DecodeTableRecord(r).status();
        } else {
          s = wire::DecodeBankedRecord(r).status();
        }
        if (!s.ok()) return absl::DataLossError(where + s.ToString());
        return absl::OkStatus();
      };
      absl::StatusOr<int64_t> next =
          eventlog::ReadPartitionToEnd(*log_, topic, p, from, check);
      if (!next.ok()) return next.status();
      from = *next;
    }
  }
  return absl::OkStatus();
}

void ServiceHarness::Restart() {
  Stop();
  StartServices();
}

}  // namespace banca::fuzz
