// The tournament service as a server hosts it (services/common/
// hosted_service.h): `banca serve --services=...,tournament`.
#ifndef BANCA_SERVICES_TOURNAMENT_HOSTED_TOURNAMENTS_H_
#define BANCA_SERVICES_TOURNAMENT_HOSTED_TOURNAMENTS_H_

#include "services/common/hosted_service.h"

namespace banca::tournament {

// "tournament": a TournamentService on the server's partitions, verifier
// and deck keys.
edge::HostedServiceSpec HostedTournaments();

}  // namespace banca::tournament

#endif  // BANCA_SERVICES_TOURNAMENT_HOSTED_TOURNAMENTS_H_
