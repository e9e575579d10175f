// Each service's request handling, as a client reaches it: the wallet, the
// poker tables and the banked tables run once in this process
// (service_harness.h), and each input is one unary call sent as raw bytes,
// so the server's own parser, the authorization, the validation and the
// decision all see fuzzed bytes. Any status is fine. A crash, UB, a
// fail-stop (the log refusing an event a request produced) or a ledger
// that no longer sums to zero is a finding, and so is an accepted request
// whose events do not replay (the data directory would not start again).
//
// The streaming RPCs (WatchTable, Play, Relay) are left to the gRPC attack
// tests (tests/integration): a stream is not one request.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>

#include "tests/fuzz/service_harness.h"

namespace {

// How often the services restart (each a few tens of milliseconds).
constexpr int64_t kRunsPerRestart = 2000;

banca::fuzz::ServiceHarness* Harness() {
  static banca::fuzz::ServiceHarness* harness = [] {
    std::string dir = std::filesystem::temp_directory_path().string() +
                      "/banca-services-fuzz-XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) std::abort();
    auto* h = new banca::fuzz::ServiceHarness(dir);
    h->Setup();
    std::atexit([] { delete Harness(); });
    return h;
  }();
  return harness;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  banca::fuzz::ServiceHarness* h = Harness();
  (void)h->Send(std::string_view(reinterpret_cast<const char*>(data), size));
  // The sum is read shard by shard while the services' own threads (buy-in
  // sagas, settlements, expiry) may be committing a transaction that spans
  // two shards: only a sum that stays off zero is a finding.
  int64_t sum = h->LedgerSum();
  for (int tries = 0; sum != 0 && tries < 50; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    sum = h->LedgerSum();
  }
  if (sum != 0) {
    std::fprintf(stderr, "the ledger sums to %lld\n",
                 static_cast<long long>(sum));
    std::abort();
  }
  // Everything accepted must replay: each new record decodes and applies,
  // and now and then the services restart on the log (their own replay).
  if (absl::Status s = h->CheckNewRecords(); !s.ok()) {
    std::fprintf(stderr, "the log no longer replays: %s\n",
                 s.ToString().c_str());
    std::abort();
  }
  static int64_t runs = 0;
  if (++runs % kRunsPerRestart == 0) h->Restart();
  return 0;
}
