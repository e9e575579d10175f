#include "libs/wire/request_ids.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"

namespace banca::wire {
namespace {

constexpr std::string_view kStakeStep = "/stake";

}  // namespace

std::string StakeSagaId(std::string_view table_id, int64_t n) {
  return absl::StrCat("banked/", ToAbsl(table_id), "/stake/", n);
}

std::string StakeRequestId(std::string_view saga_id) {
  return absl::StrCat(ToAbsl(saga_id), ToAbsl(kStakeStep));
}

std::string SagaOfStakeRequest(std::string_view request_id) {
  const absl::string_view id = ToAbsl(request_id);
  if (!absl::StartsWith(id, "banked/") ||
      !absl::EndsWith(id, ToAbsl(kStakeStep))) {
    return "";
  }
  return std::string(id.substr(0, id.size() - kStakeStep.size()));
}

std::string PaymentSagaId(std::string_view tournament_id, int64_t n) {
  return absl::StrCat("tournament/", ToAbsl(tournament_id), "/pay/", n);
}

std::string TournamentOfPaymentSaga(std::string_view saga_id) {
  std::vector<std::string> parts = absl::StrSplit(ToAbsl(saga_id), '/');
  if (parts.size() != 4 || parts[0] != "tournament" || parts[2] != "pay" ||
      parts[1].empty()) {
    return "";
  }
  return parts[1];
}

std::string TournamentMoneyRequestId(std::string_view tournament_id,
                                     int64_t number, int index) {
  return absl::StrCat("tournament/", ToAbsl(tournament_id), "/money/", number,
                      "/", index);
}

std::string BankedMoneyRequestId(std::string_view event_id, int index) {
  return absl::StrCat(ToAbsl(event_id), "/", index);
}

std::string QuarantineRequestId(std::string_view topic, int partition,
                                int64_t offset) {
  return absl::StrCat("quarantine/", ToAbsl(topic), "/", partition, "/",
                      offset);
}

}  // namespace banca::wire
