#include "libs/settlement/poker_settlement.h"

#include <map>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/string_view.h"
#include "libs/money/money.h"
#include "libs/settlement/transaction_parts.h"

namespace banca::settlement {
namespace poker = games::poker;
std::string SeatAccount(std::string_view table_id, std::string_view player) {
  return absl::StrCat("table/", ToAbsl(table_id), "/seat/", ToAbsl(player));
}

std::string PotAccount(std::string_view table_id) {
  return absl::StrCat("table/", ToAbsl(table_id), "/pot");
}

v1::Reference TableReference(std::string_view table_id) {
  return MakeReference(v1::REFERENCE_KIND_TABLE, std::string(table_id));
}

std::string HandId(std::string_view table_id, int64_t hand_number) {
  return absl::StrCat(ToAbsl(table_id), ".h", hand_number);
}

v1::Reference HandReference(std::string_view table_id, int64_t hand_number) {
  return MakeReference(v1::REFERENCE_KIND_HAND, HandId(table_id, hand_number));
}

absl::StatusOr<v1::LedgerTransaction> BuyInTransaction(
    std::string_view table_id, std::string_view player, int64_t paid,
    int64_t rake, bool rebuy) {
  if (paid <= 0 || rake < 0 || rake > paid) {
    return absl::InvalidArgumentError(
        absl::StrCat("buy-in ", paid, " with rake ", rake, " is not valid"));
  }
  v1::LedgerTransaction tx = NewTx(
      v1::POSTING_REASON_BUY_IN, TableReference(table_id),
      absl::StrCat(
          rebuy ? "rebuy " : "buy-in ", paid,
          rake > 0 ? absl::StrCat(", buy-in rake ", rake, " (HE-17b)") : ""));
  AddPosting(tx, absl::StrCat("player/", ToAbsl(player), "/cash"), -paid);
  AddPosting(tx, SeatAccount(table_id, player), paid - rake);
  AddPosting(tx, std::string(kRakeAccount), rake);
  return tx;
}

absl::StatusOr<v1::LedgerTransaction> CashOutTransaction(
    std::string_view table_id, std::string_view player, int64_t stack,
    int64_t rake_refund) {
  if (stack <= 0) {
    return absl::InvalidArgumentError("nothing to cash out");
  }
  if (rake_refund < 0 || rake_refund > money::kMaxAmountMinor - stack) {
    return absl::InvalidArgumentError("the rake refund is out of range");
  }
  v1::LedgerTransaction tx =
      NewTx(v1::POSTING_REASON_TABLE_CASH_OUT, TableReference(table_id),
            rake_refund == 0
                ? absl::StrCat("leaves the table with ", stack, " (HE-10)")
                : absl::StrCat("buy-in compensated: ", stack, " and its rake ",
                               rake_refund, " back (HE-17b)"));
  AddPosting(tx, SeatAccount(table_id, player), -stack);
  if (rake_refund > 0) {
    AddPosting(tx, std::string(kRakeAccount), -rake_refund);
  }
  AddPosting(tx, absl::StrCat("player/", ToAbsl(player), "/cash"),
             stack + rake_refund);
  return tx;
}

absl::StatusOr<std::vector<v1::LedgerTransaction>> HandTransactions(
    const poker::HandRecord& record, const poker::HandResult& result,
    absl::Span<const poker::Event> events) {
  std::map<int, std::string> seat_account;
  for (const poker::SeatedPlayer& p : record.players) {
    seat_account[p.seat] = SeatAccount(record.table_id, p.player);
  }
  const std::string pot = PotAccount(record.table_id);
  const v1::Reference ref = HandReference(record.table_id, record.hand_number);
  const std::string hand = HandId(record.table_id, record.hand_number);
  auto account_of = [&](int seat) -> absl::StatusOr<std::string> {
    auto it = seat_account.find(seat);
    if (it == seat_account.end()) {
      return absl::InternalError(
          absl::StrCat("hand ", hand, ": seat ", seat, " was not dealt in"));
    }
    return it->second;
  };

  // What each seat left in the pot.
  std::map<int, int64_t> contributed;
  bool finished = false;
  for (const poker::Event& e : events) {
    if (const auto* v = std::get_if<poker::HandVoided>(&e)) {
      for (const poker::SeatAmount& r : v->refunds) {
        contributed[r.seat] += r.amount;
      }
    }
    if (std::holds_alternative<poker::HandFinished>(e)) finished = true;
  }
  if (!finished) {
    return absl::FailedPreconditionError(
        absl::StrCat("hand ", hand, " is not finished"));
  }
  if (!result.voided) {
    contributed.clear();
    for (const poker::PlayerResult& p : result.players) {
      contributed[p.seat] = p.bet;
    }
  }

  std::vector<v1::LedgerTransaction> out;
  int64_t in_pot = 0;
  v1::LedgerTransaction bets = NewTx(v1::POSTING_REASON_POT_CONTRIBUTION, ref,
                                     absl::StrCat("hand ", hand, ": bets"));
  for (const auto& [seat, amount] : contributed) {
    if (amount < 0) return absl::InternalError("negative contribution");
    absl::StatusOr<std::string> account = account_of(seat);
    if (!account.ok()) return account.status();
    AddPosting(bets, *account, -amount);
    in_pot += amount;
  }
  AddPosting(bets, pot, in_pot);
  if (in_pot > 0) out.push_back(std::move(bets));

  if (result.voided) {
    v1::LedgerTransaction refund =
        NewTx(v1::POSTING_REASON_VOID_REFUND, ref,
              absl::StrCat("hand ", hand, " void (HE-72): bets returned"));
    for (const auto& [seat, amount] : contributed) {
      AddPosting(refund, *account_of(seat), amount);
    }
    AddPosting(refund, pot, -in_pot);
    if (in_pot > 0) out.push_back(std::move(refund));
    return out;
  }

  int64_t paid_out = 0;
  int64_t rake = 0;
  for (size_t i = 0; i < result.pots.size(); ++i) {
    const poker::PotResult& p = result.pots[i];
    v1::LedgerTransaction award = NewTx(
        v1::POSTING_REASON_POT_AWARD, ref,
        absl::StrCat("hand ", hand, ": ", i == 0 ? "main pot" : "side pot ",
                     i == 0 ? "" : absl::StrCat(i), " of ", p.amount));
    int64_t shares = 0;
    for (const poker::SeatAmount& s : p.shares) {
      absl::StatusOr<std::string> account = account_of(s.seat);
      if (!account.ok()) return account.status();
      AddPosting(award, *account, s.amount);
      shares += s.amount;
    }
    if (shares + p.rake != p.amount) {
      return absl::InternalError(absl::StrCat("hand ", hand, ": pot ", i,
                                              " of ", p.amount, " pays ",
                                              shares, " plus rake ", p.rake));
    }
    AddPosting(award, pot, -shares);
    if (shares > 0) out.push_back(std::move(award));
    paid_out += shares;
    rake += p.rake;
  }
  if (paid_out + rake != in_pot) {
    return absl::InternalError(absl::StrCat("hand ", hand, ": bets ", in_pot,
                                            " but pots pay ", paid_out,
                                            " plus rake ", rake));
  }
  if (rake > 0) {
    v1::LedgerTransaction r = NewTx(v1::POSTING_REASON_RAKE, ref,
                                    absl::StrCat("hand ", hand, ": rake"));
    AddPosting(r, pot, -rake);
    AddPosting(r, std::string(kRakeAccount), rake);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace banca::settlement
