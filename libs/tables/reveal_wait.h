// Replaying a table's events without a deck key (the audit, `banca hands
// export`): a sealed deal (sealed_decks.h) cannot be applied until the event
// that ends it reveals its deck, so the table's events wait from the deal
// to its reveal, then go to the replay in their order with the deck filled
// in. Events of a deal still in play when the reading stops stay held: no
// reader without the key learns a card before the rules reveal it.
//
// One RevealWait per table; `Decoded` is a decoded record with an `event`
// member (wire::DecodedTableEvent, wire::DecodedBankedEvent).
#ifndef BANCA_LIBS_TABLES_REVEAL_WAIT_H_
#define BANCA_LIBS_TABLES_REVEAL_WAIT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/tables/sealed_decks.h"

namespace banca::tables {

template <typename Decoded>
class RevealWait {
 public:
  // A deal is a few hundred events; this bounds what a damaged log (a deal
  // never revealed) can make a reader hold.
  static constexpr size_t kMaxHeldEvents = 100'000;

  // The events that can be applied now, in order: none while a sealed deal
  // waits for its reveal, then the deal and all that followed it.
  absl::StatusOr<std::vector<Decoded>> Take(Decoded decoded) {
    std::vector<Decoded> ready;
    if (held_.empty()) {
      const std::optional<int64_t> deal = SealedDealNumber(decoded.event);
      if (!deal) {
        ready.push_back(std::move(decoded));
        return ready;
      }
      deal_ = *deal;
      held_.push_back(std::move(decoded));
      return ready;
    }
    if (held_.size() >= kMaxHeldEvents) {
      return absl::DataLossError(absl::StrCat("deal ", deal_,
                                              " is not revealed within ",
                                              kMaxHeldEvents, " events"));
    }
    held_.push_back(std::move(decoded));
    const auto* deck = RevealedDeck(held_.back().event, deal_);
    if (deck == nullptr) return ready;
    if (deck->empty()) {
      return absl::DataLossError(
          absl::StrCat("deal ", deal_, " ends without revealing its deck"));
    }
    FillDeck(held_.front().event, *deck);
    ready.swap(held_);
    return ready;
  }

  // The sealed deal whose reveal is awaited, if any.
  std::optional<int64_t> waiting_for() const {
    return held_.empty() ? std::nullopt : std::optional<int64_t>(deal_);
  }

 private:
  int64_t deal_ = 0;
  std::vector<Decoded> held_;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_REVEAL_WAIT_H_
