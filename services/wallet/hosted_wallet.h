// The wallet as a server hosts it (services/common/hosted_service.h): its
// options built from the server's settings and keys, for `banca serve`.
#ifndef BANCA_SERVICES_WALLET_HOSTED_WALLET_H_
#define BANCA_SERVICES_WALLET_HOSTED_WALLET_H_

#include "services/common/host_context.h"
#include "services/common/hosted_service.h"
#include "services/wallet/wallet_service.h"

namespace banca::wallet {

// The wallet's options on a server: projections under DATA_DIR, the
// server's partitions, currency, keys, metrics and wallet group.
WalletOptions HostedWalletOptions(const edge::HostContext& context);

// "wallet": starts a WalletService with HostedWalletOptions (making its
// projection directory). It may run without a verifier under
// --insecure-dev.
edge::HostedServiceSpec HostedWallet();

}  // namespace banca::wallet

#endif  // BANCA_SERVICES_WALLET_HOSTED_WALLET_H_
