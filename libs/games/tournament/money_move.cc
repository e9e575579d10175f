#include "libs/games/tournament/money_move.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"

namespace banca::games::tournament {

std::string PrizePoolAccount(std::string_view tournament) {
  return absl::StrCat("tournament/", ToAbsl(tournament), "/prize_pool");
}

std::string BountiesAccount(std::string_view tournament) {
  return absl::StrCat("tournament/", ToAbsl(tournament), "/bounties");
}

std::string TicketAccount(std::string_view tournament,
                          std::string_view player) {
  return absl::StrCat("tournament/", ToAbsl(tournament), "/tickets/",
                      ToAbsl(player));
}

std::string CashAccount(std::string_view player) {
  return absl::StrCat("player/", ToAbsl(player), "/cash");
}

std::string_view MoveKindName(MoveKind kind) {
  switch (kind) {
    case MoveKind::kBuyIn:
      return "buy_in";
    case MoveKind::kReentry:
      return "reentry";
    case MoveKind::kRebuy:
      return "rebuy";
    case MoveKind::kAddOn:
      return "addon";
    case MoveKind::kUnregister:
      return "unregister";
    case MoveKind::kCancelRefund:
      return "cancel_refund";
    case MoveKind::kOverlay:
      return "overlay";
    case MoveKind::kPrize:
      return "prize";
    case MoveKind::kBounty:
      return "bounty";
    case MoveKind::kTicketCashOut:
      return "ticket_cash_out";
  }
  return "unknown";
}

void AddPosting(MoneyMove& move, std::string account, int64_t amount) {
  if (amount == 0) return;
  for (auto it = move.postings.begin(); it != move.postings.end(); ++it) {
    if (it->account != account) continue;
    it->amount += amount;  // one posting per account (the ledger's rule)
    if (it->amount == 0) move.postings.erase(it);
    return;
  }
  move.postings.push_back(Posting{std::move(account), amount});
}

}  // namespace banca::games::tournament
