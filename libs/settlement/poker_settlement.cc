#include "libs/settlement/poker_settlement.h"

#include <map>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
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

namespace {

// The accounts of one hand (each dealt-in seat's and the pot's), with the
// hand's reference and id for the memos.
struct HandAccounts {
  std::map<int, std::string> seats;
  std::string pot;
  v1::Reference ref;
  std::string hand;

  absl::StatusOr<std::string> Seat(int seat) const {
    auto it = seats.find(seat);
    if (it == seats.end()) {
      return absl::InternalError(
          absl::StrCat("hand ", hand, ": seat ", seat, " was not dealt in"));
    }
    return it->second;
  }
};

HandAccounts AccountsOf(const poker::HandRecord& record) {
  HandAccounts a;
  for (const poker::SeatedPlayer& p : record.players) {
    a.seats[p.seat] = SeatAccount(record.table_id, p.player);
  }
  a.pot = PotAccount(record.table_id);
  a.ref = HandReference(record.table_id, record.hand_number);
  a.hand = HandId(record.table_id, record.hand_number);
  return a;
}

// What each seat left in the pot: its bets, or in a void what it gets back.
using Contributed = std::map<int, int64_t>;

absl::StatusOr<Contributed> Contributions(
    const std::string& hand, const poker::HandResult& result,
    absl::Span<const poker::Event> events) {
  Contributed contributed;
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
  return contributed;
}

// The bets, from the seats into the pot; returns what the pot holds.
absl::StatusOr<int64_t> AddBets(const HandAccounts& a,
                                const Contributed& contributed,
                                std::vector<v1::LedgerTransaction>& out) {
  int64_t in_pot = 0;
  v1::LedgerTransaction bets = NewTx(v1::POSTING_REASON_POT_CONTRIBUTION, a.ref,
                                     absl::StrCat("hand ", a.hand, ": bets"));
  for (const auto& [seat, amount] : contributed) {
    if (amount < 0) return absl::InternalError("negative contribution");
    ASSIGN_OR_RETURN(const std::string account, a.Seat(seat));
    AddPosting(bets, account, -amount);
    in_pot += amount;
  }
  AddPosting(bets, a.pot, in_pot);
  if (in_pot > 0) out.push_back(std::move(bets));
  return in_pot;
}

// A void: every bet back to its seat (HE-72). AddBets found every seat.
void AddVoidRefund(const HandAccounts& a, const Contributed& contributed,
                   int64_t in_pot, std::vector<v1::LedgerTransaction>& out) {
  v1::LedgerTransaction refund =
      NewTx(v1::POSTING_REASON_VOID_REFUND, a.ref,
            absl::StrCat("hand ", a.hand, " void (HE-72): bets returned"));
  for (const auto& [seat, amount] : contributed) {
    AddPosting(refund, *a.Seat(seat), amount);
  }
  AddPosting(refund, a.pot, -in_pot);
  if (in_pot > 0) out.push_back(std::move(refund));
}

// Each pot to its winners, then the rake to the house: together exactly
// what the pot holds.
absl::Status AddAwards(const HandAccounts& a, const poker::HandResult& result,
                       int64_t in_pot,
                       std::vector<v1::LedgerTransaction>& out) {
  const std::string& hand = a.hand;
  int64_t paid_out = 0;
  int64_t rake = 0;
  for (size_t i = 0; i < result.pots.size(); ++i) {
    const poker::PotResult& p = result.pots[i];
    v1::LedgerTransaction award = NewTx(
        v1::POSTING_REASON_POT_AWARD, a.ref,
        absl::StrCat("hand ", hand, ": ", i == 0 ? "main pot" : "side pot ",
                     i == 0 ? "" : absl::StrCat(i), " of ", p.amount));
    int64_t shares = 0;
    for (const poker::SeatAmount& s : p.shares) {
      ASSIGN_OR_RETURN(const std::string account, a.Seat(s.seat));
      AddPosting(award, account, s.amount);
      shares += s.amount;
    }
    if (shares + p.rake != p.amount) {
      return absl::InternalError(absl::StrCat("hand ", hand, ": pot ", i,
                                              " of ", p.amount, " pays ",
                                              shares, " plus rake ", p.rake));
    }
    AddPosting(award, a.pot, -shares);
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
    v1::LedgerTransaction r = NewTx(v1::POSTING_REASON_RAKE, a.ref,
                                    absl::StrCat("hand ", hand, ": rake"));
    AddPosting(r, a.pot, -rake);
    AddPosting(r, std::string(kRakeAccount), rake);
    out.push_back(std::move(r));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<v1::LedgerTransaction>> HandTransactions(
    const poker::HandRecord& record, const poker::HandResult& result,
    absl::Span<const poker::Event> events) {
  const HandAccounts accounts = AccountsOf(record);
  ASSIGN_OR_RETURN(const Contributed contributed,
                   Contributions(accounts.hand, result, events));
  std::vector<v1::LedgerTransaction> out;
  ASSIGN_OR_RETURN(const int64_t in_pot, AddBets(accounts, contributed, out));
  if (result.voided) {
    AddVoidRefund(accounts, contributed, in_pot, out);
  } else {
    RETURN_IF_ERROR(AddAwards(accounts, result, in_pot, out));
  }
  return out;
}

}  // namespace banca::settlement
