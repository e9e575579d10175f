// The wallet's request ids for what banca.banked.requests asks of it
// (banked_requests.cc carries them out; `banca audit verify` matches the
// two topics by them): derived from the table's events, so a repeat is
// the same id and the idempotency index makes it a no-op.
#ifndef BANCA_SERVICES_WALLET_BANKED_REQUESTS_H_
#define BANCA_SERVICES_WALLET_BANKED_REQUESTS_H_

#include <string>
#include <string_view>

namespace banca::wallet {

// The consumer group whose committed position says how far the wallet has
// carried out the banked tables' requests (durably).
inline constexpr std::string_view kBankedRequestsGroup =
    "wallet.banked-requests";

// A StakeRequested's stake: "<saga>/stake".
std::string BankedStakeRequestId(std::string_view saga_id);
// The `index`-th transaction of a BankedMoney event: "<event id>/<index>".
std::string BankedMoneyRequestId(std::string_view event_id, int index);

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_BANKED_REQUESTS_H_
