// The reporting service as a server hosts it (services/common/
// hosted_service.h): `banca serve --services=...,reporting`.
#ifndef BANCA_SERVICES_REPORTING_HOSTED_REPORTING_H_
#define BANCA_SERVICES_REPORTING_HOSTED_REPORTING_H_

#include "services/common/hosted_service.h"

namespace banca::reporting {

// "reporting": a ReportingService with its projections under
// DATA_DIR/projections/reporting, the server's verifier and currency.
edge::HostedServiceSpec HostedReporting();

}  // namespace banca::reporting

#endif  // BANCA_SERVICES_REPORTING_HOSTED_REPORTING_H_
