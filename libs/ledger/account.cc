#include "libs/ledger/account.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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
  // Split on '/' without allocating: at most a handful of parts.
  constexpr size_t kMaxParts = 8;
  std::string_view parts[kMaxParts];
  size_t count = 0;
  for (size_t begin = 0;;) {
    const size_t slash = name.find('/', begin);
    if (count == kMaxParts) return invalid("too many parts");
    parts[count++] = name.substr(
        begin, slash == std::string_view::npos ? slash : slash - begin);
    if (slash == std::string_view::npos) break;
    begin = slash + 1;
  }
  if (count < 2) return invalid("expected <class>/<id>[/...]");
  for (size_t i = 0; i < count; ++i) {
    if (!IsValidId(parts[i])) {
      return invalid("each part must be 1-64 of [A-Za-z0-9_.-]");
    }
  }
  AccountInfo info;
  const std::string_view cls = parts[0];
  if (cls == "player") {
    if (count != 3 || (parts[2] != "cash" && parts[2] != "held")) {
      return invalid("player accounts are player/<id>/cash or /held");
    }
    info.account_class = AccountClass::kPlayer;
    info.player_id = parts[1];
    // "player/<id>" is the name up to its second slash.
    info.owner = name.substr(0, cls.size() + 1 + parts[1].size());
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
  info.owner = name;
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
