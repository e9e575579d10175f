// The wallet's side of the tournaments' money: the wallet reads
// banca.tournament.requests and, in log order,
//   PaymentRequested -> posts its transaction (the player's cash, or the
//     ticket held for them in this tournament -> prize pool, fees,
//     bounties) under the saga's id; one the ledger refuses (not enough
//     cash, no account) is recorded as RequestRejected under the same id,
//     so the tournament learns the outcome;
//   TournamentMoney -> posts each transaction (prizes, bounties, the
//     overlay, refunds) under "tournament/<id>/money/<n>/<i>".
// Exactly once by deduplication, as for the tables (table_requests.h),
// and a request that can never be carried out is quarantined
// (request_quarantine.h). A tournament debits only its own accounts
// (tournament/<id>/...) and the house's.
#ifndef BANCA_SERVICES_WALLET_TOURNAMENT_REQUESTS_H_
#define BANCA_SERVICES_WALLET_TOURNAMENT_REQUESTS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "banca/v1/tournament.pb.h"
#include "libs/eventlog/event_log.h"
#include "libs/ledger/ledger.h"
#include "services/wallet/request_quarantine.h"
#include "services/wallet/wallet_commands.h"

namespace banca::wallet {

class TournamentRequests {
 public:
  // `partitions`: the wallet topic's. Everything outlives this.
  TournamentRequests(ledger::Ledger& ledger, WalletCommands& commands,
                     RequestQuarantine& quarantine, int partitions);

  // Carries out one record of banca.tournament.requests if its deciding
  // owner is on `wallet_partition` (RequestReader::CarryOut).
  absl::Status CarryOut(const eventlog::StoredRecord& record,
                        int wallet_partition);

 private:
  absl::Status CarryOutPayment(const eventlog::StoredRecord& record,
                               const v1::TournamentEvent& event,
                               int wallet_partition);
  absl::Status CarryOutMoney(const eventlog::StoredRecord& record,
                             const v1::TournamentEvent& event,
                             int wallet_partition);
  bool DecidedHere(std::string_view owner, int wallet_partition) const;

  ledger::Ledger& ledger_;
  WalletCommands& commands_;
  RequestQuarantine& quarantine_;
  const int partitions_;
};

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_TOURNAMENT_REQUESTS_H_
