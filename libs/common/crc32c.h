// CRC32C (Castagnoli), the checksum of the event-log record frames.
#ifndef BANCA_LIBS_COMMON_CRC32C_H_
#define BANCA_LIBS_COMMON_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace banca {

// Extends `init` (the CRC of the bytes before `data`, 0 for none) over
// `data[0, n)`: Crc32c(b, nb, Crc32c(a, na)) == Crc32c(a ++ b). Uses the
// SSE4.2 crc32 instruction when the CPU has it.
uint32_t Crc32c(const void* data, size_t n, uint32_t init = 0);

// The portable path, exposed so tests can check both give the same answer.
uint32_t Crc32cPortable(const void* data, size_t n, uint32_t init = 0);

// True when Crc32c uses the hardware instruction.
bool Crc32cIsHardwareAccelerated();

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_CRC32C_H_
