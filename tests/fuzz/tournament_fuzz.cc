// The tournament aggregate (libs/tables/tournament_state.h) under hostile
// commands: the input is read as a script (FuzzedDataProvider) of events
// a client or a forged log could bring — payments of any kind and amount,
// captures and refusals of sagas that may not exist, starts, hands with
// any deck, actions of any type and amount by anyone, away flags, levels,
// cancellations — each applied with its seed. A refused event is fine; a
// crash, UB or a broken invariant (BANCA_CHECK) is a finding. At the end
// the applied events are replayed into a fresh aggregate, which must come
// to the same tournament (ApplyLogged: the same money, the same state).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/cards/card.h"
#include "libs/tables/seeded_draws.h"
#include "libs/tables/tournament_state.h"

namespace {

using banca::v1::TournamentEvent;

TournamentEvent Created() {
  TournamentEvent e;
  e.set_tournament_id("tf1");
  e.set_draw_seed(std::string(banca::tables::kDrawSeedBytes, '\1'));
  banca::v1::TournamentCreated* c = e.mutable_created();
  c->set_tournament_id("tf1");
  banca::v1::TournamentConfig* k = c->mutable_config();
  k->set_seats_per_table(3);
  k->set_starting_chips(100);
  k->set_buy_in_minor(1'000);
  k->set_fee_bps(1'000);
  k->set_bounty_minor(100);
  k->set_guarantee_minor(10'000);
  k->add_payouts_bps(7'000);
  k->add_payouts_bps(3'000);
  for (int i = 1; i <= 3; ++i) {
    banca::v1::TournamentLevel* l = k->add_levels();
    l->set_small_blind(5 * i);
    l->set_big_blind(10 * i);
    l->set_seconds(60);
  }
  k->mutable_rebuy()->set_price_minor(500);
  k->mutable_rebuy()->set_chips(100);
  k->mutable_rebuy()->set_max(2);
  k->mutable_rebuy()->set_until_level(2);
  k->mutable_addon()->set_price_minor(500);
  k->mutable_addon()->set_chips(200);
  k->mutable_addon()->set_max(1);
  k->mutable_addon()->set_until_level(2);
  k->mutable_reentry()->set_max(1);
  k->mutable_reentry()->set_until_level(2);
  k->set_late_registration_level(1);
  return e;
}

std::string Player(FuzzedDataProvider& in) {
  return absl::StrCat("p", in.ConsumeIntegralInRange<int>(0, 9));
}

// One event from the script, or none when the input is spent.
TournamentEvent Next(FuzzedDataProvider& in,
                     const banca::tables::TournamentState& s, int64_t n) {
  TournamentEvent e;
  e.set_tournament_id("tf1");
  e.set_at_micros(n * 1'000'000);
  e.set_draw_seed(
      std::string(banca::tables::kDrawSeedBytes, static_cast<char>(n & 0x7f)));
  switch (in.ConsumeIntegralInRange<int>(0, 10)) {
    case 0: {
      const auto kind = static_cast<banca::v1::TournamentPaymentKind>(
          in.ConsumeIntegralInRange<int>(0, 5));
      absl::StatusOr<TournamentEvent> quoted =
          s.PaymentEvent(Player(in), kind, in.ConsumeBool());
      if (quoted.ok() && in.ConsumeBool()) {
        *e.mutable_payment_requested() = quoted->payment_requested();
      } else {  // forged: any saga, any transaction
        banca::v1::PaymentRequested* r = e.mutable_payment_requested();
        r->set_saga_id(absl::StrCat("tournament/tf1/pay/",
                                    in.ConsumeIntegralInRange<int>(0, 40)));
        r->set_player_id(Player(in));
        r->set_kind(kind);
        banca::v1::Posting* p = r->mutable_tx()->add_postings();
        p->set_account("player/p1/cash");
        p->set_amount_minor(in.ConsumeIntegral<int64_t>());
      }
      break;
    }
    case 1:
      e.mutable_payment_captured()->set_saga_id(absl::StrCat(
          "tournament/tf1/pay/", in.ConsumeIntegralInRange<int>(0, 40)));
      break;
    case 2:
      e.mutable_payment_refused()->set_saga_id(absl::StrCat(
          "tournament/tf1/pay/", in.ConsumeIntegralInRange<int>(0, 40)));
      e.mutable_payment_refused()->set_timed_out(in.ConsumeBool());
      break;
    case 3:
      e.mutable_unregistered()->set_player_id(Player(in));
      break;
    case 4:
      e.mutable_started();
      break;
    case 5: {
      banca::v1::TournamentHandStarted* h = e.mutable_hand_started();
      h->set_table(absl::StrCat("t", in.ConsumeIntegralInRange<int>(0, 4)));
      h->set_hand_number(in.ConsumeBool()
                             ? s.director().HandsPlayedAt(h->table()) + 1
                             : in.ConsumeIntegral<int64_t>());
      std::vector<int> order;
      for (int i = 0; i < banca::cards::kNumCards; ++i) order.push_back(i);
      for (int i = banca::cards::kNumCards - 1; i > 0; --i) {
        std::swap(order[i], order[in.ConsumeIntegralInRange<int>(0, i)]);
      }
      const int cards = in.ConsumeIntegralInRange<int>(0, 52);
      for (int i = 0; i < cards; ++i) {
        h->add_deck(banca::cards::CardToString(
            banca::cards::Card::FromIndex(order[i])));
      }
      break;
    }
    case 6: {
      banca::v1::TournamentActed* a = e.mutable_acted();
      a->set_player_id(Player(in));
      a->set_action(static_cast<banca::v1::PokerActionType>(
          in.ConsumeIntegralInRange<int>(0, 9)));
      a->set_amount(in.ConsumeIntegralInRange<int64_t>(-10, 5'000));
      a->set_timeout(in.ConsumeBool());
      break;
    }
    case 7:
      e.mutable_away()->set_player_id(Player(in));
      e.mutable_away()->set_away(in.ConsumeBool());
      break;
    case 8:
      e.mutable_level_started()->set_level(
          in.ConsumeBool() ? s.director().level() + 2
                           : in.ConsumeIntegralInRange<int>(-1, 6));
      break;
    case 9:
      e.mutable_cancelled()->set_reason("fuzz");
      break;
    default:
      e.clear_kind();  // a record with nothing in it
  }
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using banca::tables::TournamentState;
  FuzzedDataProvider in(data, size);
  const TournamentEvent created = Created();
  absl::StatusOr<std::unique_ptr<TournamentState>> live =
      TournamentState::Open(created);
  if (!live.ok()) std::abort();  // the fixed configuration is valid
  std::vector<TournamentEvent> log;
  for (int64_t n = 1; in.remaining_bytes() > 0 && n <= 400; ++n) {
    TournamentEvent e = Next(in, **live, n);
    std::vector<TournamentEvent> derived;
    if (!(*live)->Apply(e, &derived).ok()) continue;
    log.push_back(std::move(e));
    for (TournamentEvent& d : derived) log.push_back(std::move(d));
  }
  // The log replays to the same tournament.
  absl::StatusOr<std::unique_ptr<TournamentState>> replayed =
      TournamentState::Open(created);
  for (const TournamentEvent& e : log) {
    if (!(*replayed)->ApplyLogged(e).ok()) std::abort();
  }
  if ((*replayed)->Info().SerializeAsString() !=
          (*live)->Info().SerializeAsString() ||
      (*replayed)->Standings().SerializeAsString() !=
          (*live)->Standings().SerializeAsString()) {
    std::abort();
  }
  return 0;
}
