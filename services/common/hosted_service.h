// A service as a server hosts it: what the composition root
// (services/server/server.h) needs from a running service, and how it
// starts one. The server serves any list of them on one log behind one gRPC
// server without naming a service; each service's folder has the factory
// that builds its own options (services/wallet/hosted_wallet.h,
// services/table/hosted_tables.h), and the program picks the list.
#ifndef BANCA_SERVICES_COMMON_HOSTED_SERVICE_H_
#define BANCA_SERVICES_COMMON_HOSTED_SERVICE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/impl/service_type.h"
#include "services/common/host_context.h"

namespace banca::edge {

// One gRPC service, replayed and running.
class HostedService {
 public:
  virtual ~HostedService();

  // What the server registers; owned by this.
  virtual grpc::Service* service() = 0;
  // The name gRPC health reports it serving under (the proto's full name,
  // e.g. "banca.v1.WalletService").
  virtual std::string health_name() const = 0;
  // How many events its start replayed from the log.
  virtual int64_t replayed_events() const = 0;
  // Called before the gRPC server shuts down: stop taking new work and end
  // the streams that would hold the shutdown (the tables). Safe from
  // another thread.
  virtual void BeginShutdown() {}
  // Called once the gRPC server has shut down: stops the service's threads
  // and makes what it decided durable.
  virtual absl::Status Stop() = 0;
};

// Replays and starts one service; the status says why it could not.
using HostedServiceFactory =
    std::function<absl::StatusOr<std::unique_ptr<HostedService>>(
        const HostContext&)>;

// A service a server may host: its factory, and what the server must give it.
struct HostedServiceSpec {
  // Names the service in a start error ("wallet: ...").
  std::string name;
  HostedServiceFactory start;
  // May run with no token verifier under --insecure-dev (only the wallet);
  // otherwise the server refuses to start without one.
  bool insecure_dev_allowed = false;
  // Seals decks: the server loads (or makes) the deck keys.
  bool needs_deck_keys = false;
};

// A table host's service (the poker tables, the banked tables, the
// tournaments) behind the server's interface: their Stop returns nothing,
// for their decisions are durable once appended.
template <typename Service>
class HostedHostService final : public HostedService {
 public:
  HostedHostService(std::unique_ptr<Service> service, std::string health_name)
      : service_(std::move(service)), health_name_(std::move(health_name)) {}

  grpc::Service* service() override { return service_.get(); }
  std::string health_name() const override { return health_name_; }
  int64_t replayed_events() const override {
    return service_->replayed_events();
  }
  void BeginShutdown() override { service_->BeginShutdown(); }
  absl::Status Stop() override {
    service_->Stop();
    return absl::OkStatus();
  }

 private:
  std::unique_ptr<Service> service_;
  std::string health_name_;
};

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_HOSTED_SERVICE_H_
