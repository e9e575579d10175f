// The reporting service (protos/banca/v1/reporting.proto,
// docs/reporting.md): its own RocksDB projections of the log
// (libs/projection/reporting_projection.h) under DATA_DIR/projections/
// reporting, caught up at start and kept up by a background runner, each
// batch's offsets committed with its data. It reads; it never appends.
//
// Every call authenticates its caller (a bearer token): a player reads
// only their own, finance, auditor and operator read everyone's and the
// finance reports (finance_rpcs.cc), and the projection's status is for
// auditors and operators. A listing's page
// tokens are bound to its query (services/common/page_tokens.h).
#ifndef BANCA_SERVICES_REPORTING_REPORTING_SERVICE_H_
#define BANCA_SERVICES_REPORTING_REPORTING_SERVICE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/projection/projection_store.h"
#include "libs/projection/projector.h"
#include "services/common/page_tokens.h"
#include "services/reporting/reporting_metrics.h"

namespace banca::projection {
struct FinanceQuery;
}  // namespace banca::projection

namespace banca::reporting {

struct ReportingServiceOptions {
  std::string projection_dir;              // made if missing
  std::optional<auth::Verifier> verifier;  // required
  std::string currency = "EUR";            // the wallet's
  // How long a query waits for the projections to reach the log's end as
  // it was when the query came (then it answers from what they hold).
  absl::Duration catch_up_wait = absl::Seconds(2);
  // Where its metrics go (reporting_metrics.h); null: none.
  prometheus::Registry* metrics = nullptr;
};

class ReportingService final : public v1::ReportingService::Service {
 public:
  static constexpr int32_t kDefaultPageSize = 100;
  static constexpr int32_t kMaxPageSize = 1000;
  static constexpr int32_t kDefaultGames = 10;  // the recall of the last ten
  static constexpr int32_t kMaxGames = 100;

  // Opens (or makes) the projections, catches them up with the log and
  // starts following it.
  static absl::StatusOr<std::unique_ptr<ReportingService>> Start(
      eventlog::EventLog& log, const Clock& clock,
      ReportingServiceOptions options);
  ~ReportingService() override;

  grpc::Status GetStatement(grpc::ServerContext* context,
                            const v1::StatementRequest* request,
                            v1::StatementPage* response) override;
  grpc::Status ListGames(grpc::ServerContext* context,
                         const v1::GamesRequest* request,
                         v1::GamesPage* response) override;
  // The histories (history_rpcs.cc).
  grpc::Status ListHistories(grpc::ServerContext* context,
                             const v1::HistoriesRequest* request,
                             v1::HistoriesPage* response) override;
  grpc::Status GetHistory(grpc::ServerContext* context,
                          const v1::HistoryRequest* request,
                          v1::GameHistory* response) override;
  grpc::Status ListSessions(grpc::ServerContext* context,
                            const v1::SessionsRequest* request,
                            v1::SessionsPage* response) override;
  grpc::Status GetProjectionStatus(grpc::ServerContext* context,
                                   const v1::ProjectionStatusRequest* request,
                                   v1::ProjectionStatus* response) override;
  // Finance (finance_rpcs.cc).
  grpc::Status GetDailyClose(grpc::ServerContext* context,
                             const v1::DailyCloseRequest* request,
                             v1::DailyClose* response) override;
  grpc::Status GetFinanceReport(grpc::ServerContext* context,
                                const v1::FinanceReportRequest* request,
                                v1::FinanceReport* response) override;
  grpc::Status ExportReport(
      grpc::ServerContext* context, const v1::ExportRequest* request,
      grpc::ServerWriter<v1::ExportChunk>* writer) override;

  // Applies what is left and stops following the log; flushes.
  absl::Status Stop();
  // The records applied at start.
  int64_t replayed_events() const { return replayed_; }

 private:
  ReportingService(eventlog::EventLog& log, const Clock& clock,
                   ReportingServiceOptions options);

  absl::StatusOr<auth::Claims> Caller(const grpc::ServerContext* context) const;
  // Waits (up to catch_up_wait) for the projections to reach the log's
  // end; DATA_LOSS once the runner has stopped on a record it refuses.
  absl::Status CatchUpWithTheLog();
  absl::Status RunnerHealth() const ABSL_SHARED_LOCKS_REQUIRED(runner_mu_);
  absl::Status Statement(const v1::StatementRequest& request,
                         v1::StatementPage& page);
  absl::Status Games(const v1::GamesRequest& request, v1::GamesPage& page);
  // A page of a newest-first index (history_rpcs.cc).
  absl::Status ScanNewestFirst(
      const std::string& prefix, const std::string& query, std::string start,
      int64_t from, size_t size,
      const std::function<absl::StatusOr<bool>(const std::string&)>& keep,
      std::string& next_token);
  // The finance report of `query` for the caller (finance_rpcs.cc).
  absl::StatusOr<v1::FinanceReport> Finance(
      grpc::ServerContext* context, const projection::FinanceQuery& query);
  // The export's chunks (finance_rpcs.cc).
  absl::Status Export(grpc::ServerContext* context,
                      const v1::ExportRequest& request,
                      grpc::ServerWriter<v1::ExportChunk>* writer);
  // NOT_FOUND unless `player` has an account.
  absl::Status CheckPlayerKnown(const std::string& player) const;
  // Measures the projections' lag every second until Stop.
  void MeasureLagLoop();

  eventlog::EventLog& log_;
  const Clock& clock_;
  const ReportingServiceOptions options_;
  std::unique_ptr<projection::ProjectionStore> store_;
  std::unique_ptr<projection::Projector> projector_;
  // Swapped while GetProjectionStatus hashes a still store.
  absl::Mutex runner_mu_;
  std::unique_ptr<projection::ProjectionRunner> runner_
      ABSL_GUARDED_BY(runner_mu_);
  edge::PageTokens tokens_;
  int64_t replayed_ = 0;
  bool stopped_ ABSL_GUARDED_BY(runner_mu_) = false;
  // projector_ when metrics are on; its lag measured by lag_thread_.
  MeteredProjector* metered_ = nullptr;
  absl::Notification stop_lag_;
  std::thread lag_thread_;
};

}  // namespace banca::reporting

#endif  // BANCA_SERVICES_REPORTING_REPORTING_SERVICE_H_
