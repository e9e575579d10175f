#include "services/common/caller_streams.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace banca::table {

CallerStreams::Ticket::Ticket(Ticket&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)),
      caller_(std::move(other.caller_)) {}

CallerStreams::Ticket& CallerStreams::Ticket::operator=(
    Ticket&& other) noexcept {
  if (this != &other) {
    Release();
    owner_ = std::exchange(other.owner_, nullptr);
    caller_ = std::move(other.caller_);
  }
  return *this;
}

CallerStreams::Ticket::~Ticket() { Release(); }

void CallerStreams::Ticket::Release() {
  if (owner_ != nullptr) std::exchange(owner_, nullptr)->Close(caller_);
}

absl::StatusOr<CallerStreams::Ticket> CallerStreams::Open(
    const std::string& caller) {
  absl::MutexLock lock(&mu_);
  int& n = open_[caller];
  if (n >= max_per_caller_) {
    if (n == 0) open_.erase(caller);
    return absl::ResourceExhaustedError(
        absl::StrCat("at most ", max_per_caller_, " ", what_,
                     " per caller: ", caller, " has ", n, " open"));
  }
  ++n;
  return Ticket(this, caller);
}

int CallerStreams::open(const std::string& caller) const {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(caller);
  return it == open_.end() ? 0 : it->second;
}

void CallerStreams::Close(const std::string& caller) {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(caller);
  if (it == open_.end()) return;
  if (--it->second <= 0) open_.erase(it);
}

}  // namespace banca::table
