#include "tools/bench/reporting_bench.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "libs/common/clock.h"
#include "libs/common/json_text.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/projection/daily_close.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "libs/projection/report_export.h"
#include "libs/projection/reporting_projection.h"
#include "services/common/authorized_channel.h"
#include "services/reporting/reporting_service.h"

namespace banca::bench {
namespace {

using Json = nlohmann::ordered_json;

constexpr char kWorkloadFile[] = "workload.json";
// Calls made before the measured ones (the channel's connection).
constexpr int kWarmupQueries = 10;
// Unknown players (no account yet in a small workload) are skipped; a
// bench that finds too few known ones fails instead of looping.
constexpr int kMaxAttemptsPerQuery = 50;

Json Rounded(double v, int places) {
  if (!std::isfinite(v)) return nullptr;
  const double scale = std::pow(10.0, places);
  return std::round(v * scale) / scale;
}

int64_t BytesUnder(const std::string& dir) {
  int64_t bytes = 0;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec)) {
      bytes += static_cast<int64_t>(entry.file_size(ec));
    }
  }
  return bytes;
}

// Peak resident memory from here on: the kernel's high-water mark is reset
// (so the workload's generation does not count) where it allows it.
bool ResetPeakRss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return f.good();
}

double PeakRssMb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    int64_t kib = 0;
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream in(line.substr(6));
      in >> kib;
      return static_cast<double>(kib) / 1024.0;
    }
  }
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;  // KiB on Linux
}

// CPU seconds of the whole process (every thread: RocksDB's flushes and
// compactions count), to read beside wall time on a shared machine.
double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

Json CountsJson(const ReportingWorkloadOptions& o,
                const ReportingWorkloadCounts& c) {
  return Json{{"events", o.events},
              {"players", o.players},
              {"seed", o.seed},
              {"written", c.events},
              {"accounts", c.accounts},
              {"deposits", c.deposits},
              {"withdrawals", c.withdrawals},
              {"banked_rounds", c.banked_rounds},
              {"banked_bets", c.banked_bets},
              {"poker_hands", c.poker_hands},
              {"poker_buy_ins", c.poker_buy_ins},
              {"poker_cash_outs", c.poker_cash_outs},
              {"tournaments", c.tournaments},
              {"tournament_entries", c.tournament_entries},
              {"tournament_prizes", c.tournament_prizes},
              {"first_micros", c.first_micros},
              {"last_micros", c.last_micros}};
}

// The counts of a log written before with the same options, if any.
std::optional<ReportingWorkloadCounts> ReusableWorkload(
    const std::string& dir, const ReportingWorkloadOptions& o) {
  std::ifstream f(absl::StrCat(dir, "/", kWorkloadFile));
  if (!f) return std::nullopt;
  const Json j = Json::parse(f, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  ReportingWorkloadCounts c;
  auto get = [&](const char* key, int64_t& v) {
    if (j.contains(key) && j[key].is_number_integer())
      v = j[key].get<int64_t>();
  };
  int64_t events = 0, players = 0, seed = 0;
  get("events", events);
  get("players", players);
  get("seed", seed);
  if (events != o.events || players != o.players ||
      static_cast<uint64_t>(seed) != o.seed) {
    return std::nullopt;
  }
  get("written", c.events);
  get("accounts", c.accounts);
  get("deposits", c.deposits);
  get("withdrawals", c.withdrawals);
  get("banked_rounds", c.banked_rounds);
  get("banked_bets", c.banked_bets);
  get("poker_hands", c.poker_hands);
  get("poker_buy_ins", c.poker_buy_ins);
  get("poker_cash_outs", c.poker_cash_outs);
  get("tournaments", c.tournaments);
  get("tournament_entries", c.tournament_entries);
  get("tournament_prizes", c.tournament_prizes);
  get("first_micros", c.first_micros);
  get("last_micros", c.last_micros);
  return c;
}

// The workload's log, written now or reused.
absl::StatusOr<std::unique_ptr<eventlog::EventLog>> WorkloadLog(
    const ReportingBenchOptions& o, ReportingWorkloadCounts& counts,
    Json& out) {
  const std::string log_dir = o.dir + "/log";
  std::optional<ReportingWorkloadCounts> reused =
      ReusableWorkload(o.dir, o.workload);
  if (!reused.has_value()) std::filesystem::remove_all(log_dir);
  eventlog::EmbeddedLogOptions log_options;
  log_options.fsync = false;  // a scratch log: durability is not measured
  ASSIGN_OR_RETURN(auto log, eventlog::OpenEmbeddedLog(log_dir, log_options));
  const absl::Time start = absl::Now();
  if (reused.has_value()) {
    counts = *reused;
  } else {
    std::filesystem::remove(absl::StrCat(o.dir, "/", kWorkloadFile));
    ASSIGN_OR_RETURN(counts, WriteReportingWorkload(*log, o.workload));
    std::ofstream f(absl::StrCat(o.dir, "/", kWorkloadFile));
    f << JsonText(CountsJson(o.workload, counts)) << "\n";
  }
  out["log_reused"] = reused.has_value();
  out["generate_seconds"] =
      Rounded(absl::ToDoubleSeconds(absl::Now() - start), 2);
  return log;
}

// Phase 2: the whole ReportingProjector from offset 0 into a fresh store.
absl::Status Ingest(eventlog::EventLog& log, const std::string& store_dir,
                    Json& out) {
  std::filesystem::remove_all(store_dir);
  ASSIGN_OR_RETURN(auto store, projection::ProjectionStore::Open(store_dir));
  projection::ReportingProjector projector;
  const absl::Time start = absl::Now();
  const double cpu_start = CpuSeconds();
  ASSIGN_OR_RETURN(const int64_t applied,
                   projection::CatchUp(log, *store, projector));
  RETURN_IF_ERROR(store->Flush());
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  const double cpu_seconds = CpuSeconds() - cpu_start;
  ASSIGN_OR_RETURN(const int64_t keys, store->KeyCount());
  store.reset();
  out["events"] = applied;
  out["ingest_seconds"] = Rounded(seconds, 3);
  out["ingest_cpu_seconds"] = Rounded(cpu_seconds, 3);
  out["ingest_events_per_sec"] =
      seconds > 0 ? Json(std::llround(static_cast<double>(applied) / seconds))
                  : Json(nullptr);
  out["store_keys"] = keys;
  out["store_bytes"] = BytesUnder(store_dir);
  return absl::OkStatus();
}

double Quantile(std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const size_t rank =
      static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

// The recall of a player's last 10 games: ListGames over loopback gRPC, as
// an auditor, for random players (those without an account are skipped).
absl::Status Last10Phase(ReportingBenchContext& ctx, Json& out) {
  ASSIGN_OR_RETURN(const auth::SigningKey key, edge::EphemeralSigningKey());
  SystemClock clock;
  reporting::ReportingServiceOptions options;
  options.projection_dir = ctx.projection_dir;
  options.verifier.emplace();
  RETURN_IF_ERROR(options.verifier->Add(key.public_key()));
  ASSIGN_OR_RETURN(auto service, reporting::ReportingService::Start(
                                     ctx.log, clock, std::move(options)));
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(service.get());
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    return absl::UnavailableError("cannot listen on loopback");
  }
  auto stub = v1::ReportingService::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  ASSIGN_OR_RETURN(const std::string token,
                   edge::DayToken(key, auth::Role::kAuditor, "bench"));
  const int players = ctx.options.workload.players;
  std::vector<double> ms;
  int64_t games = 0, unknown = 0, calls = 0;
  const int64_t max_calls =
      int64_t{kMaxAttemptsPerQuery} * (ctx.options.queries + kWarmupQueries);
  absl::Status failed;
  while (static_cast<int64_t>(ms.size()) < ctx.options.queries) {
    if (++calls > max_calls) {
      failed = absl::FailedPreconditionError(
          "too few players have an account: write more events");
      break;
    }
    v1::GamesRequest request;
    request.set_player_id(WorkloadPlayer(static_cast<int>(
        std::uniform_int_distribution<int>(0, players - 1)(ctx.rng))));
    grpc::ClientContext call;
    call.AddMetadata("authorization", "Bearer " + token);
    v1::GamesPage page;
    const absl::Time start = absl::Now();
    const grpc::Status s = stub->ListGames(&call, request, &page);
    const double took = absl::ToDoubleMilliseconds(absl::Now() - start);
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
      ++unknown;
      continue;
    }
    if (!s.ok()) {
      failed =
          absl::InternalError(absl::StrCat("ListGames: ", s.error_message()));
      break;
    }
    if (calls <= kWarmupQueries) continue;
    ms.push_back(took);
    games += page.games_size();
  }
  server->Shutdown();
  RETURN_IF_ERROR(service->Stop());
  RETURN_IF_ERROR(failed);
  std::sort(ms.begin(), ms.end());
  out["transport"] = "grpc-loopback";
  out["queries"] = ms.size();
  out["unknown_players_skipped"] = unknown;
  out["games_per_query"] =
      Rounded(static_cast<double>(games) / static_cast<double>(ms.size()), 2);
  out["last10_p50_ms"] = Rounded(Quantile(ms, 0.50), 3);
  out["last10_p99_ms"] = Rounded(Quantile(ms, 0.99), 3);
  out["last10_max_ms"] = Rounded(ms.back(), 3);
  return absl::OkStatus();
}

// The statement export in CSV (what a finance team downloads): players'
// whole statements one after another until kCsvRows lines (or every
// player's) are written; lines per second.
absl::Status CsvPhase(ReportingBenchContext& ctx, Json& out) {
  constexpr int64_t kCsvRows = 1'000'000;
  ASSIGN_OR_RETURN(auto store, projection::ProjectionStore::OpenReadOnly(
                                   ctx.projection_dir));
  int64_t rows = 0, bytes = 0;
  const absl::Time start = absl::Now();
  for (int p = 0; p < ctx.options.workload.players && rows < kCsvRows; ++p) {
    projection::StatementExport request{WorkloadPlayer(p), 0, 0, "EUR",
                                        projection::ExportFormat::kCsv};
    RETURN_IF_ERROR(projection::ExportStatement(
        *store, request, [&](std::string_view chunk, int64_t n) {
          rows += n;
          bytes += static_cast<int64_t>(chunk.size());
          return absl::OkStatus();
        }));
  }
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  out["csv_rows"] = rows;
  out["csv_bytes"] = bytes;
  out["csv_rows_per_sec"] =
      seconds > 0 ? Json(std::llround(static_cast<double>(rows) / seconds))
                  : Json(nullptr);
  return absl::OkStatus();
}

// The daily close (Europe/Lisbon) of every day the workload's clock spans:
// the slowest, and the events of the busiest day.
absl::Status ClosePhase(ReportingBenchContext& ctx, Json& out) {
  ASSIGN_OR_RETURN(auto store, projection::ProjectionStore::OpenReadOnly(
                                   ctx.projection_dir));
  absl::TimeZone lisbon;
  if (!absl::LoadTimeZone("Europe/Lisbon", &lisbon)) {
    return absl::FailedPreconditionError("no tzdata for Europe/Lisbon");
  }
  const absl::Time first = absl::FromUnixMicros(ctx.workload.first_micros);
  const absl::Time last = absl::FromUnixMicros(ctx.workload.last_micros);
  double slowest_ms = 0;
  int64_t busiest = 0, days = 0;
  for (absl::Time day = first; day <= last + absl::Hours(24);
       day += absl::Hours(24)) {
    const std::string date = absl::FormatTime("%Y-%m-%d", day, lisbon);
    const absl::Time start = absl::Now();
    ASSIGN_OR_RETURN(
        const v1::DailyClose close,
        projection::ComputeDailyClose(*store, date, "Europe/Lisbon", "EUR"));
    slowest_ms =
        std::max(slowest_ms, absl::ToDoubleMilliseconds(absl::Now() - start));
    busiest = std::max(busiest, close.events());
    ++days;
    if (!close.reconciled()) {
      return absl::InternalError(
          absl::StrCat("the close of ", date, " is not reconciled"));
    }
  }
  out["close_days"] = days;
  out["close_busiest_day_events"] = busiest;
  out["close_ms"] = Rounded(slowest_ms, 3);
  return absl::OkStatus();
}

}  // namespace

std::vector<ReportingPhase> ReportingPhases() {
  return {Last10Phase, CsvPhase, ClosePhase};
}

absl::StatusOr<Json> RunReportingBench(const ReportingBenchOptions& options) {
  if (options.queries < 1 || options.queries > kMaxReportingQueries) {
    return absl::InvalidArgumentError(
        absl::StrCat("queries must be 1..", kMaxReportingQueries));
  }
  std::filesystem::create_directories(options.dir);
  Json out;
  out["bench"] = "reporting";
  ReportingWorkloadCounts counts;
  ASSIGN_OR_RETURN(auto log, WorkloadLog(options, counts, out));
  out["workload"] = CountsJson(options.workload, counts);
  out["log_bytes"] = BytesUnder(options.dir + "/log");
  const bool rss_reset = ResetPeakRss();
  const std::string store_dir = options.dir + "/projection";
  RETURN_IF_ERROR(Ingest(*log, store_dir, out));
  std::mt19937_64 rng(options.workload.seed);
  ReportingBenchContext context{options, *log, store_dir, counts, rng};
  for (const ReportingPhase& phase : ReportingPhases()) {
    RETURN_IF_ERROR(phase(context, out));
  }
  out["peak_rss_mb"] = Rounded(PeakRssMb(), 1);
  out["peak_rss_from_ingest"] = rss_reset;  // else since the process began
  out["target_ingest_events_per_sec"] = 200'000;
  out["target_last10_p99_ms"] = 20;
  out["target_csv_rows_per_sec"] = 100'000;  // 1,000,000 lines in 10 s
  out["target_close_ms"] = 10'000;           // a day of 1,000,000 events
  return out;
}

}  // namespace banca::bench
