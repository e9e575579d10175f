#include "libs/tables/table_commands.h"

#include <string>

#include "libs/common/status_macros.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {

absl::StatusOr<v1::TableEvent> BuyInRequest(const TableState& state,
                                            const std::string& player, int seat,
                                            int64_t amount, bool rebuy) {
  RETURN_IF_ERROR(state.CheckBuyIn(player, seat, amount, rebuy));
  v1::TableEvent e;
  e.set_table_id(state.id());
  v1::BuyInRequested* r = e.mutable_buy_in_requested();
  r->set_saga_id(state.NextSagaId());
  r->set_player_id(player);
  r->set_seat(rebuy ? state.engine().SeatOf(player).value_or(0) : seat);
  r->set_paid_minor(amount);
  r->set_rake_minor(games::poker::BuyInRake(state.engine().config(), amount));
  r->set_rebuy(rebuy);
  return e;
}

v1::TableEvent HandStart(const TableState& state,
                         absl::Span<const cards::Card> deck, int button_draw) {
  v1::TableEvent e;
  e.set_table_id(state.id());
  v1::HandStarted* h = e.mutable_hand_started();
  h->set_hand_number(state.hands_started() + 1);
  if (state.engine().NeedsButtonDraw()) h->set_button_draw(button_draw);
  for (std::string& c : wire::CardsToStrings(deck)) h->add_deck(std::move(c));
  return e;
}

}  // namespace banca::tables
