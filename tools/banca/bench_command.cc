// banca bench ledger|log|wallet|rebuild|eval|holdem: each prints one JSON
// object on stdout.
// Figures are measured on the machine that runs them; nothing is typed in.
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/cards/eval_bench.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/kafka_log.h"
#include "libs/eventlog/log_backend.h"
#include "libs/eventlog/log_bench.h"
#include "libs/games/poker/engine_bench.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "nlohmann/json.hpp"
#include "services/wallet/local_wallet_server.h"
#include "tools/banca/commands.h"
#include "tools/bench/holdem_bench.h"
#include "tools/bench/wallet_workload.h"

namespace banca::cli {
namespace {

using Json = nlohmann::ordered_json;

int Fail(const std::string& what) {
  std::fprintf(stderr, "banca bench: %s\n", what.c_str());
  return 1;
}

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
  std::printf("%s\n", out.dump().c_str());
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

// In-process ledger: transfers between players with a house/rake leg, so
// every transaction also touches the hot account.
struct LedgerRun {
  double postings_per_sec = 0;
  double transactions_per_sec = 0;
};

LedgerRun RunLedger(int threads, int players, absl::Duration duration,
                    int stripes) {
  ledger::Ledger ledger(ledger::LedgerOptions{"EUR", stripes});
  auto noop = [](const ledger::Committed&) {};
  for (int p = 0; p < players; ++p) {
    const std::string id = absl::StrCat("p", p);
    (void)ledger.OpenAccount({}, id, "EUR", noop);
    v1::LedgerTransaction tx;
    tx.set_reason(v1::POSTING_REASON_DEPOSIT);
    tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_PAYMENT);
    tx.mutable_reference()->set_id("seed");
    auto* a = tx.add_postings();
    a->set_account("external/payments");
    a->set_amount_minor(-1'000'000'000);
    auto* b = tx.add_postings();
    b->set_account(ledger::PlayerCashAccount(id));
    b->set_amount_minor(1'000'000'000);
    (void)ledger.Post({}, ledger::PlayerOwner(id), tx, noop);
  }
  // Pre-built transactions, so the loop measures the ledger, not protobuf
  // construction.
  constexpr int kPrepared = 4096;
  std::vector<std::vector<std::pair<std::string, v1::LedgerTransaction>>>
      prepared(threads);
  for (int t = 0; t < threads; ++t) {
    std::mt19937_64 rng(t + 1);
    for (int i = 0; i < kPrepared; ++i) {
      const int from = static_cast<int>(rng() % players);
      const int to =
          (from + 1 + static_cast<int>(rng() % (players - 1))) % players;
      v1::LedgerTransaction tx;
      tx.set_reason(v1::POSTING_REASON_PAYOUT);
      tx.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
      tx.mutable_reference()->set_id(absl::StrCat("h", i));
      auto* a = tx.add_postings();
      a->set_account(ledger::PlayerCashAccount(absl::StrCat("p", from)));
      a->set_amount_minor(-10);
      auto* b = tx.add_postings();
      b->set_account(ledger::PlayerCashAccount(absl::StrCat("p", to)));
      b->set_amount_minor(9);
      auto* c = tx.add_postings();
      c->set_account("house/rake");
      c->set_amount_minor(1);
      prepared[t].emplace_back(ledger::PlayerOwner(absl::StrCat("p", from)),
                               std::move(tx));
    }
  }
  std::atomic<bool> stop{false};
  std::vector<int64_t> counts(threads, 0);
  std::vector<std::thread> workers;
  const absl::Time start = absl::Now();
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      int64_t n = 0;
      for (int i = 0; !stop.load(std::memory_order_relaxed); ++i) {
        const auto& [owner, tx] = prepared[t][i % kPrepared];
        if (ledger.Post({}, owner, tx, noop).ok()) ++n;
      }
      counts[t] = n;
    });
  }
  absl::SleepFor(duration);
  stop = true;
  for (auto& w : workers) w.join();
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  return {3.0 * total / seconds, total / seconds};
}

struct LedgerFlags {
  int threads = 2;
  int players = 10'000;
  int64_t seconds = 3;
};

int BenchLedger(const LedgerFlags& flags) {
  const absl::Duration duration = absl::Seconds(flags.seconds);
  const LedgerRun striped =
      RunLedger(flags.threads, flags.players, duration, 16);
  const LedgerRun single = RunLedger(flags.threads, flags.players, duration, 1);
  Json out;
  out["bench"] = "ledger";
  out["threads"] = flags.threads;
  out["players"] = flags.players;
  out["postings_per_transaction"] = 3;
  out["postings_per_sec"] = Whole(striped.postings_per_sec);
  out["transactions_per_sec"] = Whole(striped.transactions_per_sec);
  out["hot_stripes"] = 16;
  out["postings_per_sec_one_hot_stripe"] = Whole(single.postings_per_sec);
  out["target_postings_per_sec"] = 1'000'000;
  return Print(out, 0);
}

// Kafka's own producer benchmark on the same broker, record size and acks;
// returns its records/s from the summary line it prints last.
absl::StatusOr<double> RunKafkaProducerPerformance(
    const std::string& kafka_local, const std::string& bootstrap,
    const std::string& topic, int64_t records, size_t record_bytes) {
  const std::string command = absl::StrCat(
      kafka_local, " producer-perf --topic ", topic, " --num-records ", records,
      " --record-size ", record_bytes,
      " --throughput -1 --producer-props bootstrap.servers=", bootstrap,
      " acks=all enable.idempotence=true 2>&1");
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) return absl::InternalError("cannot run " + command);
  std::string last, line;
  char buf[1024];
  while (fgets(buf, sizeof(buf), out) != nullptr) {
    line = buf;
    if (line.find("records sent") != std::string::npos) last = line;
  }
  const int rc = pclose(out);
  // "50000 records sent, 123456.7 records/sec (23.55 MB/sec), ..."
  const size_t comma = last.find(", ");
  double per_sec = 0;
  if (rc != 0 || comma == std::string::npos ||
      !absl::SimpleAtod(
          last.substr(comma + 2, last.find(' ', comma + 2) - comma - 2),
          &per_sec)) {
    return absl::UnavailableError(
        absl::StrCat("ProducerPerformance failed (exit ", rc, "): ", line));
  }
  return per_sec;
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
  const std::string& spec = flags.log;
  const std::string bootstrap =
      spec.substr(8, spec.find('?') == std::string::npos ? std::string::npos
                                                         : spec.find('?') - 8);
  const std::string suffix =
      absl::StrCat(getpid(), "-", absl::ToUnixMicros(absl::Now()));
  options.topic = absl::StrCat("bench.banca.", suffix);
  absl::StatusOr<eventlog::KafkaLogOptions> kafka_options =
      eventlog::ParseKafkaSpec(spec);
  if (!kafka_options.ok()) return Fail(kafka_options.status().ToString());
  auto log = eventlog::OpenLogBackend(spec, "");
  if (!log.ok()) return Fail(log.status().ToString());
  auto ours = eventlog::RunLogBench(**log, options);
  if (!ours.ok()) return Fail(ours.status().ToString());
  // The tool's topic, created with the same partitions (the local broker
  // does not auto-create topics).
  const std::string tool_topic = absl::StrCat("bench.tool.", suffix);
  if (auto s = (*log)->EnsureTopic({tool_topic, options.partitions}); !s.ok()) {
    return Fail(s.ToString());
  }
  // --no-kafka-tool: only ours, for comparing banca's own settings (e.g.
  // ?producers=) run after run without the tool's minute of JVM.
  absl::StatusOr<double> theirs = 0.0;
  if (!flags.no_kafka_tool) {
    theirs =
        RunKafkaProducerPerformance(flags.kafka_local, bootstrap, tool_topic,
                                    options.events, options.value_bytes);
  }
  if (!theirs.ok()) return Fail(theirs.status().ToString());
  // Both sides: acks=all, idempotent, the same value size and partition
  // count. Ours runs every append in a transaction; the tool does not (it
  // has no atomic batches to keep), which the JSON says.
  Json out;
  out["bench"] = "log";
  out["backend"] = "kafka";
  out["acks"] = "all";
  out["idempotence"] = true;
  out["transactions"] = true;
  out["producers"] = kafka_options->producers;
  out["partitions"] = options.partitions;
  out["writers"] = options.writers;
  out["events"] = ours->events;
  out["value_bytes"] = options.value_bytes;
  out["events_per_sec"] = Whole(ours->events_per_sec);
  out["append_p50_ms"] = Fixed(ours->p50_ms, 3);
  out["append_p99_ms"] = Fixed(ours->p99_ms, 3);
  out["kafka_tool_events_per_sec"] = Whole(*theirs);
  out["kafka_tool_transactions"] = false;
  out["ratio"] = Fixed(*theirs > 0 ? ours->events_per_sec / *theirs : 0.0, 3);
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

struct WalletFlags {
  int clients = 64;
  int64_t operations = 60'000;
  int64_t rate = 5'000;
  int64_t paced_seconds = 6;
  std::string mix = "payments";
  std::string log = "embedded";
  std::string dir;
};

int BenchWallet(const WalletFlags& flags) {
  const int clients = flags.clients;
  const int64_t rate = flags.rate;
  const std::string dir = ScratchDir(flags.dir, "wallet");
  // --log=kafka://… measures the wallet end to end on a broker.
  const std::string& spec = flags.log;
  const bool on_kafka = spec != "embedded";
  // The bench is the back office, with a key of its own for the run.
  absl::StatusOr<auth::SigningKey> key = edge::EphemeralSigningKey();
  if (!key.ok()) return Fail(key.status().ToString());
  absl::StatusOr<edge::TokenForMethod> tokens =
      edge::BackOfficeTokens(*key, "bench");
  if (!tokens.ok()) return Fail(tokens.status().ToString());
  wallet::WalletOptions wallet_options;
  (void)wallet_options.verifier.Add(key->public_key());
  auto server = wallet::LocalWalletServer::Start(dir, wallet_options, spec);
  if (!server.ok()) return Fail(server.status().ToString());
  // A broker keeps its topics between runs: fresh request ids and players
  // every run, or the idempotency index would answer from the last one.
  const std::string run_suffix =
      on_kafka ? absl::StrCat("-", absl::ToUnixMicros(absl::Now())) : "";

  bench::WorkloadOptions closed;
  closed.target = (*server)->target();
  closed.tokens = *tokens;
  closed.players = 2'000;
  closed.concurrency = clients;
  closed.operations = flags.operations;
  closed.mix = bench::WorkloadMix::kPayments;
  closed.run_id = "bench" + run_suffix;
  const std::string& mix = flags.mix;
  if (mix == "reads") {
    closed.mix = bench::WorkloadMix::kReads;
  } else if (mix == "sessions") {
    closed.mix = bench::WorkloadMix::kSessions;
  } else if (mix != "payments") {
    return Fail("--mix must be payments, sessions or reads");
  }
  // Sessions need the scripted sync client; payments and reads run on the
  // asynchronous one, so the client spends little of the shared CPU.
  auto run = [](const bench::WorkloadOptions& o) {
    return o.mix == bench::WorkloadMix::kSessions
               ? bench::RunWalletWorkload(o)
               : bench::RunAsyncWalletWorkload(o);
  };
  const bench::WorkloadResult saturated = run(closed);

  bench::WorkloadOptions paced = closed;
  paced.rate_per_sec = rate;
  paced.operations = rate * flags.paced_seconds;
  paced.run_id = "paced" + run_suffix;
  const bench::WorkloadResult at_rate = run(paced);
  if (auto s = (*server)->Stop(); !s.ok()) return Fail(s.ToString());

  // Rebuild the wallet projection from offset 0 and time it.
  const std::string scratch = dir + "/rebuild";
  auto store = projection::ProjectionStore::Open(scratch);
  if (!store.ok()) return Fail(store.status().ToString());
  projection::WalletProjector projector;
  const absl::Time rebuild_start = absl::Now();
  auto rebuilt = projection::CatchUp((*server)->log(), **store, projector);
  if (!rebuilt.ok()) return Fail(rebuilt.status().ToString());
  const double rebuild_seconds =
      absl::ToDoubleSeconds(absl::Now() - rebuild_start);
  server->reset();
  store->reset();
  std::filesystem::remove_all(dir);

  Json out;
  out["bench"] = "wallet";
  out["transport"] = "grpc-loopback";
  out["log"] = on_kafka ? "kafka" : "embedded-durable";
  out["clients"] = clients;
  out["ops"] = saturated.ok + saturated.rejected + saturated.failed;
  out["ops_per_sec"] = Whole(saturated.ops_per_sec);
  out["p50_ms"] = Fixed(saturated.p50_ms, 3);
  out["p99_ms_saturated"] = Fixed(saturated.p99_ms, 3);
  out["errors"] = saturated.failed + at_rate.failed;
  out["paced_rate"] = rate;
  out["paced_ops_per_sec"] = Whole(at_rate.ops_per_sec);
  out["p50_ms_paced"] = Fixed(at_rate.p50_ms, 3);
  out["p99_ms"] = Fixed(at_rate.p99_ms, 3);
  out["rebuild_events"] = *rebuilt;
  out["rebuild_events_per_sec"] = Whole(*rebuilt / rebuild_seconds);
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
  const int64_t target = flags.events;
  const int players = flags.players;
  const std::string dir = ScratchDir(flags.dir, "rebuild");
  auto log = eventlog::OpenEmbeddedLog(dir + "/log");
  if (!log.ok()) return Fail(log.status().ToString());
  const std::string topic(wire::kWalletTopic);
  if (auto s = (*log)->EnsureTopic({topic, wire::kDefaultWalletPartitions});
      !s.ok()) {
    return Fail(s.ToString());
  }
  ledger::Ledger ledger;
  std::vector<eventlog::Record> pending;
  std::string last_hold;
  int64_t clock = 1'700'000'000'000'000;
  auto commit = [&](const ledger::Committed& c) {
    if (c.event.has_hold_placed()) last_hold = c.event.hold_placed().hold_id();
    wire::WalletEventContext context;
    context.occurred_at_micros = ++clock;
    context.correlation_id = c.event.request_id();
    pending.push_back(wire::EncodeWalletRecord(c, context));
  };
  auto flush = [&]() -> absl::Status {
    if (pending.empty()) return absl::OkStatus();
    auto appended = (*log)->Append(std::move(pending));
    pending.clear();
    return appended.status();
  };
  auto ref = [](v1::ReferenceKind kind, std::string id) {
    v1::Reference r;
    r.set_kind(kind);
    r.set_id(std::move(id));
    return r;
  };
  int64_t events = 0, n = 0;
  std::mt19937_64 rng(7);
  for (int p = 0; p < players && events < target; ++p, ++events) {
    (void)ledger.OpenAccount({absl::StrCat("o", p), "f"}, absl::StrCat("p", p),
                             "EUR", commit);
    if (pending.size() >= 4000) {
      if (auto s = flush(); !s.ok()) return Fail(s.ToString());
    }
  }
  while (events < target) {
    const std::string player = absl::StrCat("p", rng() % players);
    const std::string rid = absl::StrCat("r", ++n);
    v1::LedgerTransaction dep;
    dep.set_reason(v1::POSTING_REASON_DEPOSIT);
    *dep.mutable_reference() = ref(v1::REFERENCE_KIND_PAYMENT, rid);
    auto* a = dep.add_postings();
    a->set_account("external/payments");
    a->set_amount_minor(-10'000);
    auto* b = dep.add_postings();
    b->set_account(ledger::PlayerCashAccount(player));
    b->set_amount_minor(10'000);
    if (ledger.Post({rid, "f"}, ledger::PlayerOwner(player), dep, commit)
            .ok()) {
      ++events;
    }
    const v1::Reference table = ref(v1::REFERENCE_KIND_TABLE, "t1");
    if (ledger
            .PlaceHold({rid + "h", "f"}, player, 4'000,
                       v1::POSTING_REASON_BUY_IN, table, 0, commit)
            .ok()) {
      ++events;
    }
    if (!last_hold.empty() &&
        ledger
            .CaptureHold({rid + "c", "f"}, last_hold, 3'000,
                         absl::StrCat("table/t", n % 50, "/seat/", player),
                         v1::POSTING_REASON_BUY_IN, table, /*final=*/true,
                         commit)
            .ok()) {
      ++events;
    }
    last_hold.clear();
    if (pending.size() >= 4000) {
      if (auto s = flush(); !s.ok()) return Fail(s.ToString());
    }
  }
  if (auto s = flush(); !s.ok()) return Fail(s.ToString());

  auto store = projection::ProjectionStore::Open(dir + "/projection");
  if (!store.ok()) return Fail(store.status().ToString());
  projection::WalletProjector projector;
  const absl::Time start = absl::Now();
  auto rebuilt = projection::CatchUp(**log, **store, projector);
  if (!rebuilt.ok()) return Fail(rebuilt.status().ToString());
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  store->reset();
  log->reset();
  std::filesystem::remove_all(dir);
  Json out;
  out["bench"] = "rebuild";
  out["projection"] = "wallet";
  out["events"] = *rebuilt;
  out["seconds"] = Fixed(seconds, 3);
  out["events_per_sec"] = Whole(*rebuilt / seconds);
  out["target_events_per_sec"] = 500'000;
  return Print(out, 0);
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
  AddInt(*wallet, "--clients", flags->clients, "concurrent clients", 1, 1024);
  AddInt(*wallet, "--operations", flags->operations,
         "operations of the saturated run", 1);
  AddInt(*wallet, "--rate", flags->rate, "the paced run's operations/s", 1,
         kMaxRate);
  AddInt(*wallet, "--paced-seconds", flags->paced_seconds,
         "the paced run's length", 1, kMaxPacedSeconds);
  wallet->add_option("--mix", flags->mix, "the workload")
      ->check(CLI::IsMember({"payments", "sessions", "reads"}));
  wallet->add_option("--log", flags->log, kLogHelp);
  wallet->add_option("--dir", flags->dir, kDirHelp);
  OnParsed(*wallet, action, [flags] { return BenchWallet(*flags); });
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
  CLI::App* eval = bench->add_subcommand(
      "eval", "single-thread throughput of the hand evaluators");
  OnParsed(*eval, action, [] {
    std::printf("%s\n", cards::RunEvalBench().c_str());
    return 0;
  });
  AddHoldemBench(*bench, action);
  AddBenchRtpCommand(*bench, action);
}

}  // namespace banca::cli
