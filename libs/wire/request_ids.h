// The ids that tie a table's money request to the wallet's steps for it.
// Both sides derive them from the table's events, so a repeat is the same
// id and the wallet's idempotency index makes it a no-op; `banca audit
// verify` matches the two topics by them.
#ifndef BANCA_LIBS_WIRE_REQUEST_IDS_H_
#define BANCA_LIBS_WIRE_REQUEST_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace banca::wire {

// A banked stake saga's id, "banked/<table>/stake/<n>", and the wallet's
// request id for its one step, "<saga>/stake".
std::string StakeSagaId(std::string_view table_id, int64_t n);
std::string StakeRequestId(std::string_view saga_id);
// The saga id of a wallet request id "<saga>/stake"; empty when it is not
// one.
std::string SagaOfStakeRequest(std::string_view request_id);

// The `index`-th transaction of a BankedMoney event: "<event id>/<index>".
std::string BankedMoneyRequestId(std::string_view event_id, int index);

// A tournament payment saga's id, "tournament/<id>/pay/<n>"; the wallet
// posts its one transaction with the saga id as the request id.
std::string PaymentSagaId(std::string_view tournament_id, int64_t n);
// The tournament of a payment saga id; empty when it is not one.
std::string TournamentOfPaymentSaga(std::string_view saga_id);
// The `index`-th transaction of a TournamentMoney event:
// "tournament/<id>/money/<number>/<index>".
std::string TournamentMoneyRequestId(std::string_view tournament_id,
                                     int64_t number, int index);

// The requester's stream when the record names none the ledger accepts (a
// record that does not decode; an invalid player or table id).
inline constexpr std::string_view kUnnamedRequester = "house/quarantine";

// The RequestQuarantined's request id (an internal id; no client can name
// it): "quarantine/<topic>/<partition>/<offset>", one per record.
std::string QuarantineRequestId(std::string_view topic, int partition,
                                int64_t offset);

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_REQUEST_IDS_H_
