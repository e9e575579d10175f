// What the fuzz targets share: splitting one input into several records.
//
// A sequence target reads its input as records in FuzzedDataProvider's
// random-length-string form (a record ends at a backslash followed by any
// other byte; a doubled backslash is one literal backslash), so libFuzzer's
// mutations can add, drop and change records independently.
// tests/fuzz/make_seeds.cc writes seeds in this form (EncodeSequence).
#ifndef BANCA_TESTS_FUZZ_FUZZ_INPUT_H_
#define BANCA_TESTS_FUZZ_FUZZ_INPUT_H_

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace banca::fuzz {

// At most this many records per input: bounds one run's time.
inline constexpr size_t kMaxSequenceRecords = 256;

inline std::vector<std::string> SplitSequence(const uint8_t* data,
                                              size_t size) {
  FuzzedDataProvider in(data, size);
  std::vector<std::string> records;
  while (in.remaining_bytes() > 0 && records.size() < kMaxSequenceRecords) {
    records.push_back(in.ConsumeRandomLengthString(size));
  }
  return records;
}

// The inverse of SplitSequence, for seeds.
inline std::string EncodeSequence(const std::vector<std::string>& records) {
  std::string out;
  for (const std::string& r : records) {
    for (char c : r) {
      out += c;
      if (c == '\\') out += '\\';
    }
    out += "\\\n";
  }
  return out;
}

}  // namespace banca::fuzz

#endif  // BANCA_TESTS_FUZZ_FUZZ_INPUT_H_
