#include "tools/bench/wallet_history.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/ledger/account.h"

namespace banca::bench {
namespace {

v1::Reference Ref(v1::ReferenceKind kind, std::string id) {
  v1::Reference r;
  r.set_kind(kind);
  r.set_id(std::move(id));
  return r;
}

}  // namespace

int64_t WalletHistory::Round(const std::string& player) {
  const int64_t n = ++round_;
  const std::string rid = absl::StrCat("r", n);
  auto commit = [&](const ledger::Committed& c) { writer_(c); };
  int64_t events = 0;
  v1::LedgerTransaction dep;
  dep.set_reason(v1::POSTING_REASON_DEPOSIT);
  *dep.mutable_reference() = Ref(v1::REFERENCE_KIND_PAYMENT, rid);
  auto* a = dep.add_postings();
  a->set_account("external/payments");
  a->set_amount_minor(-10'000);
  auto* b = dep.add_postings();
  b->set_account(ledger::PlayerCashAccount(player));
  b->set_amount_minor(10'000);
  if (ledger_.Post({rid, "f"}, ledger::PlayerOwner(player), dep, commit).ok()) {
    ++events;
  }
  const v1::Reference table = Ref(v1::REFERENCE_KIND_TABLE, "t1");
  if (ledger_
          .PlaceHold({rid + "h", "f"}, player, 4'000, v1::POSTING_REASON_BUY_IN,
                     table, 0, commit)
          .ok()) {
    ++events;
  }
  const std::string hold = writer_.TakeLastHold();
  if (!hold.empty() &&
      ledger_
          .CaptureHold({rid + "c", "f"}, hold, 3'000,
                       absl::StrCat("table/t", n % 50, "/seat/", player),
                       v1::POSTING_REASON_BUY_IN, table, /*final=*/true, commit)
          .ok()) {
    ++events;
  }
  return events;
}

absl::Status WalletHistory::WriteUntil(int64_t total) {
  auto commit = [&](const ledger::Committed& c) { writer_(c); };
  while (opened_ < players_ && writer_.events() < total) {
    (void)ledger_.OpenAccount({absl::StrCat("o", opened_), "f"},
                              absl::StrCat("p", opened_), "EUR", commit);
    ++opened_;
    RETURN_IF_ERROR(writer_.Flush());
  }
  while (writer_.events() < total) {
    Round(absl::StrCat("p", rng_() % players_));
    RETURN_IF_ERROR(writer_.Flush());
  }
  return writer_.Flush(/*all=*/true);
}

}  // namespace banca::bench
