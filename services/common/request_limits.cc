#include "services/common/request_limits.h"

#include <string_view>
#include <utility>
#include <vector>

#include "google/protobuf/message.h"
#include "services/common/own_methods_interceptor.h"
#include "services/common/owner_redirect.h"

namespace banca::edge {
namespace {

using grpc::experimental::InterceptionHookPoints;

class UnknownFieldsDiscarder final : public grpc::experimental::Interceptor {
 public:
  void Intercept(
      grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            InterceptionHookPoints::POST_RECV_MESSAGE)) {
      // Null when nothing was read (the client's end of a stream).
      if (void* received = methods->GetRecvMessage(); received != nullptr) {
        static_cast<google::protobuf::Message*>(received)
            ->DiscardUnknownFields();
      }
    }
    methods->Proceed();
  }
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
NewUnknownFieldsDiscarder() {
  return std::make_unique<
      OwnMethodsInterceptorFactory<UnknownFieldsDiscarder>>();
}

void ApplyRequestLimits(grpc::ServerBuilder& builder) {
  builder.SetMaxReceiveMessageSize(kMaxReceiveMessageBytes);
  std::vector<
      std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>
      interceptors;
  interceptors.push_back(NewUnknownFieldsDiscarder());
  // Not a limit: the route to a table's owner as trailing metadata, which
  // every server carries with the limits (owner_redirect.h).
  interceptors.push_back(NewOwnerRedirect());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
}

}  // namespace banca::edge
