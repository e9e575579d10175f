// The table host (services/common/table_host.h) for tournaments.
#include "libs/tables/seeded_draws.h"
#include "services/common/table_host_impl.h"
#include "services/tournament/tournament_game.h"

namespace banca::tournament {

v1::TournamentEvent TournamentGame::SagaTimedOut(const State& state,
                                                 const std::string& saga_id,
                                                 int64_t now) {
  v1::TournamentEvent e;
  e.set_tournament_id(state.id());
  e.set_at_micros(now);
  // No draw: a refused payment changes no seat. The seed is required of
  // every input; a fixed one is as good as any here.
  e.set_draw_seed(std::string(tables::kDrawSeedBytes, '\0'));
  v1::PaymentRefused* refused = e.mutable_payment_refused();
  refused->set_saga_id(saga_id);
  refused->set_timed_out(true);
  refused->set_reason(std::string(table::kSagaTimedOut));
  return e;
}

}  // namespace banca::tournament

namespace banca::table {
template class TableHost<tournament::TournamentGame>;
}  // namespace banca::table
