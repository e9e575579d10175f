// The three services (wallet, poker tables, banked tables) running once in
// this process for services_fuzz and make_seeds: an embedded log in a
// scratch directory (no fsync), a token verifier, the server's own request
// limits (services/common/server_options.h), and an in-process channel. A call
// is raw request bytes sent through a generic stub, so the server's parser
// sees them exactly as a client sent them.
//
// A fuzz input for services_fuzz is Input(method, caller, request):
//   byte 0: the RPC (an index into kMethods, modulo its size);
//   byte 1: the caller (Caller, modulo kCallerCount);
//   the rest: the request message's bytes.
#ifndef BANCA_TESTS_FUZZ_SERVICE_HARNESS_H_
#define BANCA_TESTS_FUZZ_SERVICE_HARNESS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "google/protobuf/message.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "libs/auth/token.h"
#include "libs/common/clock.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "services/table/banked_table_service.h"
#include "services/table/table_service.h"
#include "services/wallet/wallet_service.h"

namespace banca::fuzz {

// Every unary RPC of the three services, "/package.Service/Method".
extern const std::vector<std::string_view> kMethods;
// The index of `method` in kMethods; aborts when it is not there.
size_t MethodIndex(std::string_view method);

enum Caller : uint8_t {
  kAna,           // player:ana
  kBob,           // player:bob
  kOperator,      // operator:ops
  kFinance,       // finance:fin
  kAuditor,       // auditor:aud
  kPayments,      // service:payments
  kTableService,  // service:table
  kGateway,       // gateway:gw
  kNoToken,
  kForgedToken,
  kCallerCount,
};

std::string Input(size_t method, Caller caller,
                  const google::protobuf::Message& request);

// The inputs Setup sends: two funded players (ana, bob), a poker table t1
// and a French roulette table r1.
std::vector<std::string> SetupInputs();

class ServiceHarness {
 public:
  // Starts everything on a log in `dir` (created); aborts on failure.
  explicit ServiceHarness(std::string dir);
  ~ServiceHarness();
  ServiceHarness(const ServiceHarness&) = delete;
  ServiceHarness& operator=(const ServiceHarness&) = delete;

  // One call; the response's bytes in `response` when it is not null.
  grpc::Status Send(std::string_view input, std::string* response = nullptr);
  // Sends SetupInputs(), printing (not failing on) a refused one.
  void Setup();

  // The wallet ledger's sum of every balance (0 unless money was made or
  // lost).
  int64_t LedgerSum() const;

  // Reads what the services appended since the last call: every record
  // must decode (wallet, table and banked events), and the wallet's events
  // must apply to a second ledger that only replays them. A record that
  // fails here would stop the next start (DATA_LOSS): the data directory
  // would no longer open.
  absl::Status CheckNewRecords();

  // Stops the services and starts them again on the same log, so that
  // their real replay runs over everything appended so far; aborts when
  // one refuses to start.
  void Restart();

  // Stops the server and the services (the log stays open for reading).
  void Stop();
  eventlog::EventLog& log() { return *log_; }
  const std::string& dir() const { return dir_; }

 private:
  void StartServices();

  std::string dir_;
  auth::Verifier verifier_;
  std::vector<std::string> tokens_;  // by Caller
  // CheckNewRecords: where each topic's partitions were read up to, and
  // the ledger that replays the wallet's events.
  std::map<std::pair<std::string, int>, int64_t> read_up_to_;
  ledger::Ledger shadow_;
  SystemClock clock_;
  std::unique_ptr<eventlog::EventLog> log_;
  std::unique_ptr<wallet::WalletService> wallet_;
  std::unique_ptr<table::TableService> tables_;
  std::unique_ptr<table::BankedTableService> banked_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<grpc::GenericStub> stub_;
};

}  // namespace banca::fuzz

#endif  // BANCA_TESTS_FUZZ_SERVICE_HARNESS_H_
