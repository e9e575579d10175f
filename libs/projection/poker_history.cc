#include "libs/projection/poker_history.h"

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/phh.h"
#include "libs/games/poker/phh_extras.h"
#include "libs/settlement/poker_settlement.h"
#include "libs/tables/poker_config.h"
#include "libs/wire/table_codec.h"

namespace banca::projection {
namespace {

namespace poker = games::poker;

// What WritePhh needs beyond the record, as `banca hands export` gives it.
poker::PhhExtras Extras(const poker::HandResult& result,
                        const PokerHandLabels& labels) {
  poker::PhhExtras extras = poker::PhhExtrasOf(result);
  extras.currency = labels.config.currency();
  extras.time_limit_seconds = labels.config.action_seconds();
  extras.table_name = labels.table_name;
  if (labels.started_micros > 0) {
    extras.timestamp = absl::FormatTime(
        "%Y-%m-%dT%H:%M:%SZ", absl::FromUnixMicros(labels.started_micros),
        absl::UTCTimeZone());
  }
  extras.author = "banca reporting";
  extras.event =
      absl::StrCat(labels.table_id, " hand ",
                   settlement::HandId(labels.table_id, labels.number));
  return extras;
}

// Each dealt-in seat's hole cards, from the engine's deal events.
std::map<int, std::vector<std::string>> HoleCards(const poker::Hand& hand) {
  std::map<int, std::vector<std::string>> out;
  for (const poker::Event& e : hand.events()) {
    const auto* dealt = std::get_if<poker::HoleCardsDealt>(&e);
    if (dealt == nullptr) continue;
    out[dealt->seat] = wire::CardsToStrings(
        std::vector<cards::Card>(dealt->cards.begin(), dealt->cards.end()));
  }
  return out;
}

v1::HistorySummary Summary(const poker::HandRecord& record,
                           const poker::HandResult& result,
                           const PokerHandLabels& labels) {
  v1::HistorySummary s;
  s.mutable_reference()->set_kind(v1::REFERENCE_KIND_HAND);
  s.mutable_reference()->set_id(
      settlement::HandId(labels.table_id, labels.number));
  s.set_game("poker");
  s.set_table_id(labels.table_id);
  s.set_number(labels.number);
  s.set_started_micros(labels.started_micros);
  s.set_ended_micros(labels.ended_micros);
  for (const poker::SeatedPlayer& p : record.players) s.add_players(p.player);
  int64_t staked = 0, returned = 0;  // bounded by the stacks: no overflow
  for (const poker::PlayerResult& p : result.players) {
    staked += p.bet;
    returned += p.won;
  }
  s.set_staked_minor(staked);
  s.set_returned_minor(returned);
  s.set_rake_minor(result.rake);
  s.set_voided(result.voided);
  return s;
}

void AddSeats(const poker::HandRecord& record, const poker::Hand& hand,
              v1::PokerHandHistory& ph) {
  std::map<int, std::string> names;
  for (const poker::SeatedPlayer& p : record.players) names[p.seat] = p.player;
  const std::map<int, std::vector<std::string>> holes = HoleCards(hand);
  for (const poker::PlayerResult& p : hand.result().players) {
    v1::PokerSeatHistory* seat = ph.add_seats();
    seat->set_seat(p.seat);
    seat->set_player_id(names[p.seat]);
    seat->set_start_stack_minor(p.start_stack);
    seat->set_end_stack_minor(p.end_stack);
    seat->set_bet_minor(p.bet);
    seat->set_won_minor(p.won);
    seat->set_folded(p.folded);
    seat->set_shown(p.shown);
    if (auto it = holes.find(p.seat); it != holes.end()) {
      for (const std::string& c : it->second) seat->add_hole_cards(c);
    }
  }
  for (const poker::RecordedAction& a : record.actions) {
    v1::PokerActionHistory* action = ph.add_actions();
    action->set_seat(a.seat);
    action->set_player_id(names[a.seat]);
    action->set_action(tables::ActionToProto(a.action.type));
    action->set_amount_minor(a.action.amount);
    action->set_timeout(a.timeout);
  }
}

}  // namespace

absl::StatusOr<v1::GameHistory> PokerHistory(const poker::Hand& hand,
                                             const PokerHandLabels& labels) {
  if (!hand.finished()) {
    return absl::FailedPreconditionError("the hand is still in play");
  }
  const poker::HandRecord record = hand.record();
  const poker::HandResult& result = hand.result();
  v1::GameHistory h;
  *h.mutable_summary() = Summary(record, result, labels);
  h.set_currency(labels.config.currency());
  v1::PokerHandHistory& ph = *h.mutable_poker();
  ph.set_button(record.button);
  ph.set_small_blind_minor(labels.config.small_blind_minor());
  ph.set_big_blind_minor(labels.config.big_blind_minor());
  AddSeats(record, hand, ph);
  for (const std::string& c : wire::CardsToStrings(result.board)) {
    ph.add_board(c);
  }
  for (const poker::PotResult& pot : result.pots) {
    v1::PotView* view = ph.add_pots();
    view->set_amount_minor(pot.amount);
    view->set_rake_minor(pot.rake);
    for (const poker::SeatAmount& share : pot.shares) {
      view->add_winner_seats(share.seat);
      view->add_share_minor(share.amount);
    }
  }
  ph.set_rake_minor(result.rake);
  // Synthetic poker and the limits PHH has no code for have no PHH
  // (UNIMPLEMENTED): their history is the structured one.
  absl::StatusOr<std::string> phh =
      poker::WritePhh(record, Extras(result, labels));
  if (phh.ok() && phh->size() <= kMaxPhhBytes) ph.set_phh(*std::move(phh));
  return h;
}

}  // namespace banca::projection
