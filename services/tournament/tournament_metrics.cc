#include "services/tournament/tournament_metrics.h"

#include <string>

#include "absl/strings/ascii.h"

namespace banca::tournament {
namespace {

// "registering" for TOURNAMENT_PHASE_REGISTERING.
std::string PhaseLabel(int phase) {
  std::string name =
      v1::TournamentPhase_Name(static_cast<v1::TournamentPhase>(phase));
  const std::string prefix = "TOURNAMENT_PHASE_";
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  return absl::AsciiStrToLower(name);
}

// Prometheus samples are doubles; whole cents below 2^53 convert exactly,
// and this is only on the way out to the metrics endpoint.
double Exported(int64_t v) { return static_cast<double>(v); }

}  // namespace

void TournamentTotals::Add(const v1::TournamentInfo& info) {
  const int phase = info.phase();
  if (phase >= 0 && phase < static_cast<int>(by_phase.size())) {
    ++by_phase[phase];
  }
  int64_t sum = 0;
  if (!__builtin_add_overflow(entries, int64_t{info.entrants()}, &sum)) {
    entries = sum;
  }
  if (info.phase() != v1::TOURNAMENT_PHASE_FINISHED) return;
  for (int64_t prize : info.prizes_minor()) {
    if (!__builtin_add_overflow(prizes_paid_minor, prize, &sum)) {
      prizes_paid_minor = sum;
    }
  }
}

TournamentMetrics::TournamentMetrics(prometheus::Registry& registry)
    : entries_(prometheus::BuildGauge()
                   .Name("banca_tournament_entries")
                   .Help("Entrants of the tournaments the process hosts")
                   .Register(registry)
                   .Add({})),
      prizes_paid_(prometheus::BuildGauge()
                       .Name("banca_tournament_prizes_paid_minor")
                       .Help("Prizes of the finished tournaments the process "
                             "hosts, cents")
                       .Register(registry)
                       .Add({})) {
  auto& phases = prometheus::BuildGauge()
                     .Name("banca_tournament_tournaments")
                     .Help("Tournaments the process hosts, by phase")
                     .Register(registry);
  for (int p = 1; p < static_cast<int>(by_phase_.size()); ++p) {
    by_phase_[p] = &phases.Add({{"phase", PhaseLabel(p)}});
  }
}

void TournamentMetrics::Set(const TournamentTotals& totals) {
  for (int p = 1; p < static_cast<int>(by_phase_.size()); ++p) {
    by_phase_[p]->Set(Exported(totals.by_phase[p]));
  }
  entries_.Set(Exported(totals.entries));
  prizes_paid_.Set(Exported(totals.prizes_paid_minor));
}

}  // namespace banca::tournament
