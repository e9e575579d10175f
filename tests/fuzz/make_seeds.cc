// Writes the seed corpora of tests/fuzz/corpus from the project's own code:
// a short real session (two players, a poker table whose hands play out on
// decision timeouts, a roulette wheel with a bet and a spin, a blackjack
// round from a sealed shoe) through the three services in this process
// (service_harness.h), then the records the session logged, cut into each
// target's input form. The scenario and
// PHH corpora are copies of tests/scenarios and tests/hands files instead.
//
//   fuzz_make_seeds OUT_DIR    (writes OUT_DIR/<target>/<seed>)
// tools/run-fuzz does not run this: its output is checked in, small.
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/table.pb.h"
#include "banca/v1/wallet.pb.h"
#include "libs/auth/token.h"
#include "libs/eventlog/journal_scan.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/table_codec.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/service_harness.h"

namespace banca::fuzz {
namespace {

// Seeds stay small: a prefix of a long stream is as good a start.
constexpr size_t kMaxSequence = 48;

std::string out_dir;

void Write(const std::string& target, const std::string& name,
           const std::string& bytes) {
  const std::string dir = out_dir + "/" + target;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + name, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<eventlog::StoredRecord> ReadAll(eventlog::EventLog& log,
                                            std::string_view topic) {
  std::vector<eventlog::StoredRecord> out;
  absl::StatusOr<int> partitions = log.PartitionCount(topic);
  if (!partitions.ok()) return out;
  for (int p = 0; p < *partitions; ++p) {
    int64_t offset = 0;
    for (;;) {
      auto read = log.Read(topic, p, offset, 256);
      if (!read.ok() || read->empty()) break;
      offset = read->back().offset + 1;
      out.insert(out.end(), read->begin(), read->end());
    }
  }
  return out;
}

// The services corpus: each call of the session is a seed.
class Session {
 public:
  explicit Session(ServiceHarness& h) : h_(h) {}

  grpc::Status Call(const std::string& name, std::string_view method,
                    Caller caller, const google::protobuf::Message& request,
                    std::string* response = nullptr) {
    const std::string input = Input(MethodIndex(method), caller, request);
    Write("services_fuzz", name, input);
    grpc::Status s = h_.Send(input, response);
    std::printf("  %-28s %s %s\n", name.c_str(),
                s.ok() ? "OK" : std::to_string(s.error_code()).c_str(),
                s.error_message().c_str());
    return s;
  }

 private:
  ServiceHarness& h_;
};

// One blackjack round at a one-seat table (dealt as soon as the stake is
// captured, from a sealed shoe; revealed when ana stands).
void PlayBlackjackRound(Session& s) {
  v1::CreateBankedTableRequest table;
  table.set_request_id("seed-blackjack");
  table.set_table_id("b2");
  table.set_name("seeds");
  table.set_game(v1::BANKED_GAME_BLACKJACK);
  table.mutable_blackjack()->set_seats(1);
  (void)s.Call("create-blackjack", "/banca.v1.BankedTableService/CreateTable",
               kOperator, table);
  v1::JoinBankedTableRequest join;
  join.set_request_id("seed-join-blackjack");
  join.set_table_id("b2");
  join.set_seat(1);
  std::string joined;
  (void)s.Call("join-blackjack", "/banca.v1.BankedTableService/Join", kAna,
               join, &joined);
  v1::BankedTableView view;
  (void)view.ParseFromString(joined);
  v1::PlaceBankedBetRequest bet;
  bet.set_request_id("seed-bet-blackjack");
  bet.set_table_id("b2");
  bet.set_round(view.round());
  bet.set_amount_minor(100);
  (void)s.Call("bet-blackjack", "/banca.v1.BankedTableService/PlaceBet", kAna,
               bet);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the deal
  v1::BankedActRequest stand;
  stand.set_request_id("seed-stand");
  stand.set_table_id("b2");
  stand.set_round(view.round());
  stand.set_action(v1::BLACKJACK_ACTION_TYPE_STAND);
  (void)s.Call("stand-blackjack", "/banca.v1.BankedTableService/Act", kAna,
               stand);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
}

void PlaySession(ServiceHarness& h) {
  Session s(h);
  int n = 0;
  for (const std::string& input : SetupInputs()) {
    Write("services_fuzz", absl::StrCat("setup-", n++), input);
    (void)h.Send(input);
  }
  v1::CreateTableRequest poker;
  poker.set_request_id("seed-poker");
  poker.set_table_id("t2");
  poker.set_name("seeds");
  v1::PokerTableConfig& config = *poker.mutable_config();
  config.set_variant(v1::POKER_VARIANT_HOLDEM);
  config.set_small_blind_minor(50);
  config.set_big_blind_minor(100);
  config.set_buy_in_min_minor(2'000);
  config.set_buy_in_max_minor(20'000);
  config.set_currency("EUR");
  config.set_action_seconds(1);
  (void)s.Call("create-poker", "/banca.v1.TableService/CreateTable", kOperator,
               poker);
  for (auto [caller, seat] : {std::pair{kAna, 1}, std::pair{kBob, 2}}) {
    v1::SitRequest sit;
    sit.set_request_id(absl::StrCat("seed-sit-", seat));
    sit.set_table_id("t2");
    sit.set_seat(seat);
    sit.set_buy_in_minor(5'000);
    (void)s.Call(absl::StrCat("sit-", seat), "/banca.v1.TableService/Sit",
                 caller, sit);
  }
  // Hands play out on the one-second decision timeouts.
  std::this_thread::sleep_for(std::chrono::seconds(5));
  v1::WatchTableRequest view;
  view.set_table_id("t2");
  std::string viewed;
  (void)s.Call("view-poker", "/banca.v1.TableService/GetTableView", kAna, view,
               &viewed);
  v1::TableView table_view;
  (void)table_view.ParseFromString(viewed);
  v1::ActRequest act;
  act.set_request_id("seed-act");
  act.set_table_id("t2");
  act.set_hand_number(table_view.hand_number());
  act.set_action(v1::POKER_ACTION_TYPE_FOLD);
  (void)s.Call("act-poker", "/banca.v1.TableService/Act", kAna, act);
  v1::LeaveRequest leave;
  leave.set_request_id("seed-leave");
  leave.set_table_id("t2");
  (void)s.Call("leave-poker", "/banca.v1.TableService/Leave", kBob, leave);

  v1::CreateBankedTableRequest wheel;
  wheel.set_request_id("seed-wheel");
  wheel.set_table_id("r2");
  wheel.set_name("seeds");
  wheel.set_game(v1::BANKED_GAME_ROULETTE_FRENCH);
  wheel.mutable_roulette()->set_individual(true);
  wheel.mutable_roulette()->set_player_launches(true);
  (void)s.Call("create-wheel", "/banca.v1.BankedTableService/CreateTable",
               kOperator, wheel);
  v1::JoinBankedTableRequest join;
  join.set_request_id("seed-join");
  join.set_table_id("r2");
  std::string joined;
  (void)s.Call("join-wheel", "/banca.v1.BankedTableService/Join", kAna, join,
               &joined);
  v1::BankedTableView joined_view;
  (void)joined_view.ParseFromString(joined);
  v1::PlaceBankedBetRequest bet;
  bet.set_request_id("seed-bet");
  bet.set_table_id("r2");
  bet.set_round(joined_view.round());
  bet.set_amount_minor(100);
  bet.mutable_roulette()->set_kind("straight");
  bet.mutable_roulette()->add_numbers("17");
  (void)s.Call("bet-wheel", "/banca.v1.BankedTableService/PlaceBet", kAna, bet);
  v1::LaunchRequest launch;
  launch.set_request_id("seed-launch");
  launch.set_table_id("r2");
  launch.set_round(joined_view.round());
  (void)s.Call("launch-wheel", "/banca.v1.BankedTableService/Launch", kAna,
               launch);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  PlayBlackjackRound(s);

  v1::TransferRequest transfer;
  transfer.set_request_id("seed-transfer");
  transfer.set_from_account("house/bank");
  transfer.set_to_account("player/ana/cash");
  transfer.set_amount_minor(500);
  transfer.set_currency("EUR");
  transfer.set_reason(v1::POSTING_REASON_ADJUSTMENT);
  transfer.mutable_reference()->set_kind(v1::REFERENCE_KIND_OPERATOR);
  transfer.mutable_reference()->set_id("ticket-1");
  transfer.set_memo("goodwill");
  (void)s.Call("transfer", "/banca.v1.WalletService/Transfer", kOperator,
               transfer);
  v1::PlaceHoldRequest hold;
  hold.set_request_id("seed-hold");
  hold.set_player_id("bob");
  hold.set_amount_minor(300);
  hold.set_currency("EUR");
  hold.set_reason(v1::POSTING_REASON_BET);
  hold.mutable_reference()->set_kind(v1::REFERENCE_KIND_TABLE);
  hold.mutable_reference()->set_id("t9");
  std::string held;
  (void)s.Call("hold", "/banca.v1.WalletService/PlaceHold", kTableService, hold,
               &held);
  v1::HoldResponse hold_response;
  (void)hold_response.ParseFromString(held);
  v1::ReleaseHoldRequest release;
  release.set_request_id("seed-release");
  release.set_hold_id(hold_response.hold_id());
  (void)s.Call("release", "/banca.v1.WalletService/ReleaseHold", kTableService,
               release);
  v1::OpenAccountRequest open;
  open.set_request_id("seed-open-carol");
  open.set_player_id("carol");
  open.set_currency("EUR");
  (void)s.Call("open", "/banca.v1.WalletService/OpenAccount", kOperator, open);
  v1::CloseAccountRequest close;
  close.set_request_id("seed-close-carol");
  close.set_player_id("carol");
  (void)s.Call("close", "/banca.v1.WalletService/CloseAccount", kOperator,
               close);
  v1::WithdrawRequest withdraw;
  withdraw.set_request_id("seed-withdraw");
  withdraw.set_player_id("ana");
  withdraw.set_amount_minor(700);
  withdraw.set_currency("EUR");
  withdraw.set_payment_ref("psp-w1");
  (void)s.Call("withdraw", "/banca.v1.WalletService/Withdraw", kAna, withdraw);
  v1::GetBalanceRequest balance;
  balance.set_player_id("ana");
  (void)s.Call("balance", "/banca.v1.WalletService/GetBalance", kAna, balance);
  v1::GetLedgerSummaryRequest summary;
  (void)s.Call("summary", "/banca.v1.WalletService/GetLedgerSummary", kAuditor,
               summary);
}

std::vector<std::string> Values(const std::vector<eventlog::StoredRecord>& rs,
                                std::string_view key) {
  std::vector<std::string> out;
  for (const eventlog::StoredRecord& r : rs) {
    if ((key.empty() || r.key == key) && out.size() < kMaxSequence) {
      out.push_back(r.value);
    }
  }
  return out;
}

void LogSeeds(eventlog::EventLog& log) {
  // Wallet: one seed per kind of event, and the history for replay.
  const auto wallet_records = ReadAll(log, wire::kWalletTopic);
  std::map<int, std::string> by_kind;
  for (const eventlog::StoredRecord& r : wallet_records) {
    absl::StatusOr<wire::DecodedWalletEvent> d = wire::DecodeWalletRecord(r);
    if (d.ok()) by_kind.emplace(d->event.kind_case(), r.value);
  }
  for (const auto& [kind, value] : by_kind) {
    Write("wallet_record_fuzz", absl::StrCat("kind-", kind), value);
  }
  Write("wallet_replay_fuzz", "session",
        EncodeSequence(Values(wallet_records, "")));

  const auto table_records = ReadAll(log, wire::kTableTopic);
  Write("table_replay_fuzz", "t1-created",
        EncodeSequence(Values(table_records, wire::TableStream("t1"))));
  Write("table_replay_fuzz", "t2-hands",
        EncodeSequence(Values(table_records, wire::TableStream("t2"))));
  const auto banked_records = ReadAll(log, wire::kBankedTopic);
  Write("banked_replay_fuzz", "r1-created",
        EncodeSequence(Values(banked_records, wire::BankedStream("r1"))));
  Write("banked_replay_fuzz", "r2-spin",
        EncodeSequence(Values(banked_records, wire::BankedStream("r2"))));
  Write("banked_replay_fuzz", "b2-round",
        EncodeSequence(Values(banked_records, wire::BankedStream("b2"))));
}

// The journal: the session's first frames as bodies (framed again by the
// target), raw, over two segments, and with a damaged tail.
void JournalSeeds(const std::string& log_dir) {
  auto segments = eventlog::internal::ListSegments(log_dir);
  if (!segments.ok() || segments->empty()) std::abort();
  std::ifstream in(segments->front().path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)),
                          std::istreambuf_iterator<char>());
  std::vector<std::string> bodies;
  std::vector<std::string> frames;
  for (size_t pos = 0; pos + 8 <= bytes.size() && bodies.size() < 24;) {
    const uint32_t len = eventlog::internal::LoadU32(bytes.data() + pos);
    if (pos + 8 + len > bytes.size()) break;
    frames.push_back(bytes.substr(pos, 8 + len));
    bodies.push_back(bytes.substr(pos + 8, len));
    pos += 8 + len;
  }
  for (auto [name, control] :
       {std::pair{"bodies", 0}, std::pair{"two-segments", 2},
        std::pair{"damaged-tail", 4}}) {
    std::vector<std::string> seq = {std::string(1, static_cast<char>(control))};
    seq.insert(seq.end(), bodies.begin(), bodies.end());
    Write("journal_fuzz", name, EncodeSequence(seq));
  }
  std::vector<std::string> raw = {std::string(1, '\x01')};
  raw.insert(raw.end(), frames.begin(), frames.end());
  Write("journal_fuzz", "raw-frames", EncodeSequence(raw));
}

void TokenSeeds() {
  std::array<unsigned char, auth::kSeedBytes> seed;
  seed.fill(0x5a);  // token_fuzz's key
  absl::StatusOr<auth::SigningKey> key = auth::SigningKey::FromSeed(seed);
  auth::Claims claims;
  claims.role = auth::Role::kPlayer;
  claims.subject = "player:ana";
  claims.issued_at_unix_seconds = 1'700'000'000 - 60;
  claims.expires_unix_seconds = 1'700'000'000 + 3'600;
  absl::StatusOr<std::string> token = auth::IssueToken(*key, claims);
  Write("token_fuzz", "valid-token", std::string(1, '\0') + *token);
  Write("token_fuzz", "valid-claims",
        "\x01sub=player:ana;aud=banca;iat=1699999940;exp=1700003600");
  Write("token_fuzz", "service-claims",
        "\x01sub=service:table;aud=banca;iat=1700000000;exp=1700086400");
  Write("token_fuzz", "old-format", std::string(1, '\0') + "v1.abc.def");

  std::string seed_hex = absl::BytesToHexString(
      std::string(reinterpret_cast<const char*>(seed.data()), seed.size()));
  Write("key_file_fuzz", "seed", seed_hex + "\n");
  Write("key_file_fuzz", "public-keys",
        "# rotation: the new key and the old one\n" +
            auth::PublicKeyLine(key->public_key()) + "\n\n" +
            "ed25519-public " + std::string(64, 'a') + "\n");
}

}  // namespace
}  // namespace banca::fuzz

int main(int argc, char** argv) {
  using namespace banca::fuzz;
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds OUT_DIR\n");
    return 2;
  }
  out_dir = argv[1];
  std::string dir = std::filesystem::temp_directory_path().string() +
                    "/banca-make-seeds-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) return 1;
  {
    ServiceHarness h(dir + "/data");
    PlaySession(h);
    h.Stop();
    LogSeeds(h.log());
    JournalSeeds(h.dir() + "/log");
  }
  TokenSeeds();
  std::filesystem::remove_all(dir);
  return 0;
}
