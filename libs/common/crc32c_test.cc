#include "libs/common/crc32c.h"

#include <cstdint>
#include <random>
#include <string>

#include "gtest/gtest.h"

namespace banca {
namespace {

TEST(Crc32c, KnownVectors) {
  const std::string digits = "123456789";
  EXPECT_EQ(Crc32c(digits.data(), digits.size()), 0xE3069283u);
  EXPECT_EQ(Crc32cPortable(digits.data(), digits.size()), 0xE3069283u);

  // RFC 3720 (iSCSI) B.4 vectors.
  std::string zeros(32, '\0');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  std::string ones(32, '\xFF');
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62A8AB43u);
  std::string inc(32, '\0');
  for (int i = 0; i < 32; ++i) inc[i] = static_cast<char>(i);
  EXPECT_EQ(Crc32c(inc.data(), inc.size()), 0x46DD794Eu);
  std::string dec(32, '\0');
  for (int i = 0; i < 32; ++i) dec[i] = static_cast<char>(31 - i);
  EXPECT_EQ(Crc32c(dec.data(), dec.size()), 0x113FDB5Cu);

  EXPECT_EQ(Crc32c(nullptr, 0), 0u);
}

TEST(Crc32c, ExtendEqualsWhole) {
  std::mt19937 rng(7);
  std::string data(4099, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  const uint32_t whole = Crc32c(data.data(), data.size());
  for (size_t split : {0ul, 1ul, 7ul, 8ul, 13ul, 2048ul, 4098ul, 4099ul}) {
    const uint32_t a = Crc32c(data.data(), split);
    EXPECT_EQ(Crc32c(data.data() + split, data.size() - split, a), whole)
        << split;
  }
}

TEST(Crc32c, HardwareMatchesPortableOnEveryLengthAndAlignment) {
  std::mt19937 rng(11);
  std::string data(300, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  for (size_t start = 0; start < 9; ++start) {
    for (size_t n = 0; start + n <= data.size(); ++n) {
      ASSERT_EQ(Crc32c(data.data() + start, n, 0x1234),
                Crc32cPortable(data.data() + start, n, 0x1234))
          << start << " " << n;
    }
  }
}

}  // namespace
}  // namespace banca
