// Kafka's murmur2 (org.apache.kafka.common.utils.Utils.murmur2), the hash
// behind PartitionForKey. Exposed for tests against Kafka's own vectors.
#ifndef BANCA_LIBS_EVENTLOG_MURMUR2_H_
#define BANCA_LIBS_EVENTLOG_MURMUR2_H_

#include <cstdint>
#include <string_view>

namespace banca::eventlog::internal {

// The signed 32-bit value Java returns.
int32_t Murmur2(std::string_view data);

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_MURMUR2_H_
