#include "services/common/saga_refusals.h"

#include <utility>

namespace banca::table {

bool SagaRefusals::Wait(const std::string& saga) {
  if (waiting_.size() >= limit_ && !waiting_.contains(saga)) return false;
  waiting_.try_emplace(saga);
  return true;
}

void SagaRefusals::Refused(const std::string& saga, std::string why) {
  auto it = waiting_.find(saga);
  if (it != waiting_.end()) it->second = std::move(why);
}

std::optional<std::string> SagaRefusals::Done(const std::string& saga) {
  auto it = waiting_.find(saga);
  if (it == waiting_.end()) return std::nullopt;
  std::optional<std::string> why = std::move(it->second);
  waiting_.erase(it);
  return why;
}

}  // namespace banca::table
