// Issue 21, item 4's observability: every service's Prometheus metrics
// scraped over HTTP on 127.0.0.1 from a server hosting them all, before
// and after the game bots played every game (the table host's, the
// tournaments', the reporting projections', banca_build_info and the log's
// append errors); /metrics bound only to the address it is given; and
// `banca serve`'s log, every line one JSON object with a level and a time.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "libs/seal/deck_keys.h"
#include "nlohmann/json.hpp"
#include "services/common/authorized_channel.h"
#include "services/reporting/hosted_reporting.h"
#include "services/server/server.h"
#include "services/table/hosted_tables.h"
#include "services/tournament/hosted_tournaments.h"
#include "services/wallet/hosted_wallet.h"
#include "tests/integration/serve_child.h"
#include "tools/bench/game_bots.h"

namespace banca {
namespace {

// A port nobody listens on now (the kernel's pick, released).
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// GET /metrics from `ip`:`port`; nullopt when nothing answers there.
std::optional<std::string> Scrape(const std::string& ip, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  inet_pton(AF_INET, ip.c_str(), &addr.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return std::nullopt;
  }
  const std::string request =
      "GET /metrics HTTP/1.0\r\nHost: banca\r\nConnection: close\r\n\r\n";
  (void)!write(fd, request.data(), request.size());
  std::string response;
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (absl::Now() < deadline) {
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, 200) <= 0) continue;
    char buf[8192];
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    response.append(buf, n);
  }
  close(fd);
  const size_t body = response.find("\r\n\r\n");
  if (response.rfind("HTTP/1.", 0) != 0 || body == std::string::npos ||
      response.find(" 200 ") == std::string::npos) {
    return std::nullopt;
  }
  return response.substr(body + 4);
}

// The sum of the samples of `name` whose labels contain every one of
// `labels` (`key="value"`); nullopt when there is none.
std::optional<double> Sample(const std::string& text, const std::string& name,
                             const std::vector<std::string>& labels = {}) {
  std::optional<double> sum;
  const std::vector<std::string> lines = absl::StrSplit(text, '\n');
  for (const std::string& line : lines) {
    if (line.empty() || line[0] == '#') continue;
    const size_t end = line.find_first_of("{ ");
    if (end == std::string::npos || line.substr(0, end) != name) continue;
    bool all = true;
    for (const std::string& l : labels) {
      all = all && line.find(l) != std::string::npos;
    }
    if (!all) continue;
    sum = sum.value_or(0) + std::stod(line.substr(line.rfind(' ') + 1));
  }
  return sum;
}

class MetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(
        ::testing::TempDir(), "/banca_metrics_",
        ::testing::UnitTest::GetInstance()->current_test_info()->name(), "_",
        getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    absl::StatusOr<auth::SigningKey> key = edge::EphemeralSigningKey();
    ASSERT_TRUE(key.ok()) << key.status();
    key_ = *key;
    config_.settings.data_dir = dir_;
    config_.grpc_address = "127.0.0.1";
    config_.grpc_port = 0;
    config_.metrics_port = FreePort();
    config_.metrics_address = "127.0.0.1";
  }
  void TearDown() override {
    Stop();
    std::filesystem::remove_all(dir_);
  }

  // Every service, as `banca serve --services=wallet,table,tournament,
  // reporting` hosts them.
  absl::Status Start(std::vector<edge::HostedServiceSpec> services) {
    server::ServerKeys keys;
    keys.keys.verifier.emplace();
    if (absl::Status s = keys.keys.verifier->Add(key_.public_key()); !s.ok()) {
      return s;
    }
    keys.keys.deck_keys =
        *seal::DeckKeys::FromKeyFileText(std::string(64, '7'));
    absl::StatusOr<std::unique_ptr<server::Server>> started =
        server::Server::Start(config_, keys, std::move(services));
    if (!started.ok()) return started.status();
    server_ = *std::move(started);
    return absl::OkStatus();
  }
  void Stop() {
    if (!server_) return;
    server_->Shutdown(absl::Seconds(1));
    EXPECT_TRUE(server_->Wait().ok());
    server_.reset();
  }

  static std::vector<edge::HostedServiceSpec> EveryService() {
    std::vector<edge::HostedServiceSpec> services = {wallet::HostedWallet()};
    for (edge::HostedServiceSpec& s : table::HostedTables()) {
      services.push_back(std::move(s));
    }
    services.push_back(tournament::HostedTournaments());
    services.push_back(reporting::HostedReporting());
    return services;
  }

  // One service that needs nothing but a verifier.
  static std::vector<edge::HostedServiceSpec> Reporting() {
    return {reporting::HostedReporting()};
  }

  std::string Metrics() {
    std::optional<std::string> text = Scrape("127.0.0.1", config_.metrics_port);
    EXPECT_TRUE(text.has_value())
        << "no /metrics on 127.0.0.1:" << config_.metrics_port;
    return text.value_or("");
  }

  std::string dir_;
  auth::SigningKey key_;
  server::ServerConfig config_;
  std::unique_ptr<server::Server> server_;
};

TEST_F(MetricsTest, EveryServiceExportsMetricsThatMoveWithPlay) {
  ASSERT_TRUE(Start(EveryService()).ok());
  const std::string before = Metrics();
  // Which build serves, and every service's append errors, from the start.
  EXPECT_EQ(
      Sample(before, "banca_build_info",
             {absl::StrCat("version=\"", BANCA_VERSION, "\""), "commit=\""}),
      1);
  for (const char* service :
       {"wallet", "table", "banked_tables", "tournament", "reporting"}) {
    EXPECT_EQ(Sample(before, "banca_log_append_errors_total",
                     {absl::StrCat("service=\"", service, "\"")}),
              0)
        << service;
  }
  for (const char* kind : {"failed", "timed_out"}) {
    for (const char* service : {"table", "tournament"}) {
      EXPECT_EQ(Sample(before, "banca_saga_failures_total",
                       {absl::StrCat("service=\"", service, "\""),
                        absl::StrCat("kind=\"", kind, "\"")}),
                0)
          << service << " " << kind;
    }
  }
  for (const char* game : {"poker", "banked", "tournament"}) {
    EXPECT_EQ(Sample(before, "banca_table_host_tables_open",
                     {absl::StrCat("game=\"", game, "\"")}),
              0)
        << game;
  }
  EXPECT_EQ(
      Sample(before, "banca_tournament_tournaments", {"phase=\"registering\""}),
      0);
  const double applied_before =
      Sample(before, "banca_reporting_records_applied_total").value_or(-1);
  EXPECT_GE(applied_before, 0);

  bench::GameBotsOptions o;
  o.target = absl::StrCat("127.0.0.1:", server_->port());
  o.key = key_;
  o.run_id = "m1";
  o.play_for = absl::Seconds(2);
  o.players = 2;
  o.sit_and_go_players = 3;
  absl::StatusOr<bench::GameBotsResult> played = bench::RunGameBots(o);
  ASSERT_TRUE(played.ok()) << played.status();
  // The tournaments' gauges are taken once a second, the lag too.
  absl::SleepFor(absl::Milliseconds(2500));

  const std::string after = Metrics();
  for (const char* game : {"poker", "banked", "tournament"}) {
    SCOPED_TRACE(game);
    const std::string g = absl::StrCat("game=\"", game, "\"");
    EXPECT_GE(Sample(after, "banca_table_host_tables_open", {g}), 1);
    EXPECT_GT(Sample(after, "banca_table_host_rounds_finished_total", {g}), 0);
    EXPECT_GT(
        Sample(after, "banca_table_host_decisions_total", {g, "result=\"ok\""}),
        0);
    EXPECT_GT(Sample(after, "banca_table_host_saga_outcomes_total",
                     {g, "outcome=\"completed\""}),
              0);
    EXPECT_GT(
        Sample(after, "banca_table_host_answer_duration_seconds_count", {g}),
        0);
  }
  // The bots' sit and go ran to its end.
  EXPECT_EQ(
      Sample(after, "banca_tournament_tournaments", {"phase=\"finished\""}), 1);
  EXPECT_EQ(Sample(after, "banca_tournament_entries"), 3);
  EXPECT_GT(Sample(after, "banca_tournament_prizes_paid_minor"), 0);
  // The reporting projections applied the play, caught up.
  EXPECT_GT(Sample(after, "banca_reporting_records_applied_total"),
            applied_before);
  EXPECT_GT(Sample(after, "banca_reporting_last_applied_timestamp_seconds"),
            absl::ToUnixSeconds(absl::Now()) - 60);
  EXPECT_EQ(Sample(after, "banca_reporting_records_refused_total"), 0);
  EXPECT_EQ(Sample(after, "banca_reporting_lag_records",
                   {"topic=\"banca.wallet.events\""}),
            0);
  EXPECT_EQ(Sample(after, "banca_reporting_lag_records"), 0);
  EXPECT_EQ(Sample(after, "banca_log_append_errors_total"), 0);
  // The wallet's, as before.
  EXPECT_EQ(Sample(after, "banca_wallet_ledger_sum_minor"), 0);
}

// --metrics-address: /metrics answers on the address it is given and on
// no other (127.0.0.2 is the same machine's loopback, another address);
// by default every interface, 127.0.0.2 included.
TEST_F(MetricsTest, MetricsBindOnlyToTheirAddress) {
  ASSERT_TRUE(Start(Reporting()).ok());
  EXPECT_TRUE(Scrape("127.0.0.1", config_.metrics_port).has_value());
  EXPECT_FALSE(Scrape("127.0.0.2", config_.metrics_port).has_value());
  Stop();
  config_.metrics_address = "0.0.0.0";
  config_.metrics_port = FreePort();
  ASSERT_TRUE(Start(Reporting()).ok());
  EXPECT_TRUE(Scrape("127.0.0.2", config_.metrics_port).has_value());
}

// An address /metrics cannot bind is a start error naming it, not a
// crash.
TEST_F(MetricsTest, AnAddressThatCannotBeBoundIsAStartError) {
  config_.metrics_address = "192.0.2.1";  // TEST-NET-1: not this machine's
  const absl::Status s = Start(Reporting());
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("cannot serve /metrics on 192.0.2.1:"),
            std::string::npos)
      << s;
}

// Every line `banca serve` writes (its log on stderr, its "serving" and
// "stopped" on stdout) is one JSON object with a level and an RFC 3339
// UTC time; --log-level drops what is below it; its /metrics binds where
// --metrics-address says.
TEST_F(MetricsTest, ServeLogsOneJsonObjectPerLine) {
  for (const std::string level : {"info", "error"}) {
    SCOPED_TRACE(level);
    const std::string dir = absl::StrCat(dir_, "/", level);
    std::filesystem::create_directories(dir);
    const int metrics_port = FreePort();
    testing::ServeChild child = testing::StartServeChild(
        dir, {"--services=wallet,table", "--log-level=" + level,
              "--metrics-address=127.0.0.1",
              absl::StrCat("--metrics-port=", metrics_port)});
    ASSERT_GT(child.port, 0);
    const std::optional<std::string> metrics =
        Scrape("127.0.0.1", metrics_port);
    ASSERT_TRUE(metrics.has_value());
    EXPECT_EQ(Sample(*metrics, "banca_build_info"), 1);
    EXPECT_FALSE(Scrape("127.0.0.2", metrics_port).has_value());
    kill(child.pid, SIGTERM);
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = read(child.stdout_fd, buf, sizeof(buf))) > 0)
      out.append(buf, n);
    int status = 0;
    waitpid(child.pid, &status, 0);
    close(child.stdout_fd);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    std::ifstream err_file(dir + "/serve.stderr");
    const std::string err((std::istreambuf_iterator<char>(err_file)),
                          std::istreambuf_iterator<char>());
    std::vector<nlohmann::json> lines;
    for (const std::string& text : {out, err}) {
      const std::vector<std::string> split =
          absl::StrSplit(text, '\n', absl::SkipEmpty());
      for (const std::string& line : split) {
        ASSERT_TRUE(nlohmann::json::accept(line)) << line;
        lines.push_back(nlohmann::json::parse(line));
      }
    }
    static const std::regex kRfc3339(
        R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)");
    std::map<std::string, std::string> level_of;  // by msg
    for (const nlohmann::json& j : lines) {
      ASSERT_TRUE(j.is_object()) << j;
      ASSERT_TRUE(j.contains("level") && j["level"].is_string()) << j;
      ASSERT_TRUE(j.contains("time") && j["time"].is_string()) << j;
      EXPECT_TRUE(std::regex_match(j["time"].get<std::string>(), kRfc3339))
          << j;
      ASSERT_TRUE(j.contains("msg")) << j;
      const std::string msg = j["msg"];
      level_of[msg.substr(0, msg.find(' '))] = j["level"];
    }
    EXPECT_EQ(level_of["stopped"], "info");
    // The deck key made at start is an info line: kept at info only.
    if (level == "info") {
      EXPECT_EQ(level_of["made"], "info");
    } else {
      EXPECT_FALSE(level_of.contains("made"));
    }
  }
}

}  // namespace
}  // namespace banca
