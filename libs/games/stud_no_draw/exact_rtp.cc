#include "libs/games/stud_no_draw/exact_rtp.h"

#include <algorithm>
#include <utility>

#include "libs/cards/evaluator.h"
#include "libs/cards/sem_descarte.h"
#include "libs/common/check.h"
#include "libs/games/stud_no_draw/paytable.h"
#include "libs/games/stud_no_draw/strategy.h"

namespace banca::games::stud_no_draw {
namespace {

using cards::Card;

constexpr int kDeck = cards::kNumCards;

// C(n, k) for n ≤ 52, k ≤ 5.
constexpr std::array<std::array<int64_t, 6>, kDeck + 1> kBinomial = [] {
  std::array<std::array<int64_t, 6>, kDeck + 1> c{};
  for (int n = 0; n <= kDeck; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= 5 && k <= n; ++k) {
      c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
  }
  return c;
}();

constexpr int64_t kHands = kBinomial[kDeck][5];          // 2,598,960
constexpr int64_t kBankHands = kBinomial[kDeck - 5][5];  // 1,533,939

int64_t ListLength(int size) { return kBinomial[kDeck - size][5 - size]; }

// Colex rank of ascending card indices among subsets of their size.
uint32_t SubsetIndex(const int* cards, int size) {
  int64_t index = 0;
  for (int i = 0; i < size; ++i) index += kBinomial[cards[i]][i + 1];
  return static_cast<uint32_t>(index);
}

uint16_t KeyOf(cards::HandValue value, bool three_of_one_suit) {
  // SD-9: among equal high-card hands, three of one suit ranks higher.
  const bool suited =
      value.category() == cards::Category::kHighCard && three_of_one_suit;
  return static_cast<uint16_t>(2 * value.ClassIndex() + (suited ? 1 : 0));
}

uint16_t QualifyingKey() {
  static const uint16_t kKey = [] {
    const std::vector<Card> ak = *cards::ParseCards("As Kh 4c 3d 2c");
    return KeyOf(cards::Evaluator::Get().Evaluate(ak), false);
  }();
  return kKey;
}

// The hand with suits relabelled by `perm`, as a packed ascending tuple.
uint64_t PackedImage(const int* cards, const std::array<int, 4>& perm) {
  std::array<int, 5> img;
  for (int i = 0; i < 5; ++i) {
    img[i] = (cards[i] & ~3) | perm[cards[i] & 3];
  }
  std::sort(img.begin(), img.end());
  uint64_t packed = 0;
  for (int c : img) packed = (packed << 6) | static_cast<uint64_t>(c);
  return packed;
}

}  // namespace

uint16_t ComparisonKey(absl::Span<const Card> five) {
  return KeyOf(cards::Evaluator::Get().Evaluate(five),
               cards::sem_descarte::HasThreeOfOneSuit(five));
}

std::unique_ptr<ExactRtpCalculator> ExactRtpCalculator::Build() {
  std::unique_ptr<ExactRtpCalculator> calc(new ExactRtpCalculator());
  // Every hand with its key, in key order: appending in that order leaves
  // each subset's list sorted.
  std::vector<std::pair<uint16_t, uint32_t>> hands;
  hands.reserve(kHands);
  for (int a = 0; a < kDeck; ++a) {
    for (int b = a + 1; b < kDeck; ++b) {
      for (int c = b + 1; c < kDeck; ++c) {
        for (int d = c + 1; d < kDeck; ++d) {
          for (int e = d + 1; e < kDeck; ++e) {
            const Card five[] = {Card::FromIndex(a), Card::FromIndex(b),
                                 Card::FromIndex(c), Card::FromIndex(d),
                                 Card::FromIndex(e)};
            const uint32_t packed =
                static_cast<uint32_t>(a | b << 6 | c << 12 | d << 18) |
                static_cast<uint32_t>(e) << 24;
            hands.emplace_back(ComparisonKey(five), packed);
          }
        }
      }
    }
  }
  BANCA_CHECK(static_cast<int64_t>(hands.size()) == kHands);
  std::sort(hands.begin(), hands.end());
  std::array<std::vector<uint32_t>, 5> fill;
  for (int k = 0; k < 5; ++k) {
    calc->lists_[k].resize(kBinomial[kDeck][k] * ListLength(k));
    fill[k].assign(kBinomial[kDeck][k], 0);
  }
  for (const auto& [key, packed] : hands) {
    int c[5];
    for (int i = 0; i < 5; ++i) c[i] = (packed >> (6 * i)) & 63;
    for (int mask = 0; mask < 31; ++mask) {  // Every subset but all five.
      int sub[5];
      int k = 0;
      for (int i = 0; i < 5; ++i) {
        if (mask >> i & 1) sub[k++] = c[i];
      }
      const uint32_t idx = SubsetIndex(sub, k);
      calc->lists_[k][idx * ListLength(k) + fill[k][idx]++] = key;
    }
  }
  return calc;
}

int64_t ExactRtpCalculator::CountBelow(int size, uint32_t subset,
                                       uint16_t key) const {
  const int64_t len = ListLength(size);
  const uint16_t* begin = lists_[size].data() + subset * len;
  return std::lower_bound(begin, begin + len, key) - begin;
}

BankCounts ExactRtpCalculator::CountsFor(absl::Span<const Card> player) const {
  BANCA_CHECK(player.size() == 5);
  int c[5];
  for (int i = 0; i < 5; ++i) c[i] = player[i].index();
  std::sort(c, c + 5);
  const uint16_t kp = ComparisonKey(player);
  const uint16_t q = QualifyingKey();
  // Bank hands disjoint from the player's with a key below each threshold.
  const uint16_t thresholds[3] = {q, kp, static_cast<uint16_t>(kp + 1)};
  int64_t below[3] = {0, 0, 0};
  for (int mask = 0; mask < 32; ++mask) {
    int sub[5];
    int k = 0;
    for (int i = 0; i < 5; ++i) {
      if (mask >> i & 1) sub[k++] = c[i];
    }
    const int sign = (k % 2 == 0) ? 1 : -1;
    for (int t = 0; t < 3; ++t) {
      // T = P: the only hand containing all five is P itself.
      const int64_t n = k == 5
                            ? (kp < thresholds[t] ? 1 : 0)
                            : CountBelow(k, SubsetIndex(sub, k), thresholds[t]);
      below[t] += sign * n;
    }
  }
  BankCounts counts;
  counts.not_qualified = below[0];
  if (kp >= q) {
    counts.player_wins = below[1] - below[0];
    counts.push = below[2] - below[1];
    counts.bank_wins = kBankHands - below[2];
  } else {
    // The bank qualifies with anything at or above q, all above P.
    counts.bank_wins = kBankHands - below[0];
  }
  BANCA_CHECK(counts.total() == kBankHands);
  return counts;
}

ExactRtp ExactRtpCalculator::Compute() const {
  std::array<std::array<int, 4>, 24> perms;
  std::array<int, 4> p = {0, 1, 2, 3};
  for (int i = 0; i < 24; ++i) {
    perms[i] = p;
    std::next_permutation(p.begin(), p.end());
  }
  const cards::Evaluator& ev = cards::Evaluator::Get();
  ExactRtp r;
  r.deals = kHands * kBankHands;
  for (int a = 0; a < kDeck; ++a) {
    for (int b = a + 1; b < kDeck; ++b) {
      for (int c = b + 1; c < kDeck; ++c) {
        for (int d = c + 1; d < kDeck; ++d) {
          for (int e = d + 1; e < kDeck; ++e) {
            const int idx[5] = {a, b, c, d, e};
            // One hand per suit-relabelling class, weighted by its size.
            std::array<uint64_t, 24> images;
            for (int i = 0; i < 24; ++i) images[i] = PackedImage(idx, perms[i]);
            const uint64_t self = PackedImage(idx, perms[0]);
            if (*std::min_element(images.begin(), images.end()) != self) {
              continue;
            }
            std::sort(images.begin(), images.end());
            const int64_t weight =
                std::unique(images.begin(), images.end()) - images.begin();
            const Card five[] = {Card::FromIndex(a), Card::FromIndex(b),
                                 Card::FromIndex(c), Card::FromIndex(d),
                                 Card::FromIndex(e)};
            const cards::HandValue value = ev.Evaluate(five);
            if (!ContinueWithAceKingOrBetter(value)) {
              r.folded += weight * kBankHands;
              continue;
            }
            const BankCounts n = CountsFor(five);
            r.not_qualified += weight * n.not_qualified;
            r.pushed += weight * n.push;
            r.lost += weight * n.bank_wins;
            r.won_by_multiplier[BetMultiplier(value)] += weight * n.player_wins;
          }
        }
      }
    }
  }
  int64_t won = 0;
  // Per won deal: the ante doubled (2) and the bet of 2 antes with its
  // multiple; per push all 3 antes back; not qualified: ante doubled and
  // the bet back (4).
  r.returned = 4 * r.not_qualified + 3 * r.pushed;
  for (int m = 1; m <= kMaxBetMultiplier; ++m) {
    won += r.won_by_multiplier[m];
    r.returned += r.won_by_multiplier[m] * (2 + 2 * (1 + m));
  }
  BANCA_CHECK(r.folded + r.not_qualified + r.pushed + r.lost + won == r.deals);
  r.staked = r.folded + 3 * (r.deals - r.folded);
  return r;
}

}  // namespace banca::games::stud_no_draw
