// banca bench ledger|log|wallet|rebuild|eval|holdem: each prints one JSON
// object on stdout.
// Figures are measured on the machine that runs them; nothing is typed in.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "libs/cards/eval_bench.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/kafka_log.h"
#include "libs/eventlog/log_bench.h"
#include "libs/games/poker/engine_bench.h"
#include "libs/ledger/account.h"
#include "libs/ledger/ledger.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/wallet_projection.h"
#include "libs/wire/topics.h"
#include "libs/wire/wallet_codec.h"
#include "tools/banca/commands.h"
#include "tools/banca/flags.h"
#include "tools/banca/holdem_bench.h"
#include "tools/banca/log_backend.h"
#include "tools/banca/wallet_server.h"
#include "tools/banca/wallet_workload.h"

namespace banca::cli {
namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "banca bench: %s\n", what.c_str());
  return 1;
}

std::string ScratchDir(const Flags& flags, const std::string& name) {
  std::string dir = flags.Get(
      "dir", absl::StrCat(std::filesystem::temp_directory_path().string(),
                          "/banca-bench-", name, "-", getpid()));
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

int BenchLedger(const Flags& flags) {
  const int threads = static_cast<int>(flags.GetInt("threads", 2).value_or(2));
  const int players =
      static_cast<int>(flags.GetInt("players", 10'000).value_or(10'000));
  const absl::Duration duration =
      absl::Seconds(flags.GetInt("seconds", 3).value_or(3));
  if (threads < 1 || threads > 64 || players < 2) {
    return Fail("--threads must be 1..64 and --players at least 2");
  }
  const LedgerRun striped = RunLedger(threads, players, duration, 16);
  const LedgerRun single = RunLedger(threads, players, duration, 1);
  std::printf(
      "{\"bench\":\"ledger\",\"threads\":%d,\"players\":%d,"
      "\"postings_per_transaction\":3,\"postings_per_sec\":%.0f,"
      "\"transactions_per_sec\":%.0f,\"hot_stripes\":16,"
      "\"postings_per_sec_one_hot_stripe\":%.0f,\"target_postings_per_sec\":"
      "1000000}\n",
      threads, players, striped.postings_per_sec, striped.transactions_per_sec,
      single.postings_per_sec);
  return 0;
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

int BenchKafkaLog(const Flags& flags, eventlog::LogBenchOptions options) {
  const std::string spec = flags.Get("log", "");
  const std::string bootstrap =
      spec.substr(8, spec.find('?') == std::string::npos ? std::string::npos
                                                         : spec.find('?') - 8);
  const std::string suffix =
      absl::StrCat(getpid(), "-", absl::ToUnixMicros(absl::Now()));
  options.topic = absl::StrCat("bench.banca.", suffix);
  absl::StatusOr<eventlog::KafkaLogOptions> kafka_options =
      eventlog::ParseKafkaSpec(spec);
  if (!kafka_options.ok()) return Fail(kafka_options.status().ToString());
  auto log = OpenLogBackend(spec, "");
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
  if (!flags.GetBool("no-kafka-tool")) {
    theirs = RunKafkaProducerPerformance(
        flags.Get("kafka-local", "tools/kafka-local"), bootstrap, tool_topic,
        options.events, options.value_bytes);
  }
  if (!theirs.ok()) return Fail(theirs.status().ToString());
  // Both sides: acks=all, idempotent, the same value size and partition
  // count. Ours runs every append in a transaction; the tool does not (it
  // has no atomic batches to keep), which the JSON says.
  std::printf(
      "{\"bench\":\"log\",\"backend\":\"kafka\",\"acks\":\"all\","
      "\"idempotence\":true,\"transactions\":true,\"producers\":%d,"
      "\"partitions\":%d,\"writers\":%d,\"events\":%lld,"
      "\"value_bytes\":%zu,\"events_per_sec\":%.0f,\"append_p50_ms\":%.3f,"
      "\"append_p99_ms\":%.3f,\"kafka_tool_events_per_sec\":%.0f,"
      "\"kafka_tool_transactions\":false,\"ratio\":%.3f,"
      "\"target_ratio\":0.7}\n",
      kafka_options->producers, options.partitions, options.writers,
      static_cast<long long>(ours->events), options.value_bytes,
      ours->events_per_sec, ours->p50_ms, ours->p99_ms, *theirs,
      *theirs > 0 ? ours->events_per_sec / *theirs : 0.0);
  return 0;
}

int BenchLog(const Flags& flags) {
  eventlog::LogBenchOptions options;
  options.writers = static_cast<int>(flags.GetInt("writers", 16).value_or(16));
  options.events = flags.GetInt("events", 200'000).value_or(200'000);
  options.value_bytes =
      static_cast<size_t>(flags.GetInt("value-bytes", 200).value_or(200));
  options.partitions =
      static_cast<int>(flags.GetInt("partitions", 8).value_or(8));
  options.fsync = !flags.GetBool("no-fsync");
  options.in_flight_per_writer =
      static_cast<int>(flags.GetInt("in-flight", 64).value_or(64));
  if (options.writers < 1 || options.writers > 1024 || options.events < 1 ||
      options.value_bytes > eventlog::kMaxRecordBytes / 2) {
    return Fail("--writers 1..1024, --events ≥ 1, --value-bytes ≤ 512 KiB");
  }
  const std::string spec = flags.Get("log", "embedded");
  if (absl::StartsWith(spec, "kafka://")) return BenchKafkaLog(flags, options);
  if (spec != "embedded") {
    return Fail("--log must be embedded or kafka://HOST:PORT");
  }
  const std::string dir = ScratchDir(flags, "log");
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
  std::printf(
      "{\"bench\":\"log\",\"backend\":\"embedded\",\"durable\":%s,"
      "\"writers\":%d,\"events\":%lld,\"value_bytes\":%zu,"
      "\"events_per_sec\":%.0f,\"append_p50_ms\":%.3f,\"append_p99_ms\":%.3f,"
      "\"mb_per_sec\":%.1f,\"read_events_per_sec\":%.0f,"
      "\"target_events_per_sec\":200000}\n",
      options.fsync ? "true" : "false", options.writers,
      static_cast<long long>(append->events), options.value_bytes,
      append->events_per_sec, append->p50_ms, append->p99_ms,
      append->mb_per_sec, read->events_per_sec);
  return 0;
}

int BenchWallet(const Flags& flags) {
  const int clients =
      static_cast<int>(flags.GetInt("clients", 64).value_or(64));
  const int64_t operations =
      flags.GetInt("operations", 60'000).value_or(60'000);
  const int64_t rate = flags.GetInt("rate", 5'000).value_or(5'000);
  const int64_t paced_seconds = flags.GetInt("paced-seconds", 6).value_or(6);
  if (clients < 1 || clients > 1024 || operations < 1 || rate < 1) {
    return Fail("--clients 1..1024, --operations ≥ 1, --rate ≥ 1");
  }
  const std::string dir = ScratchDir(flags, "wallet");
  // --log=kafka://… measures the wallet end to end on a broker.
  const std::string spec = flags.Get("log", "embedded");
  const bool on_kafka = spec != "embedded";
  // The bench is the back office, with a key of its own for the run.
  absl::StatusOr<auth::SigningKey> key = EphemeralSigningKey();
  if (!key.ok()) return Fail(key.status().ToString());
  absl::StatusOr<TokenForMethod> tokens = BackOfficeTokens(*key, "bench");
  if (!tokens.ok()) return Fail(tokens.status().ToString());
  wallet::WalletOptions wallet_options;
  (void)wallet_options.verifier.Add(key->public_key());
  auto server = LocalWalletServer::Start(dir, wallet_options, spec);
  if (!server.ok()) return Fail(server.status().ToString());
  // A broker keeps its topics between runs: fresh request ids and players
  // every run, or the idempotency index would answer from the last one.
  const std::string run_suffix =
      on_kafka ? absl::StrCat("-", absl::ToUnixMicros(absl::Now())) : "";

  WorkloadOptions closed;
  closed.target = (*server)->target();
  closed.tokens = *tokens;
  closed.players = 2'000;
  closed.concurrency = clients;
  closed.operations = operations;
  closed.mix = WorkloadMix::kPayments;
  closed.run_id = "bench" + run_suffix;
  const std::string mix = flags.Get("mix", "payments");
  if (mix == "reads") {
    closed.mix = WorkloadMix::kReads;
  } else if (mix == "sessions") {
    closed.mix = WorkloadMix::kSessions;
  } else if (mix != "payments") {
    return Fail("--mix must be payments, sessions or reads");
  }
  // Sessions need the scripted sync client; payments and reads run on the
  // asynchronous one, so the client spends little of the shared CPU.
  auto run = [](const WorkloadOptions& o) {
    return o.mix == WorkloadMix::kSessions ? RunWalletWorkload(o)
                                           : RunAsyncWalletWorkload(o);
  };
  const WorkloadResult saturated = run(closed);

  WorkloadOptions paced = closed;
  paced.rate_per_sec = rate;
  paced.operations = rate * paced_seconds;
  paced.run_id = "paced" + run_suffix;
  const WorkloadResult at_rate = run(paced);
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

  std::printf(
      "{\"bench\":\"wallet\",\"transport\":\"grpc-loopback\",\"log\":"
      "\"%s\",\"clients\":%d,\"ops\":%lld,\"ops_per_sec\":%.0f,"
      "\"p50_ms\":%.3f,\"p99_ms_saturated\":%.3f,\"errors\":%lld,"
      "\"paced_rate\":%lld,\"paced_ops_per_sec\":%.0f,\"p50_ms_paced\":%.3f,"
      "\"p99_ms\":%.3f,\"rebuild_events\":%lld,\"rebuild_events_per_sec\":%.0f,"
      "\"target_ops_per_sec\":20000,\"target_p99_ms\":10,"
      "\"target_rebuild_events_per_sec\":500000}\n",
      on_kafka ? "kafka" : "embedded-durable", clients,
      static_cast<long long>(saturated.ok + saturated.rejected +
                             saturated.failed),
      saturated.ops_per_sec, saturated.p50_ms, saturated.p99_ms,
      static_cast<long long>(saturated.failed + at_rate.failed),
      static_cast<long long>(rate), at_rate.ops_per_sec, at_rate.p50_ms,
      at_rate.p99_ms, static_cast<long long>(*rebuilt),
      *rebuilt / rebuild_seconds);
  return saturated.failed + at_rate.failed == 0 ? 0 : 1;
}

// Fills an embedded log with wallet events decided by the real ledger
// (deposits, holds, captures to tables, rake, payouts, withdrawals), then
// times a rebuild of the wallet projection from offset 0.
int BenchRebuild(const Flags& flags) {
  const int64_t target = flags.GetInt("events", 300'000).value_or(300'000);
  const int players =
      static_cast<int>(flags.GetInt("players", 10'000).value_or(10'000));
  if (target < 1 || players < 1) return Fail("--events and --players ≥ 1");
  const std::string dir = ScratchDir(flags, "rebuild");
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
  std::printf(
      "{\"bench\":\"rebuild\",\"projection\":\"wallet\",\"events\":%lld,"
      "\"seconds\":%.3f,\"events_per_sec\":%.0f,"
      "\"target_events_per_sec\":500000}\n",
      static_cast<long long>(*rebuilt), seconds, *rebuilt / seconds);
  return 0;
}

// Complete 6-max no-limit hands with random legal actions: in the engine
// alone on one core (CPU time), then through the table service over gRPC
// on the embedded log with `tables` tables played at once.
int BenchHoldem(const Flags& flags) {
  const absl::StatusOr<int64_t> tables = flags.GetInt("tables", 100);
  const absl::StatusOr<int64_t> seconds = flags.GetInt("seconds", 10);
  const absl::StatusOr<int64_t> warmup = flags.GetInt("warmup-seconds", 2);
  const absl::StatusOr<int64_t> engine_hands =
      flags.GetInt("engine-hands", 200'000);
  for (const auto* v : {&tables, &seconds, &warmup, &engine_hands}) {
    if (!v->ok()) return Fail(std::string(v->status().message()));
  }
  if (*tables < 1 || *tables > 1000 || *seconds < 1 || *warmup < 0 ||
      *engine_hands < 1) {
    return Fail(
        "--tables 1..1000, --seconds ≥ 1, --warmup-seconds ≥ 0, "
        "--engine-hands ≥ 1");
  }
  games::poker::EngineBenchOptions engine_options;
  engine_options.hands = *engine_hands;
  engine_options.players = 6;
  const games::poker::EngineBenchResult engine =
      games::poker::RunEngineBench(engine_options);
  if (engine.hands_per_sec < 0) return Fail("the engine failed a hand");

  HoldemBenchOptions options;
  options.dir = ScratchDir(flags, "holdem");
  options.tables = static_cast<int>(*tables);
  options.duration = absl::Seconds(*seconds);
  options.warmup = absl::Seconds(*warmup);
  options.fsync = !flags.GetBool("no-fsync");
  const std::string api = flags.Get("api", "relay");
  if (api == "play") {
    options.api = HoldemBenchOptions::Api::kPlay;
  } else if (api == "relay") {
    options.api = HoldemBenchOptions::Api::kRelay;
  } else if (api == "act") {
    options.api = HoldemBenchOptions::Api::kAct;
  } else if (api == "view-act") {
    options.api = HoldemBenchOptions::Api::kViewAndAct;
  } else {
    return Fail("--api is play, relay, act or view-act");
  }
  absl::StatusOr<HoldemBenchResult> service = RunHoldemServiceBench(options);
  std::filesystem::remove_all(options.dir);
  if (!service.ok()) return Fail(service.status().ToString());
  std::printf(
      "{\"bench\":\"holdem\",\"engine_hands\":%lld,"
      "\"engine_actions_per_hand\":%.2f,\"engine_hands_per_sec\":%.0f,"
      "\"tables\":%d,\"players_per_table\":6,\"transport\":"
      "\"grpc-loopback\",\"log\":\"embedded%s\",\"api\":\"%s\","
      "\"seconds\":%.1f,"
      "\"service_hands\":%lld,\"service_hands_per_sec\":%.0f,"
      "\"actions_per_sec\":%.0f,\"p50_action_ms\":%.3f,"
      "\"p99_action_ms\":%.3f,\"max_action_ms\":%.3f,\"rejected\":%lld,"
      "\"rebuys\":%lld,\"p50_rebuy_ms\":%.1f,\"p99_rebuy_ms\":%.1f,"
      "\"resits\":%lld,\"players_per_table_at_end\":%.2f,"
      "\"wallet_lag_records\":%lld,"
      "\"views\":%lld,\"pauses\":%lld,\"turns\":%lld,"
      "\"cpu_ms_per_hand\":%.3f,\"cores\":%u,"
      "\"setup_seconds\":%.1f,\"target_engine_hands_per_sec\":200000,"
      "\"target_service_hands_per_sec\":2000}\n",
      static_cast<long long>(engine.hands),
      engine.hands > 0 ? static_cast<double>(engine.actions) / engine.hands
                       : 0.0,
      engine.hands_per_sec, options.tables,
      options.fsync ? "-durable" : "-no-fsync", api.c_str(), service->seconds,
      static_cast<long long>(service->hands), service->hands_per_sec,
      service->actions_per_sec, service->p50_action_ms, service->p99_action_ms,
      service->max_action_ms, static_cast<long long>(service->rejected),
      static_cast<long long>(service->rebuys), service->p50_rebuy_ms,
      service->p99_rebuy_ms, static_cast<long long>(service->resits),
      service->players_per_table_at_end,
      static_cast<long long>(service->wallet_lag_records),
      static_cast<long long>(service->views),
      static_cast<long long>(service->pauses),
      static_cast<long long>(service->turns), service->cpu_ms_per_hand,
      std::thread::hardware_concurrency(), service->setup_seconds);
  return service->rejected == 0 ? 0 : 1;
}

}  // namespace

int BenchCommand(int argc, char** argv) {
  const std::string what = argc >= 3 ? argv[2] : "";
  if (what == "rtp") return BenchRtp(argc, argv);
  auto flags = Flags::Parse(argc, argv, 3,
                            {"threads",    "players",        "seconds",
                             "writers",    "events",         "value-bytes",
                             "partitions", "no-fsync",       "log",
                             "dir",        "clients",        "operations",
                             "rate",       "paced-seconds",  "mix",
                             "in-flight",  "kafka-local",    "no-kafka-tool",
                             "tables",     "warmup-seconds", "engine-hands",
                             "api"});
  if (!flags.ok()) return Fail(std::string(flags.status().message()));
  if (what == "ledger") return BenchLedger(*flags);
  if (what == "log") return BenchLog(*flags);
  if (what == "wallet") return BenchWallet(*flags);
  if (what == "rebuild") return BenchRebuild(*flags);
  if (what == "holdem") return BenchHoldem(*flags);
  if (what == "eval") {
    std::printf("%s\n", cards::RunEvalBench().c_str());
    return 0;
  }
  std::fprintf(
      stderr,
      "usage: banca bench ledger|log|wallet|rebuild|eval|holdem|rtp [flags]\n");
  return 2;
}

}  // namespace banca::cli
