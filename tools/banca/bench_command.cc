// banca bench
// ledger|log|wallet|rebuild|startup|reporting|eval|holdem|tournament: each
// prints one JSON object on stdout. Figures are measured on the machine that
// runs them; nothing is typed in.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "libs/cards/eval_bench.h"
#include "libs/common/json_text.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/log_bench.h"
#include "libs/games/poker/engine_bench.h"
#include "nlohmann/json.hpp"
#include "services/wallet/transfer_batch.h"
#include "tools/banca/commands.h"
#include "tools/bench/holdem_bench.h"
#include "tools/bench/kafka_log_bench.h"
#include "tools/bench/ledger_bench.h"
#include "tools/bench/rebuild_bench.h"
#include "tools/bench/reporting_bench.h"
#include "tools/bench/startup_bench.h"
#include "tools/bench/tournament_bench.h"
#include "tools/bench/wallet_bench.h"

namespace banca::cli {
namespace {

using Json = nlohmann::ordered_json;

int Fail(const std::string& what) { return Complain("banca bench", what, 1); }

// A measured rate printed whole, as "%.0f" printed it (null if not finite).
Json Whole(double v) {
  return std::isfinite(v) ? Json(std::llround(v)) : Json(nullptr);
}

// A measurement rounded to `places` decimals, as "%.<places>f" printed it.
Json Fixed(double v, int places) {
  if (!std::isfinite(v)) return nullptr;
  const double scale = std::pow(10.0, places);
  return std::round(v * scale) / scale;
}

// Prints a bench's one JSON object and returns `status`.
int Print(const Json& out, int status) {
  std::printf("%s\n", JsonText(out).c_str());
  return status;
}

// --dir, or a fresh directory of this process under the system's temporary
// directory; emptied either way.
std::string ScratchDir(const std::string& flag, const std::string& name) {
  std::string dir =
      !flag.empty()
          ? flag
          : absl::StrCat(std::filesystem::temp_directory_path().string(),
                         "/banca-bench-", name, "-", getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

struct LedgerFlags {
  int threads = 2;
  int players = 10'000;
  int64_t seconds = 3;
};

int BenchLedger(const LedgerFlags& flags) {
  bench::LedgerBenchOptions options;
  options.threads = flags.threads;
  options.players = flags.players;
  options.duration = absl::Seconds(flags.seconds);
  const bench::LedgerBenchResult striped = bench::RunLedgerBench(options);
  const int stripes = options.stripes;
  options.stripes = 1;
  const bench::LedgerBenchResult single = bench::RunLedgerBench(options);
  Json out;
  out["bench"] = "ledger";
  out["threads"] = flags.threads;
  out["players"] = flags.players;
  out["postings_per_transaction"] = bench::kLedgerBenchPostings;
  out["postings_per_sec"] = Whole(striped.postings_per_sec);
  out["transactions_per_sec"] = Whole(striped.transactions_per_sec);
  out["hot_stripes"] = stripes;
  out["postings_per_sec_one_hot_stripe"] = Whole(single.postings_per_sec);
  out["target_postings_per_sec"] = 1'000'000;
  return Print(out, 0);
}

struct LogBenchFlags {
  int writers = 16;
  int64_t events = 200'000;
  int64_t value_bytes = 200;
  int partitions = 8;
  bool no_fsync = false;
  int in_flight = 64;
  std::string log = "embedded";
  std::string dir;
  std::string kafka_local = "tools/kafka-local";
  bool no_kafka_tool = false;
};

int BenchKafkaLog(const LogBenchFlags& flags,
                  eventlog::LogBenchOptions options) {
  bench::KafkaLogBenchOptions kafka;
  kafka.spec = flags.log;
  kafka.log = std::move(options);
  kafka.kafka_local = flags.kafka_local;
  kafka.run_tool = !flags.no_kafka_tool;
  absl::StatusOr<bench::KafkaLogBenchResult> r = bench::RunKafkaLogBench(kafka);
  if (!r.ok()) return Fail(r.status().ToString());
  const eventlog::LogBenchResult& ours = r->ours;
  const double theirs = r->tool_events_per_sec;
  // Both sides: acks=all, idempotent, the same value size and partition
  // count. Ours runs every append in a transaction; the tool does not (it
  // has no atomic batches to keep), which the JSON says.
  Json out;
  out["bench"] = "log";
  out["backend"] = "kafka";
  out["acks"] = "all";
  out["idempotence"] = true;
  out["transactions"] = true;
  out["producers"] = r->producers;
  out["partitions"] = kafka.log.partitions;
  out["writers"] = kafka.log.writers;
  out["events"] = ours.events;
  out["value_bytes"] = kafka.log.value_bytes;
  out["events_per_sec"] = Whole(ours.events_per_sec);
  out["append_p50_ms"] = Fixed(ours.p50_ms, 3);
  out["append_p99_ms"] = Fixed(ours.p99_ms, 3);
  out["kafka_tool_events_per_sec"] = Whole(theirs);
  out["kafka_tool_transactions"] = false;
  out["ratio"] = Fixed(theirs > 0 ? ours.events_per_sec / theirs : 0.0, 3);
  out["target_ratio"] = 0.7;
  return Print(out, 0);
}

int BenchLog(const LogBenchFlags& flags) {
  eventlog::LogBenchOptions options;
  options.writers = flags.writers;
  options.events = flags.events;
  options.value_bytes = static_cast<size_t>(flags.value_bytes);
  options.partitions = flags.partitions;
  options.fsync = !flags.no_fsync;
  options.in_flight_per_writer = flags.in_flight;
  const std::string& spec = flags.log;
  if (absl::StartsWith(spec, "kafka://")) return BenchKafkaLog(flags, options);
  if (spec != "embedded") {
    return Fail("--log must be embedded or kafka://HOST:PORT");
  }
  const std::string dir = ScratchDir(flags.dir, "log");
  eventlog::EmbeddedLogOptions log_options;
  log_options.fsync = options.fsync;
  auto log = eventlog::OpenEmbeddedLog(dir, log_options);
  if (!log.ok()) return Fail(log.status().ToString());
  auto append = eventlog::RunLogBench(**log, options);
  if (!append.ok()) return Fail(append.status().ToString());
  auto read = eventlog::RunReadBench(**log, options);
  if (!read.ok()) return Fail(read.status().ToString());
  log->reset();
  std::filesystem::remove_all(dir);
  Json out;
  out["bench"] = "log";
  out["backend"] = "embedded";
  out["durable"] = options.fsync;
  out["writers"] = options.writers;
  out["events"] = append->events;
  out["value_bytes"] = options.value_bytes;
  out["events_per_sec"] = Whole(append->events_per_sec);
  out["append_p50_ms"] = Fixed(append->p50_ms, 3);
  out["append_p99_ms"] = Fixed(append->p99_ms, 3);
  out["mb_per_sec"] = Fixed(append->mb_per_sec, 1);
  out["read_events_per_sec"] = Whole(read->events_per_sec);
  out["target_events_per_sec"] = 200'000;
  return Print(out, 0);
}

// The batch mix's defaults: batches in flight at once (one being decided
// while others wait for their sync), and transfers in all.
constexpr int kBatchesInFlight = 4;
constexpr int64_t kBatchTransfers = 1'000'000;

struct WalletFlags {
  int clients = 64;
  int64_t operations = 60'000;
  int64_t rate = 5'000;
  int64_t paced_seconds = 6;
  std::string mix = "payments";
  std::string log = "embedded";
  std::string dir;
  int batch_size = 8'190;
  // Whether --clients and --operations were given (the batch mix has its
  // own defaults).
  bool clients_given = false;
  bool operations_given = false;
};

// The batch mix's report: transfers, not calls, and latency per batch.
int PrintBatchBench(const bench::WalletBenchOptions& options,
                    const bench::WalletBenchResult& r) {
  const bench::WorkloadResult& run = r.saturated;
  Json out;
  out["bench"] = "wallet";
  out["mix"] = "batch";
  out["transport"] = "grpc-loopback";
  out["log"] = options.log != "embedded" ? "kafka" : "embedded-durable";
  out["batch_size"] = options.batch_size;
  out["batches_in_flight"] = options.clients;
  out["batches"] = run.ok + run.rejected + run.failed;
  out["transfers"] = run.transfers;
  out["transfers_rejected"] = run.transfers_rejected;
  out["transfers_per_sec"] = Whole(run.transfers_per_sec);
  out["batch_p50_ms"] = Fixed(run.p50_ms, 3);
  out["batch_p99_ms"] = Fixed(run.p99_ms, 3);
  out["batch_max_ms"] = Fixed(run.max_ms, 3);
  out["errors"] = run.failed;
  if (!run.first_error.empty()) out["first_error"] = run.first_error;
  out["rebuild_events"] = r.rebuild.events;
  out["rebuild_events_per_sec"] = Whole(r.rebuild.events / r.rebuild.seconds);
  out["target_transfers_per_sec"] = 100'000;
  out["target_batch_p99_ms"] = 20;
  return Print(out, run.failed == 0 && run.transfers_rejected == 0 ? 0 : 1);
}

int BenchWallet(const WalletFlags& flags) {
  bench::WalletBenchOptions options;
  options.dir = ScratchDir(flags.dir, "wallet");
  // --log=kafka://… measures the wallet end to end on a broker.
  options.log = flags.log;
  options.clients = flags.clients;
  options.operations = flags.operations;
  options.rate = flags.rate;
  options.paced_seconds = flags.paced_seconds;
  if (flags.mix == "reads") {
    options.mix = bench::WorkloadMix::kReads;
  } else if (flags.mix == "sessions") {
    options.mix = bench::WorkloadMix::kSessions;
  } else if (flags.mix == "batch") {
    options.mix = bench::WorkloadMix::kBatch;
    options.batch_size = flags.batch_size;
    if (!flags.clients_given) options.clients = kBatchesInFlight;
    if (!flags.operations_given) options.operations = kBatchTransfers;
  } else if (flags.mix != "payments") {
    return Fail("--mix must be payments, sessions, reads or batch");
  }
  absl::StatusOr<bench::WalletBenchResult> r = bench::RunWalletBench(options);
  if (!r.ok()) return Fail(r.status().ToString());
  std::filesystem::remove_all(options.dir);
  if (options.mix == bench::WorkloadMix::kBatch) {
    return PrintBatchBench(options, *r);
  }
  const bench::WorkloadResult& saturated = r->saturated;
  const bench::WorkloadResult& at_rate = r->paced;
  Json out;
  out["bench"] = "wallet";
  out["transport"] = "grpc-loopback";
  out["log"] = options.log != "embedded" ? "kafka" : "embedded-durable";
  out["clients"] = options.clients;
  out["ops"] = saturated.ok + saturated.rejected + saturated.failed;
  out["ops_per_sec"] = Whole(saturated.ops_per_sec);
  out["p50_ms"] = Fixed(saturated.p50_ms, 3);
  out["p99_ms_saturated"] = Fixed(saturated.p99_ms, 3);
  out["errors"] = saturated.failed + at_rate.failed;
  out["paced_rate"] = options.rate;
  out["paced_ops_per_sec"] = Whole(at_rate.ops_per_sec);
  out["p50_ms_paced"] = Fixed(at_rate.p50_ms, 3);
  out["p99_ms"] = Fixed(at_rate.p99_ms, 3);
  out["rebuild_events"] = r->rebuild.events;
  out["rebuild_events_per_sec"] = Whole(r->rebuild.events / r->rebuild.seconds);
  out["target_ops_per_sec"] = 20'000;
  out["target_p99_ms"] = 10;
  out["target_rebuild_events_per_sec"] = 500'000;
  return Print(out, saturated.failed + at_rate.failed == 0 ? 0 : 1);
}

// Fills an embedded log with wallet events decided by the real ledger
// (deposits, holds, captures to tables, rake, payouts, withdrawals), then
// times a rebuild of the wallet projection from offset 0.
struct RebuildFlags {
  int64_t events = 300'000;
  int players = 10'000;
  std::string dir;
};

int BenchRebuild(const RebuildFlags& flags) {
  bench::RebuildBenchOptions options;
  options.dir = ScratchDir(flags.dir, "rebuild");
  options.events = flags.events;
  options.players = flags.players;
  absl::StatusOr<bench::RebuildResult> r = bench::RunRebuildBench(options);
  if (!r.ok()) return Fail(r.status().ToString());
  std::filesystem::remove_all(options.dir);
  Json out;
  out["bench"] = "rebuild";
  out["projection"] = "wallet";
  out["events"] = r->events;
  out["seconds"] = Fixed(r->seconds, 3);
  out["events_per_sec"] = Whole(r->events / r->seconds);
  out["target_events_per_sec"] = 500'000;
  return Print(out, 0);
}

// A wallet started from a snapshot `--tail-events` before the end of a log
// of `--events`, beside one replaying the whole log
// (tools/bench/startup_bench.h).
struct StartupFlags {
  int64_t events = 1'000'000;
  int64_t tail_events = 10'000;
  int players = 10'000;
  std::string answers = "disk";
  std::string dir;
};

int BenchStartup(const StartupFlags& flags) {
  bench::StartupBenchOptions options;
  options.dir = ScratchDir(flags.dir, "startup");
  options.events = flags.events;
  options.tail_events = std::min(flags.tail_events, flags.events - 1);
  options.players = flags.players;
  options.answers_on_disk = flags.answers == "disk";
  absl::StatusOr<bench::StartupResult> r = bench::RunStartupBench(options);
  if (!r.ok()) return Fail(r.status().ToString());
  std::filesystem::remove_all(options.dir);
  Json out;
  out["bench"] = "startup";
  out["service"] = "wallet";
  out["answers"] = flags.answers;
  out["events"] = r->events;
  out["snapshot_events"] = r->snapshot_events;
  out["tail_events"] = r->tail_events;
  out["start_seconds"] = Fixed(r->start_seconds, 3);
  out["full_replay_events"] = r->full_replay_events;
  out["full_replay_start_seconds"] = Fixed(r->full_replay_start_seconds, 3);
  out["answered_requests"] = r->answered_requests;
  out["snapshot_bytes"] = r->snapshot_bytes;
  out["snapshot_pause_ms"] = Fixed(r->snapshot_pause_ms, 1);
  out["snapshot_write_seconds"] = Fixed(r->snapshot_write_seconds, 3);
  out["target_start_seconds"] = 2;
  return Print(out, 0);
}

// The reporting projections fed from a realistic wallet log on disk, then
// a player's last 10 games asked over gRPC (tools/bench/reporting_bench.h).
struct ReportingFlags {
  int64_t events = 10'000'000;
  int players = 100'000;
  int64_t seed = 1;
  int queries = 1'000;
  std::string data_dir;
};

int BenchReporting(const ReportingFlags& flags) {
  bench::ReportingBenchOptions options;
  // --data-dir is kept (its log is reused by a run with the same workload);
  // a scratch directory is removed.
  const bool scratch = flags.data_dir.empty();
  options.dir = scratch ? ScratchDir("", "reporting") : flags.data_dir;
  options.workload.events = flags.events;
  options.workload.players = flags.players;
  options.workload.seed = static_cast<uint64_t>(flags.seed);
  options.queries = flags.queries;
  absl::StatusOr<Json> r = bench::RunReportingBench(options);
  if (scratch) std::filesystem::remove_all(options.dir);
  if (!r.ok()) return Fail(r.status().ToString());
  return Print(*r, 0);
}

// Complete 6-max no-limit hands with random legal actions: in the engine
// alone on one core (CPU time), then through the table service over gRPC
// on the embedded log with `tables` tables played at once.
struct HoldemFlags {
  int tables = 100;
  int64_t seconds = 10;
  int64_t warmup_seconds = 2;
  int64_t engine_hands = 200'000;
  bool no_fsync = false;
  std::string api = "relay";
  std::string dir;
};

int BenchHoldem(const HoldemFlags& flags) {
  games::poker::EngineBenchOptions engine_options;
  engine_options.hands = flags.engine_hands;
  engine_options.players = 6;
  const games::poker::EngineBenchResult engine =
      games::poker::RunEngineBench(engine_options);
  if (engine.hands_per_sec < 0) return Fail("the engine failed a hand");

  bench::HoldemBenchOptions options;
  options.dir = ScratchDir(flags.dir, "holdem");
  options.tables = flags.tables;
  options.duration = absl::Seconds(flags.seconds);
  options.warmup = absl::Seconds(flags.warmup_seconds);
  options.fsync = !flags.no_fsync;
  const std::string& api = flags.api;
  if (api == "play") {
    options.api = bench::HoldemBenchOptions::Api::kPlay;
  } else if (api == "relay") {
    options.api = bench::HoldemBenchOptions::Api::kRelay;
  } else if (api == "act") {
    options.api = bench::HoldemBenchOptions::Api::kAct;
  } else if (api == "view-act") {
    options.api = bench::HoldemBenchOptions::Api::kViewAndAct;
  } else {
    return Fail("--api is play, relay, act or view-act");
  }
  absl::StatusOr<bench::HoldemBenchResult> service =
      bench::RunHoldemServiceBench(options);
  std::filesystem::remove_all(options.dir);
  if (!service.ok()) return Fail(service.status().ToString());
  Json out;
  out["bench"] = "holdem";
  out["engine_hands"] = engine.hands;
  out["engine_actions_per_hand"] =
      Fixed(engine.hands > 0 ? static_cast<double>(engine.actions) /
                                   static_cast<double>(engine.hands)
                             : 0.0,
            2);
  out["engine_hands_per_sec"] = Whole(engine.hands_per_sec);
  out["tables"] = options.tables;
  out["players_per_table"] = 6;
  out["transport"] = "grpc-loopback";
  out["log"] = options.fsync ? "embedded-durable" : "embedded-no-fsync";
  out["api"] = api;
  out["seconds"] = Fixed(service->seconds, 1);
  out["service_hands"] = service->hands;
  out["service_hands_per_sec"] = Whole(service->hands_per_sec);
  out["actions_per_sec"] = Whole(service->actions_per_sec);
  out["p50_action_ms"] = Fixed(service->p50_action_ms, 3);
  out["p99_action_ms"] = Fixed(service->p99_action_ms, 3);
  out["max_action_ms"] = Fixed(service->max_action_ms, 3);
  out["rejected"] = service->rejected;
  out["rebuys"] = service->rebuys;
  out["p50_rebuy_ms"] = Fixed(service->p50_rebuy_ms, 1);
  out["p99_rebuy_ms"] = Fixed(service->p99_rebuy_ms, 1);
  out["resits"] = service->resits;
  out["players_per_table_at_end"] = Fixed(service->players_per_table_at_end, 2);
  out["wallet_lag_records"] = service->wallet_lag_records;
  out["views"] = service->views;
  out["pauses"] = service->pauses;
  out["turns"] = service->turns;
  out["cpu_ms_per_hand"] = Fixed(service->cpu_ms_per_hand, 3);
  out["cores"] = std::thread::hardware_concurrency();
  out["setup_seconds"] = Fixed(service->setup_seconds, 1);
  out["target_engine_hands_per_sec"] = 200'000;
  out["target_service_hands_per_sec"] = 2'000;
  return Print(out, service->rejected == 0 ? 0 : 1);
}

// One multi-table tournament to a winner in process (the director and the
// poker engine, machine players), its money posted to a real ledger.
struct TournamentFlags {
  int entrants = 10'000;
  int seats = 9;
  int64_t seed = 1;
  bool rebuys = false;
  int64_t hands_per_level = 0;
  int all_in_percent = 0;
};

int BenchTournament(const TournamentFlags& flags) {
  bench::TournamentBenchOptions options;
  options.entrants = flags.entrants;
  options.seats = flags.seats;
  options.seed = static_cast<uint64_t>(flags.seed);
  options.rebuys = flags.rebuys;
  options.hands_per_level = flags.hands_per_level;
  options.all_in_percent = flags.all_in_percent;
  absl::StatusOr<bench::TournamentBenchResult> r =
      bench::RunTournamentBench(options);
  if (!r.ok()) return Fail(r.status().ToString());
  Json out;
  out["bench"] = "tournament";
  out["entrants"] = r->entrants;
  out["seats"] = options.seats;
  out["tables"] = r->tables;
  out["paid_places"] = r->paid_places;
  out["rebuys_allowed"] = options.rebuys;
  out["seed"] = flags.seed;
  out["all_in_percent"] = options.all_in_percent;
  out["finished"] = r->finished;
  out["hands"] = r->hands;
  out["hands_per_sec"] =
      Whole(static_cast<double>(r->hands) / r->seconds_to_finish);
  out["levels"] = r->levels + 1;
  out["rebuys"] = r->rebuys;
  out["addons"] = r->addons;
  out["balancing_moves"] = r->balancing_moves;
  out["seconds_to_finish"] = Fixed(r->seconds_to_finish, 2);
  out["cpu_seconds"] = Fixed(r->cpu_seconds, 2);
  out["setup_seconds"] = Fixed(r->setup_seconds, 2);
  out["peak_rss_mb"] = Fixed(r->peak_rss_mb, 1);
  out["ledger_transactions"] = r->ledger_transactions;
  out["prize_pool"] = r->prize_pool;
  out["prize_pool_left"] = r->prize_pool_left;
  out["ledger_sum"] = r->ledger_sum;
  out["target_hands_per_sec"] = 50'000;
  out["target_cpu_seconds"] = 60;
  out["target_peak_rss_mb"] = 1024;
  const bool ok = r->finished && r->ledger_sum == 0 && r->prize_pool_left == 0;
  return Print(out, ok ? 0 : 1);
}

constexpr int64_t kMaxRate = 10'000'000;
constexpr int64_t kMaxPacedSeconds = 86'400;

constexpr char kDirHelp[] =
    "scratch directory, emptied (default: a fresh one under the system's "
    "temporary directory)";
constexpr char kLogHelp[] = "embedded, or kafka://HOST:PORT[?options]";

void AddLedgerBench(CLI::App& bench, Action* action) {
  CLI::App* ledger = bench.add_subcommand(
      "ledger", "in-process ledger: transfers with a rake leg");
  auto flags = std::make_shared<LedgerFlags>();
  AddInt(*ledger, "--threads", flags->threads, "posting threads", 1, 64);
  AddInt(*ledger, "--players", flags->players, "player accounts", 2);
  AddInt(*ledger, "--seconds", flags->seconds, "each run's length", 1);
  OnParsed(*ledger, action, [flags] { return BenchLedger(*flags); });
}

void AddLogBench(CLI::App& bench, Action* action) {
  CLI::App* log = bench.add_subcommand(
      "log", "event log appends (and reads), durable group commit");
  auto flags = std::make_shared<LogBenchFlags>();
  AddInt(*log, "--writers", flags->writers, "concurrent writers", 1, 1024);
  AddInt(*log, "--events", flags->events, "events to append", 1);
  AddInt(*log, "--value-bytes", flags->value_bytes, "bytes per event", 0,
         static_cast<int64_t>(eventlog::kMaxRecordBytes / 2));
  AddInt(*log, "--partitions", flags->partitions, "the topic's partitions", 1);
  AddInt(*log, "--in-flight", flags->in_flight,
         "appends each writer keeps in flight", 1);
  AddSwitch(*log, "--no-fsync", flags->no_fsync,
            "embedded: skip fsync (to measure durability's cost)");
  log->add_option("--log", flags->log, kLogHelp);
  log->add_option("--dir", flags->dir, kDirHelp);
  log->add_option("--kafka-local", flags->kafka_local,
                  "Kafka: the script that runs the broker's "
                  "ProducerPerformance");
  AddSwitch(*log, "--no-kafka-tool", flags->no_kafka_tool,
            "Kafka: measure banca's producer only");
  OnParsed(*log, action, [flags] { return BenchLog(*flags); });
}

void AddWalletBench(CLI::App& bench, Action* action) {
  CLI::App* wallet = bench.add_subcommand(
      "wallet", "the wallet over gRPC: saturated, paced, then a rebuild");
  auto flags = std::make_shared<WalletFlags>();
  AddInt(*wallet, "--clients", flags->clients,
         "concurrent clients (--mix=batch: batches in flight, default 4)", 1,
         1024);
  AddInt(*wallet, "--operations", flags->operations,
         "operations of the saturated run (--mix=batch: transfers, default "
         "1,000,000)",
         1);
  AddInt(*wallet, "--rate", flags->rate, "the paced run's operations/s", 1,
         kMaxRate);
  AddInt(*wallet, "--paced-seconds", flags->paced_seconds,
         "the paced run's length", 1, kMaxPacedSeconds);
  wallet->add_option("--mix", flags->mix, "the workload")
      ->check(CLI::IsMember({"payments", "sessions", "reads", "batch"}));
  AddInt(*wallet, "--batch-size", flags->batch_size,
         "--mix=batch: transfers per TransferBatch call", 1,
         wallet::kMaxTransferBatchItems);
  wallet->add_option("--log", flags->log, kLogHelp);
  wallet->add_option("--dir", flags->dir, kDirHelp);
  CLI::Option* clients = wallet->get_option("--clients");
  CLI::Option* operations = wallet->get_option("--operations");
  OnParsed(*wallet, action, [flags, clients, operations] {
    flags->clients_given = clients->count() > 0;
    flags->operations_given = operations->count() > 0;
    return BenchWallet(*flags);
  });
}

void AddRebuildBench(CLI::App& bench, Action* action) {
  CLI::App* rebuild = bench.add_subcommand(
      "rebuild", "the wallet projection rebuilt from offset 0");
  auto flags = std::make_shared<RebuildFlags>();
  AddInt(*rebuild, "--events", flags->events, "wallet events to write", 1);
  AddInt(*rebuild, "--players", flags->players, "player accounts", 1);
  rebuild->add_option("--dir", flags->dir, kDirHelp);
  OnParsed(*rebuild, action, [flags] { return BenchRebuild(*flags); });
}

void AddStartupBench(CLI::App& bench, Action* action) {
  CLI::App* startup = bench.add_subcommand(
      "startup", "a wallet started from a snapshot and the log's tail");
  auto flags = std::make_shared<StartupFlags>();
  AddInt(*startup, "--events", flags->events, "wallet events in the log", 2);
  AddInt(*startup, "--tail-events", flags->tail_events,
         "events after the snapshot", 1);
  AddInt(*startup, "--players", flags->players, "player accounts", 1);
  startup
      ->add_option("--answers", flags->answers,
                   "where the wallet keeps answered requests: disk (its "
                   "answer store, as banca serve) or memory (in each snapshot)")
      ->check(CLI::IsMember({"disk", "memory"}));
  startup->add_option("--dir", flags->dir, kDirHelp);
  OnParsed(*startup, action, [flags] { return BenchStartup(*flags); });
}

void AddReportingBench(CLI::App& bench, Action* action) {
  CLI::App* reporting = bench.add_subcommand(
      "reporting",
      "the reporting projections: ingest from offset 0, then a player's "
      "last 10 games over gRPC");
  auto flags = std::make_shared<ReportingFlags>();
  AddInt(*reporting, "--events", flags->events, "wallet events to write", 1,
         bench::kMaxWorkloadEvents);
  AddInt(*reporting, "--players", flags->players, "players", 2,
         bench::kMaxWorkloadPlayers);
  AddInt(*reporting, "--seed", flags->seed,
         "the workload's generator (std::mt19937_64)", 0);
  AddInt(*reporting, "--queries", flags->queries,
         "last-10 calls measured (random players)", 1,
         bench::kMaxReportingQueries);
  reporting->add_option(
      "--data-dir", flags->data_dir,
      "kept: its log is reused by a run with the same --events, --players "
      "and --seed; the projection is made afresh (default: a scratch "
      "directory under the system's temporary directory, removed)");
  OnParsed(*reporting, action, [flags] { return BenchReporting(*flags); });
}

void AddHoldemBench(CLI::App& bench, Action* action) {
  CLI::App* holdem = bench.add_subcommand(
      "holdem", "6-max hold'em: the engine alone, then the table service");
  auto flags = std::make_shared<HoldemFlags>();
  AddInt(*holdem, "--tables", flags->tables, "tables played at once", 1, 1000);
  AddInt(*holdem, "--seconds", flags->seconds, "the measured window", 1);
  AddInt(*holdem, "--warmup-seconds", flags->warmup_seconds,
         "played before the window", 0);
  AddInt(*holdem, "--engine-hands", flags->engine_hands,
         "hands of the engine-only run", 1);
  AddSwitch(*holdem, "--no-fsync", flags->no_fsync,
            "skip the log's fsync (to measure durability's cost)");
  holdem->add_option("--api", flags->api, "how the bots talk to the tables")
      ->check(CLI::IsMember({"relay", "play", "act", "view-act"}));
  holdem->add_option("--dir", flags->dir, kDirHelp);
  OnParsed(*holdem, action, [flags] { return BenchHoldem(*flags); });
}

void AddTournamentBench(CLI::App& bench, Action* action) {
  CLI::App* tournament = bench.add_subcommand(
      "tournament",
      "a multi-table tournament to a winner: the director, machine players, "
      "the ledger");
  auto flags = std::make_shared<TournamentFlags>();
  AddInt(*tournament, "--entrants", flags->entrants, "players registered", 2,
         bench::kMaxBenchEntrants);
  AddInt(*tournament, "--seats", flags->seats, "seats a table", 2, 10);
  AddInt(*tournament, "--seed", flags->seed,
         "the machine players' generator (std::mt19937_64)", 0);
  AddSwitch(*tournament, "--rebuys", flags->rebuys,
            "rebuys in levels 1-4 and an add-on in level 4");
  AddInt(*tournament, "--hands-per-level", flags->hands_per_level,
         "hands (all tables) a level lasts; 0: ten a starting table", 0);
  AddInt(*tournament, "--all-in-percent", flags->all_in_percent,
         "the chance a machine player's decision is all in", 0, 100);
  OnParsed(*tournament, action, [flags] { return BenchTournament(*flags); });
}

}  // namespace

void AddBenchCommand(CLI::App& banca, Action* action) {
  CLI::App* bench = banca.add_subcommand(
      "bench", "benchmarks; each prints one JSON object (docs/performance.md)");
  bench->require_subcommand(1);
  bench->footer(
      "Figures are measured on the machine that runs them. Exit 0 measured, "
      "1 the run failed (or some calls did), 2 usage.");
  AddLedgerBench(*bench, action);
  AddLogBench(*bench, action);
  AddWalletBench(*bench, action);
  AddRebuildBench(*bench, action);
  AddStartupBench(*bench, action);
  AddReportingBench(*bench, action);
  CLI::App* eval = bench->add_subcommand(
      "eval", "single-thread throughput of the hand evaluators");
  OnParsed(*eval, action, [] {
    std::printf("%s\n", cards::RunEvalBench().c_str());
    return 0;
  });
  AddHoldemBench(*bench, action);
  AddTournamentBench(*bench, action);
  AddBenchRtpCommand(*bench, action);
}

}  // namespace banca::cli
