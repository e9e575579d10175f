#include "services/common/owner_redirect.h"

#include <utility>

#include "grpcpp/grpcpp.h"
#include "services/common/own_methods_interceptor.h"

namespace banca::edge {
namespace {

using grpc::experimental::InterceptionHookPoints;

// An advertised address is at most this long (table_group.h's limit);
// anything longer in a message is not a route.
constexpr size_t kMaxOwnerBytes = 255;

class OwnerRedirect final : public grpc::experimental::Interceptor {
 public:
  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status status = methods->GetSendStatus();
      if (status.error_code() == grpc::StatusCode::UNAVAILABLE) {
        if (std::optional<std::string> owner = OwnerIn(status.error_message());
            owner && methods->GetSendTrailingMetadata() != nullptr) {
          methods->GetSendTrailingMetadata()->emplace(kOwnerMetadata,
                                                      std::move(*owner));
        }
      }
    }
    methods->Proceed();
  }
};

}  // namespace

std::string WithOwner(std::string_view message, std::string_view address) {
  std::string out(message);
  out.append(kOwnerMarker);
  out.append(address);
  return out;
}

std::optional<std::string> OwnerIn(std::string_view message) {
  const size_t at = message.rfind(kOwnerMarker);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view owner = message.substr(at + kOwnerMarker.size());
  if (owner.empty() || owner.size() > kMaxOwnerBytes) return std::nullopt;
  for (char c : owner) {
    // Metadata values must be printable ASCII.
    if (c < 0x21 || c > 0x7e) return std::nullopt;
  }
  return std::string(owner);
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewOwnerRedirect() {
  return std::make_unique<OwnMethodsInterceptorFactory<OwnerRedirect>>();
}

}  // namespace banca::edge
