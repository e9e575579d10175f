#include "services/common/hosted_service.h"

namespace banca::edge {

// Out of line: this file holds the interface's vtable.
HostedService::~HostedService() = default;

}  // namespace banca::edge
