#include "services/wallet/local_wallet_server.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/eventlog/log_backend.h"
#include "services/common/server_options.h"

namespace banca::wallet {

absl::StatusOr<std::unique_ptr<LocalWalletServer>> LocalWalletServer::Start(
    const std::string& data_dir, WalletOptions options,
    const std::string& log_spec) {
  std::unique_ptr<LocalWalletServer> server(new LocalWalletServer());
  std::error_code ec;
  std::filesystem::create_directories(data_dir + "/projections/wallet", ec);
  ASSIGN_OR_RETURN(server->log_, eventlog::OpenLogBackend(log_spec, data_dir));
  if (options.projection_dir.empty()) {
    options.projection_dir = data_dir + "/projections/wallet";
  }
  ASSIGN_OR_RETURN(
      server->wallet_,
      WalletService::Start(*server->log_, server->clock_, options));
  grpc::ServerBuilder builder;
  edge::ApplyServerOptions(builder);
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(server->wallet_.get());
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || port == 0) {
    return absl::UnavailableError("cannot listen on 127.0.0.1");
  }
  server->target_ = absl::StrCat("127.0.0.1:", port);
  return server;
}

LocalWalletServer::~LocalWalletServer() { (void)Stop(); }

absl::Status LocalWalletServer::Stop() {
  if (server_ != nullptr) {
    server_->Shutdown(std::chrono::system_clock::now() +
                      std::chrono::seconds(5));
    server_.reset();
  }
  return wallet_ != nullptr ? wallet_->Stop() : absl::OkStatus();
}

}  // namespace banca::wallet
