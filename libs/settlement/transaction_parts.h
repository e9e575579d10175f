// What the poker and banked settlements (poker_settlement.h,
// banked_settlement.h) build their ledger transactions from.
#ifndef BANCA_LIBS_SETTLEMENT_TRANSACTION_PARTS_H_
#define BANCA_LIBS_SETTLEMENT_TRANSACTION_PARTS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "banca/v1/ledger.pb.h"

namespace banca::settlement {

// A reference of `kind` to `id` (a table, a hand, a round).
inline v1::Reference MakeReference(v1::ReferenceKind kind, std::string id) {
  v1::Reference ref;
  ref.set_kind(kind);
  ref.set_id(std::move(id));
  return ref;
}

// A transaction of `reason` about `ref`, with no postings yet.
inline v1::LedgerTransaction NewTx(v1::PostingReason reason, v1::Reference ref,
                                   std::string memo) {
  v1::LedgerTransaction tx;
  tx.set_reason(reason);
  *tx.mutable_reference() = std::move(ref);
  tx.set_memo(std::move(memo));
  return tx;
}

// Posts `amount` to `account` in `tx`; nothing for 0 (the ledger refuses
// zero postings).
inline void AddPosting(v1::LedgerTransaction& tx, std::string account,
                       int64_t amount) {
  if (amount == 0) return;
  v1::Posting* p = tx.add_postings();
  p->set_account(std::move(account));
  p->set_amount_minor(amount);
}

}  // namespace banca::settlement

#endif  // BANCA_LIBS_SETTLEMENT_TRANSACTION_PARTS_H_
