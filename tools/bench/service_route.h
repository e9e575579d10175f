// The client side of the route to a service's deciding process
// (docs/architecture.md, "Several wallet processes" and "Several table
// processes"), which every bot calls through (game_bots.h,
// tournament_bots.h, reporting_checks.h): one ServiceRoute per service,
// over the addresses of its processes (its members).
//
// A call goes to the member that last answered for its key (a table's, a
// tournament's or a player's id; else the first member) and is tried again
// while the answer is retryable:
// - UNAVAILABLE with the trailing metadata `banca-owner: host:port`
//   (services/common/owner_redirect.h: a table group's process refusing a
//   table another decides for): at once at that address;
// - UNAVAILABLE without one (a wallet group's member refusing a player
//   another owns, a gate closed too long, a process down or restarting)
//   and DEADLINE_EXCEEDED: at the next member; after every member has been
//   tried, after a backoff (doubling, at most RouteLimits::max_backoff).
// The call is the same request every time (its request id with it), so a
// repeat of a command that was carried out before its answer was lost is
// answered with the original result and appends nothing (invariant 5).
// A call gives up after RouteLimits::max_attempts attempts or max_wait,
// with the last answer. The first answer that is not retryable is the
// call's answer, and its member is remembered for the key.
#ifndef BANCA_TOOLS_BENCH_SERVICE_ROUTE_H_
#define BANCA_TOOLS_BENCH_SERVICE_ROUTE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"

namespace banca::bench {

// Addresses a route knows: its members and the owners it was sent to.
inline constexpr int kMaxRouteMembers = 16;
inline constexpr int kMaxRouteAddresses = 64;
// host:port, as table_group.h's advertised address.
inline constexpr size_t kMaxRouteAddressBytes = 255;
// Keys whose member is remembered; past this the memory starts again.
inline constexpr size_t kMaxRouteKeys = 100'000;

struct RouteLimits {
  absl::Duration attempt_deadline = absl::Seconds(10);
  int max_attempts = 200;
  absl::Duration max_wait = absl::Seconds(90);
  absl::Duration first_backoff = absl::Milliseconds(20);
  absl::Duration max_backoff = absl::Seconds(1);
};

// What a route did, for a run's report.
struct RouteStats {
  int64_t calls = 0;
  int64_t redirects = 0;  // banca-owner routes followed
  int64_t retries = 0;    // attempts after a retryable answer, redirects too
  int64_t gave_up = 0;    // calls that ended on a retryable answer
};

// "host:port,host:port" as its addresses: 1..kMaxRouteMembers, each
// non-empty printable ASCII of at most kMaxRouteAddressBytes with no
// spaces, no repeats; INVALID_ARGUMENT naming the bad one.
absl::StatusOr<std::vector<std::string>> ParseRouteMembers(
    const std::string& list);

// `members` when given, else {fallback}: a service's members when only one
// address was given for every service.
std::vector<std::string> MembersOr(const std::vector<std::string>& members,
                                   const std::string& fallback);

// Each service's processes: a wallet group's members, a table group's
// (poker and banked tables), the tournaments', reporting's. Empty: the
// one address given for every service.
struct ServiceTargets {
  std::vector<std::string> wallet, table, tournament, reporting;
};

// Each list as ParseRouteMembers takes it (empty lists too).
absl::Status CheckServiceTargets(const ServiceTargets& targets);

class ServiceRoute {
 public:
  // One attempt on `channel`, whose context carries the caller's token
  // and the attempt's deadline.
  using Attempt = std::function<grpc::Status(
      const std::shared_ptr<grpc::Channel>& channel, grpc::ClientContext*)>;

  // `members`: 1..kMaxRouteMembers addresses (ParseRouteMembers);
  // `credentials`: the transport (transport_security.h), null plaintext.
  // Routes with different `connection`s open connections of their own
  // to the same address.
  ServiceRoute(std::vector<std::string> members,
               std::shared_ptr<grpc::ChannelCredentials> credentials,
               RouteLimits limits = {}, int connection = 0);
  ServiceRoute(const ServiceRoute&) = delete;
  ServiceRoute& operator=(const ServiceRoute&) = delete;

  // Calls `attempt` as the header says, with "authorization: Bearer
  // <token>"; `key` names what the call is about ("" nothing).
  grpc::Status Call(const std::string& token, const std::string& key,
                    const Attempt& attempt);

  // Call with a stub of `Service` on each attempt's channel:
  // `call(stub, context)`.
  template <typename Service, typename Do>
  grpc::Status On(const std::string& token, const std::string& key, Do&& call) {
    return Call(token, key,
                [&](const std::shared_ptr<grpc::Channel>& channel,
                    grpc::ClientContext* context) {
                  std::unique_ptr<typename Service::Stub> stub =
                      Service::NewStub(channel);
                  return call(*stub, context);
                });
  }

  // Calls `attempt` at `address` only (one of the members), retried
  // there as Call retries: for what each member answers for itself
  // (a table process lists only its own tables).
  grpc::Status CallAt(const std::string& address, const std::string& token,
                      const Attempt& attempt);

  const std::vector<std::string>& members() const { return members_; }
  RouteStats stats() const;

 private:
  // `fixed`: every attempt at the first address.
  grpc::Status Run(std::string address, bool fixed, const std::string& token,
                   const std::string& key, const Attempt& attempt);
  std::shared_ptr<grpc::Channel> ChannelTo(const std::string& address);
  std::string Start(const std::string& key);
  void Remember(const std::string& key, const std::string& address);
  std::string NextMember(const std::string& after) const;

  const std::vector<std::string> members_;
  const std::shared_ptr<grpc::ChannelCredentials> credentials_;
  const RouteLimits limits_;
  const int connection_;

  mutable absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<grpc::Channel>> channels_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::string> members_by_key_
      ABSL_GUARDED_BY(mu_);
  std::string last_ ABSL_GUARDED_BY(mu_);  // the member that last answered
  RouteStats stats_ ABSL_GUARDED_BY(mu_);
};

}  // namespace banca::bench

#endif  // BANCA_TOOLS_BENCH_SERVICE_ROUTE_H_
