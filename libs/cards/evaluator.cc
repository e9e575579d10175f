#include "libs/cards/evaluator.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace banca::cards {
namespace internal {

Tables g_tables;

namespace {

constexpr int kAce = 12;
constexpr int kFive = 3;

// Ranks that order a class inside its category, packed 4 bits each, most
// significant first, so that packed order is hand order.
struct Classified {
  Category category;
  int num_ranks;
  std::array<int, 5> ranks;
  uint32_t Packed() const {
    uint32_t p = 0;
    for (int i = 0; i < 5; ++i) p = (p << 4) | (i < num_ranks ? ranks[i] : 0);
    return p;
  }
};

// The reference definition of HE-29 to HE-32 on one five-card rank pattern:
// plain code, run only while the tables are built.
Classified Classify5(const std::array<int, 13>& counts, bool flush) {
  uint32_t distinct = 0;
  for (int r = 0; r < 13; ++r) {
    if (counts[r] > 0) distinct |= 1u << r;
  }
  if (std::popcount(distinct) == 5) {
    int top = -1;
    for (int low = 0; low + 4 < 13; ++low) {
      if (distinct == (0x1fu << low)) top = low + 4;
    }
    // HE-31 / SD-8: the ace plays low in A-2-3-4-5, a five-high straight.
    if (distinct == ((1u << kAce) | 0xfu)) top = kFive;
    if (top >= 0) {
      return {flush ? Category::kStraightFlush : Category::kStraight,
              1,
              {top, 0, 0, 0, 0}};
    }
    Classified c{flush ? Category::kFlush : Category::kHighCard, 5, {}};
    int n = 0;
    for (int r = 12; r >= 0; --r) {
      if (counts[r] > 0) c.ranks[n++] = r;
    }
    return c;
  }
  // Groups by (size, rank), largest and highest first: this is exactly the
  // significance order of HE-32a/b/e/f/g.
  std::vector<std::pair<int, int>> groups;
  for (int r = 12; r >= 0; --r) {
    if (counts[r] > 0) groups.emplace_back(counts[r], r);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](auto a, auto b) { return a.first > b.first; });
  Classified c{};
  c.num_ranks = static_cast<int>(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) c.ranks[i] = groups[i].second;
  const int first = groups[0].first;
  const int second = groups.size() > 1 ? groups[1].first : 0;
  if (first == 4) {
    c.category = Category::kFourOfAKind;
  } else if (first == 3 && second == 2) {
    c.category = Category::kFullHouse;
  } else if (first == 3) {
    c.category = Category::kThreeOfAKind;
  } else if (first == 2 && second == 2) {
    c.category = Category::kTwoPair;
  } else {
    c.category = Category::kPair;
  }
  return c;
}

struct Pattern {
  uint32_t key;
  std::array<int, 13> counts;
};

void CollectPatterns(int rank, int size, int want, uint32_t key,
                     std::array<int, 13>& counts, std::vector<Pattern>* out) {
  if (rank == 13) {
    if (size == want) out->push_back({key, counts});
    return;
  }
  for (int c = 0; c <= 4 && size + c <= want; ++c) {
    counts[rank] = c;
    CollectPatterns(rank + 1, size + c, want, key + c * kRankKeys[rank], counts,
                    out);
  }
  counts[rank] = 0;
}

std::vector<Pattern> Patterns(int size) {
  std::vector<Pattern> out;
  std::array<int, 13> counts{};
  CollectPatterns(0, 0, size, 0, counts, &out);
  return out;
}

// Every five-card class, by category (index: the category's number),
// each category in ascending order of strength.
using Categories = std::array<std::vector<Classified>, 10>;

std::array<int, 13> CountsOfMask(uint32_t m) {
  std::array<int, 13> counts{};
  for (int r = 0; r < 13; ++r) counts[r] = (m >> r) & 1;
  return counts;
}

// 1. Every five-card class (of the rank patterns `fives` and the flushes),
// ordered within its category, numbered into t.classes.
Categories NumberClasses(const std::vector<Pattern>& fives, Tables& t) {
  Categories by_category;
  for (const Pattern& p : fives) {
    Classified c = Classify5(p.counts, false);
    by_category[static_cast<int>(c.category)].push_back(c);
  }
  // 13-bit masks of five distinct ranks.
  for (uint32_t m = 0; m < (1u << kRankMaskBits); ++m) {
    if (std::popcount(m) != 5) continue;
    Classified c = Classify5(CountsOfMask(m), true);
    by_category[static_cast<int>(c.category)].push_back(c);
  }
  int next_class = 0;
  for (int cat = 1; cat <= 9; ++cat) {
    std::vector<Classified>& v = by_category[cat];
    std::sort(v.begin(), v.end(), [](const Classified& a, const Classified& b) {
      return a.Packed() < b.Packed();
    });
    v.erase(std::unique(v.begin(), v.end(),
                        [](const Classified& a, const Classified& b) {
                          return a.Packed() == b.Packed();
                        }),
            v.end());
    t.category_first[cat] = static_cast<uint16_t>(next_class);
    for (const Classified& c : v) {
      HandClass& hc = t.classes[next_class++];
      hc.category = c.category;
      hc.num_ranks = c.num_ranks;
      for (int i = 0; i < 5; ++i) hc.ranks[i] = static_cast<Rank>(c.ranks[i]);
    }
  }
  t.category_first[10] = static_cast<uint16_t>(next_class);
  return by_category;
}

// A five-card class's value: its category, then its place in it.
uint16_t ValueOf(const Categories& by_category, const Classified& c) {
  const std::vector<Classified>& v = by_category[static_cast<int>(c.category)];
  auto it = std::lower_bound(v.begin(), v.end(), c,
                             [](const Classified& a, const Classified& b) {
                               return a.Packed() < b.Packed();
                             });
  return static_cast<uint16_t>((static_cast<int>(c.category) << 12) |
                               (1 + (it - v.begin())));
}

// 2. Five-card entries, then six and seven as the best of their subsets
// with one card fewer (which covers every five-card subset): the rank
// table, the flush table, and the top ranks of every mask.
void FillRankAndFlushTables(const std::vector<Pattern>& fives,
                            const Categories& by_category, Tables& t) {
  for (const Pattern& p : fives) {
    t.rank[RankSlot(p.key)] = ValueOf(by_category, Classify5(p.counts, false));
  }
  for (int size = 6; size <= 7; ++size) {
    for (const Pattern& p : Patterns(size)) {
      uint16_t best = 0;
      for (int r = 0; r < 13; ++r) {
        if (p.counts[r] > 0) {
          best = std::max(best, t.rank[RankSlot(p.key - kRankKeys[r])]);
        }
      }
      t.rank[RankSlot(p.key)] = best;
    }
  }
  // Ascending order visits every sub-mask before its super-masks.
  for (uint32_t m = 0; m < (1u << kRankMaskBits); ++m) {
    const int bits = std::popcount(m);
    if (bits == 5) {
      t.flush[m] = ValueOf(by_category, Classify5(CountsOfMask(m), true));
    } else if (bits > 5) {
      uint16_t best = 0;
      for (uint32_t x = m; x != 0; x &= x - 1) {
        best = std::max(best, t.flush[m & ~(x & -x)]);
      }
      t.flush[m] = best;
    }
  }
  for (uint32_t m = 0; m < (1u << kRankMaskBits); ++m) {
    uint32_t x = m;
    while (std::popcount(x) > 3) x &= x - 1;
    t.top_three[m] = static_cast<uint16_t>(x);
    while (std::popcount(x) > 2) x &= x - 1;
    t.top_two[m] = static_cast<uint16_t>(x);
  }
}

// 3. Omaha, non-flush part: for each board rank pattern and hole rank
// pair, the best of the ten board triples with that pair. Impossible
// combinations (five of a rank) stay 0 and are never looked up.
void FillOmahaTable(const std::vector<Pattern>& fives, Tables& t) {
  for (const Pattern& board : fives) {
    uint16_t* row = &t.omaha[size_t{BoardSlot(board.key)} * kNumHolePairs];
    std::array<int, 5> ranks;
    int n = 0;
    for (int r = 0; r < 13; ++r) {
      for (int k = 0; k < board.counts[r]; ++k) ranks[n++] = r;
    }
    std::array<uint32_t, 10> triples;
    n = 0;
    for (int i = 0; i < 5; ++i) {
      for (int j = i + 1; j < 5; ++j) {
        for (int k = j + 1; k < 5; ++k) {
          triples[n++] =
              kRankKeys[ranks[i]] + kRankKeys[ranks[j]] + kRankKeys[ranks[k]];
        }
      }
    }
    for (int a = 0; a < 13; ++a) {
      for (int c = a; c < 13; ++c) {
        std::array<int, 13> counts = board.counts;
        ++counts[a];
        ++counts[c];
        if (counts[a] > 4 || counts[c] > 4) continue;
        const uint32_t pair_key = kRankKeys[a] + kRankKeys[c];
        uint16_t best = 0;
        for (uint32_t triple : triples) {
          best = std::max(best, t.rank[RankSlot(triple + pair_key)]);
        }
        row[kPairIndex[a][c]] = best;
      }
    }
  }
}

}  // namespace

void BuildTables(Tables& t) {
  t.flush.fill(0);
  t.rank.fill(0);
  t.omaha.fill(0);
  const std::vector<Pattern> fives = Patterns(5);
  const Categories by_category = NumberClasses(fives, t);
  FillRankAndFlushTables(fives, by_category, t);
  FillOmahaTable(fives, t);
}

uint16_t BestOmahaFlush(uint32_t hole, uint32_t board) {
  uint16_t best = 0;
  for (uint32_t a = hole; a != 0; a &= a - 1) {
    for (uint32_t b = a & (a - 1); b != 0; b &= b - 1) {
      const uint32_t pair = (a & -a) | (b & -b);
      for (uint32_t x = board; x != 0; x &= x - 1) {
        for (uint32_t y = x & (x - 1); y != 0; y &= y - 1) {
          for (uint32_t z = y & (y - 1); z != 0; z &= z - 1) {
            best = std::max(
                best, g_tables.flush[pair | (x & -x) | (y & -y) | (z & -z)]);
          }
        }
      }
    }
  }
  return best;
}

}  // namespace internal

int HandValue::ClassIndex() const {
  const int cat = raw_ >> 12;
  return internal::g_tables.category_first[cat] + (raw_ & 0xfff) - 1;
}

const Evaluator& Evaluator::Get() {
  static const Evaluator* const evaluator = [] {
    internal::BuildTables(internal::g_tables);
    return new Evaluator();
  }();
  return *evaluator;
}

absl::StatusOr<HandValue> Evaluator::EvaluateChecked(
    absl::Span<const Card> cards) const {
  if (cards.size() < 5 || cards.size() > 7) {
    return absl::InvalidArgumentError(
        absl::StrCat("a poker hand has 5 to 7 cards, got ", cards.size()));
  }
  for (Card c : cards) {
    if (c.index() >= kNumCards) {
      return absl::InvalidArgumentError("card index out of range");
    }
  }
  if (CardSet::Of(cards).size() != static_cast<int>(cards.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("repeated card in ", CardsToString(cards)));
  }
  return Evaluate(cards);
}

HandValue Evaluator::EvaluateOmahaBruteForce(
    absl::Span<const Card> hole, absl::Span<const Card> board) const {
  HandValue best;
  for (size_t a = 0; a < hole.size(); ++a) {
    for (size_t b = a + 1; b < hole.size(); ++b) {
      const CardAccumulator two = CardAccumulator() + hole[a] + hole[b];
      for (size_t i = 0; i < board.size(); ++i) {
        for (size_t j = i + 1; j < board.size(); ++j) {
          for (size_t k = j + 1; k < board.size(); ++k) {
            best =
                std::max(best, Evaluate(two + board[i] + board[j] + board[k]));
          }
        }
      }
    }
  }
  return best;
}

absl::StatusOr<HandValue> Evaluator::EvaluateOmahaChecked(
    absl::Span<const Card> hole, absl::Span<const Card> board) const {
  if (hole.size() < 2 || board.size() < 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("Omaha needs at least 2 hole and 3 board cards, got ",
                     hole.size(), " and ", board.size()));
  }
  CardSet all = CardSet::Of(hole);
  for (Card c : board) all.Insert(c);
  if (all.size() != static_cast<int>(hole.size() + board.size())) {
    return absl::InvalidArgumentError("repeated card in Omaha hand");
  }
  if (hole.size() == 4 && board.size() == 5) {
    return EvaluateOmaha(hole.data(), board.data());
  }
  return EvaluateOmahaBruteForce(hole, board);
}

const HandClass& Evaluator::Class(HandValue v) const {
  static const HandClass kNone{};
  if (!v.valid()) return kNone;
  return internal::g_tables.classes[v.ClassIndex()];
}

}  // namespace banca::cards
