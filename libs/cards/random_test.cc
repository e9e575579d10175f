// Unit tests of the randomness layer and the statistical acceptance tests.
//
// Statistical tests: each is a hypothesis test of "the shuffle/integers are
// uniform and independent" at significance level α = 0.001, i.e. a perfect
// generator fails a given test with probability 0.1 % (false alarm rate);
// the three stream tests together ≈ 0.4 %. In CI they run on the seeded
// ChaCha20 generator with fixed seeds, so the verdict is reproducible: they
// check UniformInt's rejection sampling and the Fisher–Yates code, and a
// regression (modulo bias, off-by-one in the swap range) fails every run.
// The DISABLED_Unseeded* variants run the same tests on the production
// SystemRandomSource (OS entropy), on demand:
//   cards_test --gtest_also_run_disabled_tests --gtest_filter='*Unseeded*'
// A single failure there is expected once in ~1,000 runs; investigate only
// repeated failures. docs/rng.md has the rationale.
#include "libs/cards/random.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/seeded_random.h"

namespace banca::cards {
namespace {

using testing::SeededRandomSource;

constexpr double kAlpha = 0.001;
// Upper 0.1 % point of N(0,1) (one-sided, for chi-square via
// Wilson–Hilferty) and the two-sided 0.1 % point (runs tests).
constexpr double kZOneSided = 3.090232306;
constexpr double kZTwoSided = 3.290526731;

// Wilson–Hilferty approximation of the upper-α chi-square quantile; within
// 0.3 % of the exact value for df ≥ 20.
double ChiSquareCritical(int df) {
  const double k = df;
  const double a = 2.0 / (9.0 * k);
  return k * std::pow(1.0 - a + kZOneSided * std::sqrt(a), 3);
}

double ChiSquare(const std::vector<uint64_t>& observed, double expected) {
  double x2 = 0;
  for (uint64_t o : observed) {
    const double d = static_cast<double>(o) - expected;
    x2 += d * d / expected;
  }
  return x2;
}

// --- The three acceptance tests, on any source ---------------------------

// Card × position frequencies over `shuffles` shuffles of 52 cards. With all
// row and column totals fixed, X² has (52 − 1)² = 2,601 degrees of freedom.
void ExpectCardPositionUniform(RandomSource& rng, int shuffles) {
  std::vector<uint32_t> counts(kNumCards * kNumCards, 0);
  std::vector<Card> deck = StandardDeck();
  for (int s = 0; s < shuffles; ++s) {
    Shuffle(absl::MakeSpan(deck), rng);
    for (int pos = 0; pos < kNumCards; ++pos) {
      ++counts[pos * kNumCards + deck[pos].index()];
    }
  }
  std::vector<uint64_t> observed(counts.begin(), counts.end());
  const double x2 = ChiSquare(observed, double{1} * shuffles / kNumCards);
  const double critical = ChiSquareCritical(51 * 51);
  EXPECT_LT(x2, critical) << "card×position chi-square, df=2601, alpha="
                          << kAlpha;
  // A gross failure the total could hide: one card stuck in one place.
  for (int i = 0; i < kNumCards * kNumCards; ++i) {
    const double z = (counts[i] - double{1} * shuffles / kNumCards) /
                     std::sqrt(shuffles / 52.0 * (51.0 / 52.0));
    ASSERT_LT(std::abs(z), 7.0) << "cell " << i;
  }
}

// Every one of the 24 orders of a 4-card deck; X² with 23 df.
void ExpectFourCardOrdersUniform(RandomSource& rng, int shuffles) {
  std::vector<uint64_t> counts(24, 0);
  for (int s = 0; s < shuffles; ++s) {
    std::array<int, 4> d = {0, 1, 2, 3};
    Shuffle(absl::MakeSpan(d), rng);
    // Lehmer code → index in [0, 24).
    int index = 0;
    for (int i = 0; i < 4; ++i) {
      int smaller_after = 0;
      for (int j = i + 1; j < 4; ++j) smaller_after += d[j] < d[i];
      index = index * (4 - i) + smaller_after;
    }
    ++counts[index];
  }
  for (uint64_t c : counts) EXPECT_GT(c, 0u);
  const double x2 = ChiSquare(counts, shuffles / 24.0);
  // Exact upper 0.1 % point of chi-square(23).
  EXPECT_LT(x2, 49.728) << "4-card orders chi-square, df=23, alpha=" << kAlpha;
}

// Wald–Wolfowitz runs test (above/below the median) on UniformInt(52), the
// stream the shuffles consume, and the runs-up-and-down test on raw 32-bit
// words. Both two-sided at α = 0.001.
void ExpectNoRuns(RandomSource& rng, int n) {
  {
    int64_t n1 = 0, runs = 0;
    int prev = -1;
    for (int i = 0; i < n; ++i) {
      const int above = UniformInt(rng, 52) >= 26;
      n1 += above;
      if (above != prev) ++runs;
      prev = above;
    }
    const double a = static_cast<double>(n1), b = static_cast<double>(n - n1);
    const double mean = 2 * a * b / n + 1;
    const double var =
        2 * a * b * (2 * a * b - n) / (double{1} * n * n * (n - 1));
    const double z = (runs - mean) / std::sqrt(var);
    EXPECT_LT(std::abs(z), kZTwoSided) << "Wald–Wolfowitz runs, z=" << z;
  }
  {
    int64_t runs = 0, m = 0;
    uint32_t prev = rng.NextU32();
    int dir = 0;
    for (int i = 1; i < n; ++i) {
      const uint32_t x = rng.NextU32();
      if (x == prev) continue;  // Ties: probability ~2^-32 per pair.
      const int d = x > prev ? 1 : -1;
      if (d != dir) ++runs;
      dir = d;
      prev = x;
      ++m;
    }
    const double len = static_cast<double>(m + 1);
    const double mean = (2 * len - 1) / 3;
    const double var = (16 * len - 29) / 90;
    const double z = (runs - mean) / std::sqrt(var);
    EXPECT_LT(std::abs(z), kZTwoSided) << "runs up and down, z=" << z;
  }
}

// --- Seeded (CI) ----------------------------------------------------------

TEST(RandomStats, CardPositionChiSquareOneMillionShuffles) {
  auto rng = SeededRandomSource::FromSeed(20240401);
  ExpectCardPositionUniform(rng, 1'000'000);
}

TEST(RandomStats, AllTwentyFourOrdersOfFourCardsUniform) {
  auto rng = SeededRandomSource::FromSeed(20240402);
  ExpectFourCardOrdersUniform(rng, 2'400'000);
}

TEST(RandomStats, RunsTestsOnIntegerStream) {
  auto rng = SeededRandomSource::FromSeed(20240403);
  ExpectNoRuns(rng, 2'000'000);
}

// The tests have teeth: the classic broken shuffle (swap each position with
// any position, n^n paths onto n! orders) fails the 4-card test badly.
TEST(RandomStats, FourCardTestDetectsNaiveShuffle) {
  auto rng = SeededRandomSource::FromSeed(5);
  std::vector<uint64_t> counts(24, 0);
  const int shuffles = 240'000;
  for (int s = 0; s < shuffles; ++s) {
    std::array<int, 4> d = {0, 1, 2, 3};
    for (int i = 0; i < 4; ++i) std::swap(d[i], d[UniformInt(rng, 4)]);
    int index = 0;
    for (int i = 0; i < 4; ++i) {
      int smaller_after = 0;
      for (int j = i + 1; j < 4; ++j) smaller_after += d[j] < d[i];
      index = index * (4 - i) + smaller_after;
    }
    ++counts[index];
  }
  EXPECT_GT(ChiSquare(counts, shuffles / 24.0), 49.728 * 10);
}

// --- Unseeded (on demand) -------------------------------------------------

std::unique_ptr<SystemRandomSource> System() {
  absl::StatusOr<std::unique_ptr<SystemRandomSource>> rng =
      SystemRandomSource::Create();
  EXPECT_TRUE(rng.ok()) << rng.status();
  return std::move(*rng);
}

TEST(RandomStats, DISABLED_UnseededCardPositionChiSquare) {
  ExpectCardPositionUniform(*System(), 1'000'000);
}
TEST(RandomStats, DISABLED_UnseededFourCardOrders) {
  ExpectFourCardOrdersUniform(*System(), 2'400'000);
}
TEST(RandomStats, DISABLED_UnseededRunsTests) {
  ExpectNoRuns(*System(), 2'000'000);
}

// --- Unit tests -------------------------------------------------------------

TEST(RandomStats, WilsonHilfertyMatchesTable) {
  EXPECT_NEAR(ChiSquareCritical(23), 49.728, 0.2);
  EXPECT_NEAR(ChiSquareCritical(100), 149.449, 0.3);
}

// Returns the scripted words in order.
class ScriptedSource : public RandomSource {
 public:
  explicit ScriptedSource(std::vector<uint32_t> words)
      : words_(std::move(words)) {}
  void Fill(absl::Span<uint8_t> out) override {
    for (uint8_t& b : out) b = static_cast<uint8_t>(NextU32());
  }
  uint32_t NextU32() override { return words_.at(next_++); }
  size_t used() const { return next_; }

 private:
  std::vector<uint32_t> words_;
  size_t next_ = 0;
};

TEST(UniformInt, RejectsTheBiasedTailOfThe32BitRange) {
  // 2^32 mod 3 = 1: only 0xFFFFFFFF is rejected.
  ScriptedSource s({0xFFFFFFFFu, 0xFFFFFFFEu});
  EXPECT_EQ(UniformInt(s, 3), 0xFFFFFFFEu % 3);
  EXPECT_EQ(s.used(), 2u);
  // 2^32 mod 52 = 48: the top 48 words are rejected, the one below is not.
  ScriptedSource t({0xFFFFFFFFu, 0xFFFFFFD0u, 0xFFFFFFCFu});
  EXPECT_EQ(UniformInt(t, 52), 0xFFFFFFCFu % 52);
  EXPECT_EQ(t.used(), 3u);
  // Powers of two reject nothing.
  ScriptedSource u({0xFFFFFFFFu});
  EXPECT_EQ(UniformInt(u, 64), 63u);
}

TEST(UniformInt, DegenerateRanges) {
  ScriptedSource s({});
  EXPECT_EQ(UniformInt(s, 0), 0u);
  EXPECT_EQ(UniformInt(s, 1), 0u);
  EXPECT_EQ(s.used(), 0u);
}

TEST(UniformInt, NoModuloBiasOnAHugeRange) {
  // n = 3·2^30: "x mod n" would make [0, 2^30) twice as likely as the other
  // two thirds. Three equal buckets must come out equal.
  auto rng = SeededRandomSource::FromSeed(7);
  const uint32_t n = 3u << 30;
  std::vector<uint64_t> buckets(3, 0);
  const int draws = 300'000;
  for (int i = 0; i < draws; ++i) ++buckets[UniformInt(rng, n) >> 30];
  EXPECT_LT(ChiSquare(buckets, draws / 3.0), 13.816);  // chi2(2), α = 0.001.
}

TEST(Shuffle, IsAPermutation) {
  auto rng = SeededRandomSource::FromSeed(1);
  std::vector<Card> deck = StandardDeck();
  Shuffle(absl::MakeSpan(deck), rng);
  EXPECT_EQ(CardSet::Of(deck).size(), 52);
  EXPECT_NE(deck, StandardDeck());
  absl::StatusOr<std::vector<Card>> shoe =
      ShuffledDeck(rng, DeckSpec{.copies = 6});
  ASSERT_TRUE(shoe.ok());
  EXPECT_EQ(shoe->size(), 312u);
}

TEST(SeededRandomSource, SameSeedSameStreamDifferentSeedDifferent) {
  auto a = SeededRandomSource::FromSeed(42);
  auto b = SeededRandomSource::FromSeed(42);
  auto c = SeededRandomSource::FromSeed(43);
  bool differs = false;
  for (int i = 0; i < 5000; ++i) {  // Crosses several buffer refills.
    const uint32_t x = a.NextU32();
    EXPECT_EQ(x, b.NextU32());
    differs |= x != c.NextU32();
  }
  EXPECT_TRUE(differs);
}

TEST(SeededRandomSource, ByteAndWordReadsShareOneStream) {
  auto a = SeededRandomSource::FromSeed(9);
  auto b = SeededRandomSource::FromSeed(9);
  std::vector<uint8_t> bytes(4 * 3000 + 3);
  a.Fill(absl::MakeSpan(bytes));
  for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    const uint32_t w = bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 |
                       uint32_t{bytes[i + 3]} << 24;
    ASSERT_EQ(w, b.NextU32()) << i;
  }
}

TEST(SystemRandomSource, ProducesDistinctOutput) {
  std::unique_ptr<SystemRandomSource> rng = System();
  std::vector<uint32_t> words;
  for (int i = 0; i < 1000; ++i) words.push_back(rng->NextU32());
  std::sort(words.begin(), words.end());
  // 1,000 draws from 2^32 collide with probability ~1e-4.
  EXPECT_EQ(std::adjacent_find(words.begin(), words.end()), words.end());
  std::vector<uint8_t> big(1000);
  rng->Fill(absl::MakeSpan(big));
  EXPECT_NE(std::count(big.begin(), big.end(), 0), 1000);
}

TEST(SystemRandomSource, ForkedChildDoesNotRepeatParentOutput) {
  std::unique_ptr<SystemRandomSource> rng = System();
  (void)rng->NextU32();  // Fill the buffer before forking.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    uint32_t w[4];
    for (uint32_t& x : w) x = rng->NextU32();
    const ssize_t n = write(fds[1], w, sizeof(w));
    _exit(n == sizeof(w) ? 0 : 1);
  }
  uint32_t parent[4], child[4];
  for (uint32_t& x : parent) x = rng->NextU32();
  ASSERT_EQ(read(fds[0], child, sizeof(child)),
            static_cast<ssize_t>(sizeof(child)));
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  close(fds[1]);
  EXPECT_FALSE(std::equal(parent, parent + 4, child));
}

}  // namespace
}  // namespace banca::cards
