// The route to a table's owner (docs/architecture.md, "Several table
// processes"): a table host in a table group refuses a call for a table
// another process decides for with UNAVAILABLE whose message ends with
// "; banca-owner: host:port" (the owner the group last announced), and
// the server's OwnerRedirect interceptor copies that address into the
// trailing metadata `banca-owner`, so that clients read the route without
// parsing messages. Every server installs it (request_limits.cc).
#ifndef BANCA_SERVICES_COMMON_OWNER_REDIRECT_H_
#define BANCA_SERVICES_COMMON_OWNER_REDIRECT_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "grpcpp/support/server_interceptor.h"

namespace banca::edge {

inline constexpr std::string_view kOwnerMetadata = "banca-owner";
inline constexpr std::string_view kOwnerMarker = "; banca-owner: ";

// `message` with the owner's address appended as the marker says.
std::string WithOwner(std::string_view message, std::string_view address);
// The address an UNAVAILABLE message names as the owner, if any.
std::optional<std::string> OwnerIn(std::string_view message);

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewOwnerRedirect();

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_OWNER_REDIRECT_H_
