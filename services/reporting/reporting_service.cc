#include "services/reporting/reporting_service.h"

#include <filesystem>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"
#include "libs/projection/games_projection.h"
#include "libs/projection/reporting_projection.h"
#include "libs/projection/wallet_projection.h"
#include "services/common/bearer_auth.h"
#include "services/reporting/reporting_roles.h"
#include "services/reporting/statement_range.h"

namespace banca::reporting {
namespace {

using auth::Role;

absl::Status MayReadStatus(const auth::Claims& caller) {
  if (caller.role == Role::kAuditor || caller.role == Role::kOperator) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(
      absl::StrCat(caller.subject,
                   " may not read the projections' status (auditor, "
                   "operator)"));
}

absl::Status CheckStatementRequest(const v1::StatementRequest& r) {
  RETURN_IF_ERROR(
      CheckStatementRange(r.player_id(), r.from_micros(), r.to_micros()));
  if (r.page_size() < 0 || r.page_size() > ReportingService::kMaxPageSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size must be 0..", ReportingService::kMaxPageSize));
  }
  return absl::OkStatus();
}

}  // namespace

ReportingService::ReportingService(eventlog::EventLog& log, const Clock& clock,
                                   ReportingServiceOptions options)
    : log_(log), clock_(clock), options_(std::move(options)) {}

absl::StatusOr<std::unique_ptr<ReportingService>> ReportingService::Start(
    eventlog::EventLog& log, const Clock& clock,
    ReportingServiceOptions options) {
  if (!options.verifier.has_value()) {
    return absl::InvalidArgumentError(
        "the reporting service needs a token verifier");
  }
  std::error_code ec;
  std::filesystem::create_directories(options.projection_dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot make ", options.projection_dir, ": ", ec.message()));
  }
  std::unique_ptr<ReportingService> s(
      new ReportingService(log, clock, std::move(options)));
  ASSIGN_OR_RETURN(
      s->store_, projection::ProjectionStore::Open(s->options_.projection_dir));
  s->projector_ = std::make_unique<projection::ReportingProjector>(&log);
  if (s->options_.metrics != nullptr) {
    auto metered = std::make_unique<MeteredProjector>(std::move(s->projector_),
                                                      *s->options_.metrics);
    s->metered_ = metered.get();
    s->projector_ = std::move(metered);
  }
  ASSIGN_OR_RETURN(s->replayed_,
                   projection::CatchUp(log, *s->store_, *s->projector_));
  absl::MutexLock lock(&s->runner_mu_);
  s->runner_ = std::make_unique<projection::ProjectionRunner>(log, *s->store_,
                                                              *s->projector_);
  s->runner_->Start();
  if (s->metered_ != nullptr) {
    s->lag_thread_ = std::thread([self = s.get()] { self->MeasureLagLoop(); });
  }
  return s;
}

ReportingService::~ReportingService() { (void)Stop(); }

void ReportingService::MeasureLagLoop() {
  do {
    metered_->MeasureLag(log_, *store_);
  } while (!stop_lag_.WaitForNotificationWithTimeout(absl::Seconds(1)));
}

absl::Status ReportingService::Stop() {
  if (lag_thread_.joinable()) {
    if (!stop_lag_.HasBeenNotified()) stop_lag_.Notify();
    lag_thread_.join();
  }
  absl::MutexLock lock(&runner_mu_);
  if (stopped_ || runner_ == nullptr) return absl::OkStatus();
  stopped_ = true;
  absl::Status s = runner_->Stop();
  absl::Status flushed = store_->Flush();
  return s.ok() ? flushed : s;
}

absl::StatusOr<auth::Claims> ReportingService::Caller(
    const grpc::ServerContext* context) const {
  return edge::AuthenticateBearer(context, *options_.verifier,
                                  clock_.NowMicros() / 1'000'000);
}

absl::Status ReportingService::CatchUpWithTheLog() {
  struct End {
    std::string topic;
    int partition;
    int64_t offset;
  };
  std::vector<End> ends;  // what the log holds now
  for (const std::string& topic : projector_->Topics()) {
    absl::StatusOr<int> partitions = log_.PartitionCount(topic);
    if (!partitions.ok()) continue;  // not made yet: nothing to wait for
    for (int p = 0; p < *partitions; ++p) {
      absl::StatusOr<int64_t> end = log_.EndOffset(topic, p);
      if (end.ok()) ends.push_back({topic, p, *end});
    }
  }
  // Behind while a record below the end is still to apply (on Kafka the
  // end offset also counts transaction markers, which no record carries).
  auto behind = [&] {
    for (const End& e : ends) {
      const int64_t at = store_->Offset(e.topic, e.partition);
      if (at >= e.offset) continue;
      absl::StatusOr<std::vector<eventlog::StoredRecord>> left =
          log_.Read(e.topic, e.partition, at, 1);
      if (!left.ok() || (!left->empty() && left->front().offset < e.offset)) {
        return true;
      }
    }
    return false;
  };
  {
    absl::ReaderMutexLock lock(&runner_mu_);
    if (stopped_) return absl::UnavailableError("the service is stopping");
    RETURN_IF_ERROR(RunnerHealth());
    runner_->Notify();
  }
  // On timeout the answer is what the projections hold by then.
  const absl::Time deadline = absl::Now() + options_.catch_up_wait;
  while (behind() && absl::Now() < deadline) {
    {
      absl::ReaderMutexLock lock(&runner_mu_);
      RETURN_IF_ERROR(RunnerHealth());
    }
    absl::SleepFor(absl::Milliseconds(2));
  }
  absl::ReaderMutexLock lock(&runner_mu_);
  return RunnerHealth();
}

absl::Status ReportingService::RunnerHealth() const {
  const absl::Status runner = runner_->status();
  if (runner.ok()) return absl::OkStatus();
  // A record the projections refuse stops them for good: answering from
  // what they held then would be a stale report that looks current.
  return absl::DataLossError(absl::StrCat(
      "the reporting projections stopped at a record they refuse: ",
      runner.ToString()));
}

absl::Status ReportingService::Statement(const v1::StatementRequest& r,
                                         v1::StatementPage& page) {
  RETURN_IF_ERROR(CheckStatementRequest(r));
  const std::string query = absl::StrCat("statement|", r.player_id(), "|",
                                         r.from_micros(), "|", r.to_micros());
  const std::string prefix = projection::StatementPrefix(r.player_id());
  std::string start = absl::StrFormat("%s%016x", prefix, r.from_micros());
  if (!r.page_token().empty()) {
    ASSIGN_OR_RETURN(start, tokens_.Open(query, r.page_token()));
  }
  RETURN_IF_ERROR(CatchUpWithTheLog());
  RETURN_IF_ERROR(CheckPlayerKnown(r.player_id()));
  const size_t size = r.page_size() == 0 ? kDefaultPageSize : r.page_size();
  ASSIGN_OR_RETURN(auto rows, store_->Scan(prefix, start, size + 1));
  page.set_currency(options_.currency);
  for (size_t i = 0; i < rows.size(); ++i) {
    v1::StatementEntry entry;
    if (!entry.ParseFromString(rows[i].second)) {
      return absl::DataLossError(
          absl::StrCat("statement row ", rows[i].first, " does not parse"));
    }
    if (r.to_micros() != 0 && entry.occurred_at_micros() >= r.to_micros()) {
      break;  // past the range
    }
    if (i == size) {
      page.set_next_page_token(tokens_.Make(query, rows[i].first));
      break;
    }
    *page.add_entries() = std::move(entry);
  }
  return absl::OkStatus();
}

absl::Status ReportingService::CheckPlayerKnown(
    const std::string& player) const {
  ASSIGN_OR_RETURN(std::optional<std::string> account,
                   store_->Get(absl::StrCat("player/", player)));
  if (!account.has_value()) {
    return absl::NotFoundError(
        absl::StrCat("no player ", player, " has an account"));
  }
  return absl::OkStatus();
}

absl::Status ReportingService::Games(const v1::GamesRequest& r,
                                     v1::GamesPage& page) {
  if (!ledger::IsValidId(r.player_id())) {
    return absl::InvalidArgumentError(
        "player_id must be a valid id (1-64 of [a-z0-9._-])");
  }
  if (!r.game().empty() && !ledger::IsValidId(r.game())) {
    return absl::InvalidArgumentError(
        "game must be empty or a game's name (\"poker\", \"blackjack\", ...)");
  }
  if (r.page_size() < 0 || r.page_size() > kMaxGames) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size must be 0..", kMaxGames));
  }
  const std::string query =
      absl::StrCat("games|", r.player_id(), "|", r.game());
  const std::string prefix = projection::GamesPrefix(r.player_id(), r.game());
  std::string start = prefix;
  if (!r.page_token().empty()) {
    ASSIGN_OR_RETURN(start, tokens_.Open(query, r.page_token()));
  }
  RETURN_IF_ERROR(CatchUpWithTheLog());
  RETURN_IF_ERROR(CheckPlayerKnown(r.player_id()));
  const size_t size = r.page_size() == 0 ? kDefaultGames : r.page_size();
  ASSIGN_OR_RETURN(auto rows, store_->Scan(prefix, start, size + 1));
  page.set_currency(options_.currency);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i == size) {
      page.set_next_page_token(tokens_.Make(query, rows[i].first));
      break;
    }
    if (!page.add_games()->ParseFromString(rows[i].second)) {
      return absl::DataLossError(
          absl::StrCat("game row ", rows[i].first, " does not parse"));
    }
  }
  return absl::OkStatus();
}

grpc::Status ReportingService::ListGames(grpc::ServerContext* context,
                                         const v1::GamesRequest* request,
                                         v1::GamesPage* response) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  if (absl::Status s = MayReadPlayer(*caller, request->player_id()); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  v1::GamesPage page;
  if (absl::Status s = Games(*request, page); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  *response = std::move(page);
  return grpc::Status::OK;
}

grpc::Status ReportingService::GetStatement(grpc::ServerContext* context,
                                            const v1::StatementRequest* request,
                                            v1::StatementPage* response) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  if (absl::Status s = MayReadPlayer(*caller, request->player_id()); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  v1::StatementPage page;
  if (absl::Status s = Statement(*request, page); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  *response = std::move(page);
  return grpc::Status::OK;
}

grpc::Status ReportingService::GetProjectionStatus(
    grpc::ServerContext* context, const v1::ProjectionStatusRequest*,
    v1::ProjectionStatus* response) {
  absl::StatusOr<auth::Claims> caller = Caller(context);
  if (!caller.ok()) return edge::ToGrpcStatus(caller.status());
  if (absl::Status s = MayReadStatus(*caller); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  if (absl::Status s = CatchUpWithTheLog(); !s.ok()) {
    return edge::ToGrpcStatus(s);
  }
  // The hash and the offsets of one moment: the runner paused meanwhile.
  absl::MutexLock lock(&runner_mu_);
  if (stopped_) {
    return edge::ToGrpcStatus(absl::UnavailableError("stopping"));
  }
  absl::Status s = runner_->Stop();
  absl::StatusOr<std::string> hash = store_->StateHash();
  absl::StatusOr<int64_t> keys = store_->KeyCount();
  for (const auto& [at, next] : store_->Offsets()) {
    v1::TopicOffset* o = response->add_offsets();
    o->set_topic(at.first);
    o->set_partition(at.second);
    o->set_next_offset(next);
  }
  runner_ = std::make_unique<projection::ProjectionRunner>(log_, *store_,
                                                           *projector_);
  runner_->Start();
  if (!s.ok()) return edge::ToGrpcStatus(s);
  if (!hash.ok()) return edge::ToGrpcStatus(hash.status());
  if (!keys.ok()) return edge::ToGrpcStatus(keys.status());
  response->set_state_hash(*hash);
  response->set_keys(*keys);
  return grpc::Status::OK;
}

}  // namespace banca::reporting
