#include "tools/bench/service_route.h"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "services/common/owner_redirect.h"
#include "services/common/transport_security.h"

namespace banca::bench {
namespace {

bool Retryable(const grpc::Status& s) {
  return s.error_code() == grpc::StatusCode::UNAVAILABLE ||
         s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED;
}

// The route a refusal named: its trailing metadata banca-owner ("" none).
std::string OwnerNamed(const grpc::ClientContext& ctx) {
  const auto& trailing = ctx.GetServerTrailingMetadata();
  const auto it = trailing.find(std::string(edge::kOwnerMetadata));
  if (it == trailing.end()) return "";
  return std::string(it->second.data(), it->second.size());
}

bool GoodAddress(const std::string& address) {
  if (address.empty() || address.size() > kMaxRouteAddressBytes) return false;
  return std::all_of(address.begin(), address.end(),
                     [](char c) { return c > 0x20 && c < 0x7f && c != ','; });
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ParseRouteMembers(
    const std::string& list) {
  std::vector<std::string> out;
  const std::vector<std::string> pieces = absl::StrSplit(list, ',');
  for (const std::string& a : pieces) {
    if (!GoodAddress(a)) {
      return absl::InvalidArgumentError(
          absl::StrCat("a target is host:port, 1..", kMaxRouteAddressBytes,
                       " printable characters: not \"",
                       a.substr(0, kMaxRouteAddressBytes), "\""));
    }
    if (std::find(out.begin(), out.end(), a) != out.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("target ", a, " is listed twice"));
    }
    if (out.size() == kMaxRouteMembers) {
      return absl::InvalidArgumentError(
          absl::StrCat("at most ", kMaxRouteMembers, " targets a service"));
    }
    out.emplace_back(a);
  }
  return out;
}

absl::Status CheckServiceTargets(const ServiceTargets& targets) {
  for (const std::vector<std::string>* list :
       {&targets.wallet, &targets.table, &targets.tournament,
        &targets.reporting}) {
    if (list->size() > kMaxRouteMembers) {
      return absl::InvalidArgumentError(
          absl::StrCat("at most ", kMaxRouteMembers, " targets a service"));
    }
    for (size_t i = 0; i < list->size(); ++i) {
      const std::string& a = (*list)[i];
      if (!GoodAddress(a) ||
          std::find(list->begin(), list->begin() + i, a) != list->begin() + i) {
        return absl::InvalidArgumentError(
            absl::StrCat("target \"", a.substr(0, kMaxRouteAddressBytes),
                         "\": host:port, printable, listed once"));
      }
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> MembersOr(const std::vector<std::string>& members,
                                   const std::string& fallback) {
  return members.empty() ? std::vector<std::string>{fallback} : members;
}

ServiceRoute::ServiceRoute(
    std::vector<std::string> members,
    std::shared_ptr<grpc::ChannelCredentials> credentials, RouteLimits limits,
    int connection)
    : members_(std::move(members)),
      credentials_(edge::OrPlaintext(std::move(credentials))),
      limits_(limits),
      connection_(connection) {
  assert(!members_.empty() && members_.size() <= kMaxRouteMembers);
  for (const std::string& m : members_) ChannelTo(m);  // always known
}

std::shared_ptr<grpc::Channel> ServiceRoute::ChannelTo(
    const std::string& address) {
  absl::MutexLock lock(&mu_);
  if (auto it = channels_.find(address); it != channels_.end()) {
    return it->second;
  }
  if (channels_.size() >= kMaxRouteAddresses || !GoodAddress(address)) {
    return nullptr;
  }
  // A process killed and restarted is reached again within a second
  // (gRPC's default backoff between connection attempts grows to 2 min).
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1'000);
  args.SetInt("banca.connection", connection_);
  auto channel = grpc::CreateCustomChannel(address, credentials_, args);
  channels_.emplace(address, channel);
  return channel;
}

std::string ServiceRoute::Start(const std::string& key) {
  absl::MutexLock lock(&mu_);
  if (auto it = members_by_key_.find(key); it != members_by_key_.end()) {
    return it->second;
  }
  return last_.empty() ? members_.front() : last_;
}

void ServiceRoute::Remember(const std::string& key,
                            const std::string& address) {
  absl::MutexLock lock(&mu_);
  last_ = address;
  if (key.empty()) return;
  if (members_by_key_.size() >= kMaxRouteKeys) members_by_key_.clear();
  members_by_key_[key] = address;
}

std::string ServiceRoute::NextMember(const std::string& after) const {
  auto it = std::find(members_.begin(), members_.end(), after);
  if (it == members_.end() || ++it == members_.end()) return members_.front();
  return *it;
}

grpc::Status ServiceRoute::Call(const std::string& token,
                                const std::string& key,
                                const Attempt& attempt) {
  return Run(Start(key), /*fixed=*/false, token, key, attempt);
}

grpc::Status ServiceRoute::CallAt(const std::string& address,
                                  const std::string& token,
                                  const Attempt& attempt) {
  return Run(address, /*fixed=*/true, token, "", attempt);
}

grpc::Status ServiceRoute::Run(std::string address, bool fixed,
                               const std::string& token, const std::string& key,
                               const Attempt& attempt) {
  const absl::Time give_up = absl::Now() + limits_.max_wait;
  const size_t members = fixed ? 1 : members_.size();
  absl::Duration backoff = limits_.first_backoff;
  size_t since_pause = 0;  // retryable answers since the last backoff
  int attempts = 0;
  int64_t redirects = 0;
  grpc::Status status;
  while (attempts < limits_.max_attempts) {
    ++attempts;
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() +
                     absl::ToChronoMilliseconds(limits_.attempt_deadline));
    ctx.AddMetadata("authorization", "Bearer " + token);
    std::shared_ptr<grpc::Channel> channel = ChannelTo(address);
    if (channel == nullptr) {  // a member that is no address
      status = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                            "not a target: \"" + address + "\"");
      break;
    }
    status = attempt(channel, &ctx);
    if (!Retryable(status) || absl::Now() >= give_up) break;
    ++since_pause;
    const std::string owner = fixed ? "" : OwnerNamed(ctx);
    if (!owner.empty() && owner != address && since_pause <= members + 1 &&
        ChannelTo(owner) != nullptr) {
      address = owner;  // the refusal's route, at once
      ++redirects;
      continue;
    }
    if (!fixed) address = NextMember(address);
    if (since_pause >= members) {
      absl::SleepFor(std::min(backoff, give_up - absl::Now()));
      backoff = std::min(backoff * 2, limits_.max_backoff);
      since_pause = 0;
    }
  }
  if (status.ok() && !fixed) Remember(key, address);
  const bool gave_up = Retryable(status);
  {
    absl::MutexLock lock(&mu_);
    ++stats_.calls;
    stats_.redirects += redirects;
    stats_.retries += attempts - 1;
    stats_.gave_up += gave_up ? 1 : 0;
  }
  if (!gave_up) return status;
  return grpc::Status(status.error_code(),
                      absl::StrCat(status.error_message(), " (", attempts,
                                   " attempts, the last at ", address, ")"));
}

RouteStats ServiceRoute::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

}  // namespace banca::bench
