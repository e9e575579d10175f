// A wallet served over gRPC on loopback inside this process, on an embedded
// log in a directory of the caller's: for `banca bench wallet` and tests.
#ifndef BANCA_SERVICES_WALLET_LOCAL_WALLET_SERVER_H_
#define BANCA_SERVICES_WALLET_LOCAL_WALLET_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "services/wallet/wallet_service.h"

namespace banca::wallet {

class LocalWalletServer {
 public:
  // Opens (or reopens) the log named by `log_spec` ("embedded": a journal
  // in DATA_DIR/log; or kafka://host:port) and DATA_DIR/projections/wallet.
  static absl::StatusOr<std::unique_ptr<LocalWalletServer>> Start(
      const std::string& data_dir, WalletOptions options = {},
      const std::string& log_spec = "embedded");
  ~LocalWalletServer();

  std::string target() const { return target_; }
  WalletService& wallet() { return *wallet_; }
  eventlog::EventLog& log() { return *log_; }
  // Stops serving and brings the projection up to date.
  absl::Status Stop();

 private:
  LocalWalletServer() = default;
  SystemClock clock_;
  std::unique_ptr<eventlog::EventLog> log_;
  std::unique_ptr<WalletService> wallet_;
  std::unique_ptr<grpc::Server> server_;
  std::string target_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_LOCAL_WALLET_SERVER_H_
