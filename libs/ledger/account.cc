#include "libs/ledger/account.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"

namespace banca::ledger {

std::string_view AccountClassName(AccountClass c) {
  switch (c) {
    case AccountClass::kPlayer:
      return "player";
    case AccountClass::kTable:
      return "table";
    case AccountClass::kGame:
      return "game";
    case AccountClass::kTournament:
      return "tournament";
    case AccountClass::kHouse:
      return "house";
    case AccountClass::kExternal:
      return "external";
  }
  return "unknown";
}

bool IsValidId(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdBytes) return false;
  // A leading letter or digit keeps "." and ".." (and hidden-file-like names)
  // out of account paths.
  const char first = id[0];
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') ||
        (first >= '0' && first <= '9'))) {
    return false;
  }
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

absl::StatusOr<AccountInfo> ParseAccount(std::string_view name) {
  auto invalid = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid account \"", ToAbsl(name.substr(0, 64)),
                     name.size() > 64 ? "…" : "", "\": ", ToAbsl(why)));
  };
  if (name.empty()) return invalid("empty");
  if (name.size() > kMaxAccountNameBytes) return invalid("name too long");
  std::vector<absl::string_view> parts = absl::StrSplit(ToAbsl(name), '/');
  if (parts.size() < 2) return invalid("expected <class>/<id>[/...]");
  for (absl::string_view part : parts) {
    if (!IsValidId(ToStd(part))) {
      return invalid("each part must be 1-64 of [A-Za-z0-9_.-]");
    }
  }
  AccountInfo info;
  const absl::string_view cls = parts[0];
  if (cls == "player") {
    if (parts.size() != 3 || (parts[2] != "cash" && parts[2] != "held")) {
      return invalid("player accounts are player/<id>/cash or /held");
    }
    info.account_class = AccountClass::kPlayer;
    info.player_id = std::string(parts[1]);
    info.owner = PlayerOwner(ToStd(parts[1]));
    return info;
  }
  if (cls == "table") {
    info.account_class = AccountClass::kTable;
  } else if (cls == "game") {
    info.account_class = AccountClass::kGame;
  } else if (cls == "tournament") {
    info.account_class = AccountClass::kTournament;
  } else if (cls == "house") {
    info.account_class = AccountClass::kHouse;
    info.hot = true;
  } else if (cls == "external") {
    info.account_class = AccountClass::kExternal;
    info.hot = true;
  } else {
    return invalid("unknown account class");
  }
  info.owner = std::string(name);
  return info;
}

std::string PlayerCashAccount(std::string_view player_id) {
  return absl::StrCat("player/", ToAbsl(player_id), "/cash");
}
std::string PlayerHeldAccount(std::string_view player_id) {
  return absl::StrCat("player/", ToAbsl(player_id), "/held");
}
std::string PlayerOwner(std::string_view player_id) {
  return absl::StrCat("player/", ToAbsl(player_id));
}

}  // namespace banca::ledger
