// Prometheus metrics of the tournaments a process hosts, taken from their
// Info at most once a second by the timers' thread:
//   banca_tournament_tournaments{phase}    registering, running, finished,
//                                          cancelled
//   banca_tournament_entries               entrants, over every tournament
//   banca_tournament_prizes_paid_minor     the prizes of the finished ones,
//                                          cents
// (their hands, sagas and answers are the table host's metrics).
#ifndef BANCA_SERVICES_TOURNAMENT_TOURNAMENT_METRICS_H_
#define BANCA_SERVICES_TOURNAMENT_TOURNAMENT_METRICS_H_

#include <array>
#include <cstdint>

#include "banca/v1/tournament.pb.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace banca::tournament {

// What the metrics show, summed over the tournaments.
struct TournamentTotals {
  // By v1::TournamentPhase (UNSPECIFIED..CANCELLED).
  std::array<int64_t, 5> by_phase{};
  int64_t entries = 0;
  int64_t prizes_paid_minor = 0;

  // Adds one tournament (checked: a sum that would overflow stays put).
  void Add(const v1::TournamentInfo& info);
};

class TournamentMetrics {
 public:
  explicit TournamentMetrics(prometheus::Registry& registry);
  void Set(const TournamentTotals& totals);

 private:
  std::array<prometheus::Gauge*, 5> by_phase_{};
  prometheus::Gauge& entries_;
  prometheus::Gauge& prizes_paid_;
};

}  // namespace banca::tournament

#endif  // BANCA_SERVICES_TOURNAMENT_TOURNAMENT_METRICS_H_
