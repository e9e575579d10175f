// A server interceptor factory that intercepts banca's own methods only
// ("/banca.*": generated from protobuf, so their messages are
// google::protobuf::Message objects) and leaves gRPC's own (health,
// reflection) alone.
#ifndef BANCA_SERVICES_COMMON_OWN_METHODS_INTERCEPTOR_H_
#define BANCA_SERVICES_COMMON_OWN_METHODS_INTERCEPTOR_H_

#include <string_view>

#include "grpcpp/support/server_interceptor.h"

namespace banca::edge {

inline constexpr std::string_view kOwnMethodsPrefix = "/banca.";

// Makes an `I` (default-constructible grpc::experimental::Interceptor) for
// each call of a banca method.
template <typename I>
class OwnMethodsInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    const char* method = info->method();
    if (method == nullptr ||
        !std::string_view(method).starts_with(kOwnMethodsPrefix)) {
      return nullptr;  // not intercepted
    }
    return new I();
  }
};

}  // namespace banca::edge

#endif  // BANCA_SERVICES_COMMON_OWN_METHODS_INTERCEPTOR_H_
