#include "libs/games/tournament/limits.h"

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::games::tournament {

absl::Status CheckAmount(std::string_view field, int64_t amount) {
  if (amount < 0 || amount > kMaxAmountMinor) {
    return absl::InvalidArgumentError(absl::StrCat(
        ToAbsl(field), ": ", amount, " cents is outside 0..", kMaxAmountMinor));
  }
  return absl::OkStatus();
}

absl::Status CheckChips(std::string_view field, int64_t chips) {
  if (chips < 0 || chips > kMaxChips) {
    return absl::InvalidArgumentError(absl::StrCat(
        ToAbsl(field), ": ", chips, " chips is outside 0..", kMaxChips));
  }
  return absl::OkStatus();
}

absl::Status CheckPlayerId(std::string_view field, std::string_view player) {
  if (player.empty() || player.size() > kMaxPlayerIdBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(field), ": a player id is 1..", kMaxPlayerIdBytes,
                     " bytes, not ", player.size()));
  }
  return absl::OkStatus();
}

absl::Status CheckCount(std::string_view field, size_t size, size_t max) {
  if (size < 1 || size > max) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(field), ": ", size, " items is outside 1..", max));
  }
  return absl::OkStatus();
}

}  // namespace banca::games::tournament
