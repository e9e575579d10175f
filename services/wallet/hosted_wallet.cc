#include "services/wallet/hosted_wallet.h"

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "libs/common/status_macros.h"

namespace banca::wallet {

namespace {

class HostedWalletService final : public edge::HostedService {
 public:
  explicit HostedWalletService(std::unique_ptr<WalletService> wallet)
      : wallet_(std::move(wallet)) {}

  grpc::Service* service() override { return wallet_.get(); }
  std::string health_name() const override {
    return v1::WalletService::service_full_name();
  }
  int64_t replayed_events() const override {
    return wallet_->replayed_events();
  }
  absl::Status Stop() override { return wallet_->Stop(); }

 private:
  std::unique_ptr<WalletService> wallet_;
};

absl::StatusOr<std::unique_ptr<edge::HostedService>> StartHostedWallet(
    const edge::HostContext& context) {
  const WalletOptions options = HostedWalletOptions(context);
  std::error_code ec;
  std::filesystem::create_directories(options.projection_dir, ec);
  ASSIGN_OR_RETURN(std::unique_ptr<WalletService> wallet,
                   WalletService::Start(context.log, context.clock, options));
  return std::make_unique<HostedWalletService>(std::move(wallet));
}

}  // namespace

WalletOptions HostedWalletOptions(const edge::HostContext& context) {
  const edge::HostSettings& settings = context.settings;
  WalletOptions options;
  options.currency = settings.currency;
  options.partitions = settings.partitions;
  // --partitions is every topic's the server makes: the tables and the
  // tournaments make their request topics with it too, and whichever
  // service comes first makes them.
  options.table_partitions = settings.partitions;
  options.banked_partitions = settings.partitions;
  options.tournament_partitions = settings.partitions;
  options.projection_dir = settings.data_dir + "/projections/wallet";
  if (!settings.wallet_snapshots_off) {
    options.snapshot_dir = settings.data_dir + "/snapshots/wallet";
  }
  options.snapshot_every_events = settings.wallet_snapshot_every_events;
  options.answer_store_dir = settings.data_dir + "/answers/wallet";
  options.idempotency_window = absl::Hours(settings.idempotency_window_hours);
  options.metrics = context.metrics;
  if (context.keys.verifier) options.verifier = *context.keys.verifier;
  options.insecure_dev = settings.insecure_dev;
  // Several wallet processes on one Kafka topic share the partitions of
  // one consumer group (WalletOptions::group).
  options.group = settings.wallet_group;
  options.group_session_timeout_ms = settings.wallet_session_timeout_ms;
  return options;
}

edge::HostedServiceSpec HostedWallet() {
  return {.name = "wallet",
          .start = StartHostedWallet,
          .insecure_dev_allowed = true};
}

}  // namespace banca::wallet
