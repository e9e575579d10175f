// Build-time generator for the evaluator's row-displacement hashes. Writes a
// C++ source defining kRowAdjust so that slot = key + kRowAdjust[key >>
// kRowShift] is injective on every rank pattern of 5 to 7 cards and below
// kRankSlots, and kBoardRowOffset so that slot = (k mod 2^kBoardRowShift) +
// kBoardRowOffset[k >> kBoardRowShift] is likewise for the five-card
// patterns alone (below kBoardSlots, k = key - kFirstBoardKey).
// First-fit packing takes about a second, too slow for process start-up,
// which is why it runs here. Usage: gen_perfect_hash OUTPUT.cc
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "libs/cards/rank_keys.h"

namespace {

using banca::cards::internal::kBoardRowShift;
using banca::cards::internal::kBoardSlots;
using banca::cards::internal::kFirstBoardKey;
using banca::cards::internal::kNumBoardRows;
using banca::cards::internal::kNumRows;
using banca::cards::internal::kRankKeys;
using banca::cards::internal::kRankSlots;
using banca::cards::internal::kRowShift;

// Sums of rank keys of every pattern of exactly `size` cards (at most 4 of a
// rank).
void CollectKeys(int rank, int cards, int size, uint32_t sum,
                 std::vector<uint32_t>* out) {
  if (rank == 13) {
    if (cards == size) out->push_back(sum);
    return;
  }
  for (int c = 0; c <= 4 && cards + c <= size; ++c) {
    CollectKeys(rank + 1, cards + c, size, sum + c * kRankKeys[rank], out);
  }
}

// Next free slot at or after x (path-halving union-find over slots).
uint32_t NextFree(std::vector<uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Row displacement: rows of 2^shift keys are shifted (first fit, densest
// rows first, as they are the hardest to place) so that no two keys share a
// slot. Key sets packed one after the other share the slots, so a set packed
// first lies densely at the start of the table.
class Packer {
 public:
  Packer(int shift, uint32_t num_rows, uint32_t capacity)
      : shift_(shift),
        used_(capacity, 0),
        parent_(capacity + 1),
        // Rows without keys map to the first slots: any key stays inside.
        offset_(num_rows, 0) {
    for (uint32_t i = 0; i <= capacity; ++i) parent_[i] = i;
  }

  // False if the slots ran out.
  bool Add(const std::vector<uint32_t>& keys) {
    const uint32_t width = 1u << shift_;
    std::vector<std::vector<uint32_t>> columns(offset_.size());
    for (uint32_t k : keys) columns[k >> shift_].push_back(k & (width - 1));
    std::vector<uint32_t> order;
    for (uint32_t r = 0; r < columns.size(); ++r) {
      if (!columns[r].empty()) {
        std::sort(columns[r].begin(), columns[r].end());
        order.push_back(r);
      }
    }
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return columns[a].size() > columns[b].size();
    });
    const uint32_t capacity = static_cast<uint32_t>(used_.size());
    for (uint32_t r : order) {
      const std::vector<uint32_t>& c = columns[r];
      for (uint32_t p = NextFree(parent_, c[0]);;
           p = NextFree(parent_, p + 1)) {
        if (p + width >= capacity) return false;
        const uint32_t o = p - c[0];
        bool fits = true;
        for (size_t i = 1; i < c.size() && fits; ++i) fits = !used_[o + c[i]];
        if (!fits) continue;
        for (uint32_t x : c) {
          used_[o + x] = 1;
          parent_[o + x] = o + x + 1;
        }
        offset_[r] = o;
        slots_ = std::max(slots_, o + c.back() + 1);
        break;
      }
    }
    return true;
  }

  uint32_t slots() const { return slots_; }
  // Where each row's first key lands.
  const std::vector<uint32_t>& offset() const { return offset_; }
  // offset - (row << shift): with unsigned wrap-around, key + adjust =
  // offset + (key mod 2^shift).
  std::vector<uint32_t> adjust() const {
    std::vector<uint32_t> a(offset_.size());
    for (uint32_t r = 0; r < a.size(); ++r) a[r] = offset_[r] - (r << shift_);
    return a;
  }

 private:
  int shift_;
  std::vector<uint8_t> used_;
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> offset_;
  uint32_t slots_ = 0;
};

void WriteArray(FILE* f, const char* type, const char* name, const char* size,
                const std::vector<uint32_t>& values) {
  std::fprintf(f, "extern const %s %s[%s] = {\n", type, name, size);
  for (size_t i = 0; i < values.size(); ++i) {
    std::fprintf(f, "%uu,%s", values[i], (i % 8 == 7) ? "\n" : " ");
  }
  std::fprintf(f, "};\n\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.cc\n", argv[0]);
    return 2;
  }
  // Seven cards first: random 7-card hands, the hot case, then touch one
  // dense block of the value table.
  Packer rank(kRowShift, kNumRows, 2 * kRankSlots);
  uint32_t seven_slots = 0;
  size_t num_keys = 0;
  for (int size = 7; size >= 5; --size) {
    std::vector<uint32_t> keys;
    CollectKeys(0, 0, size, 0, &keys);
    num_keys += keys.size();
    std::vector<uint32_t> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      std::fprintf(stderr, "two %d-card rank patterns share a key\n", size);
      return 1;
    }
    if (!rank.Add(keys)) {
      std::fprintf(stderr, "packing overflow\n");
      return 1;
    }
    if (size == 7) seven_slots = rank.slots();
  }
  std::vector<uint32_t> board_keys;
  CollectKeys(0, 0, 5, 0, &board_keys);
  for (uint32_t& k : board_keys) k -= kFirstBoardKey;
  Packer board(kBoardRowShift, kNumBoardRows, 2 * kBoardSlots);
  if (!board.Add(board_keys)) {
    std::fprintf(stderr, "packing overflow\n");
    return 1;
  }
  if (rank.slots() > kRankSlots || board.slots() > kBoardSlots) {
    std::fprintf(stderr,
                 "needs %u rank and %u board slots, kRankSlots is %u and "
                 "kBoardSlots %u\n",
                 rank.slots(), board.slots(), kRankSlots, kBoardSlots);
    return 1;
  }

  FILE* f = std::fopen(argv[1], "w");
  if (f == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(f,
               "// Generated by libs/cards/tools/gen_perfect_hash.cc. Do not "
               "edit.\n// %zu rank patterns packed into %u slots (7-card "
               "patterns into the first %u), %zu board patterns into %u.\n"
               "#include \"libs/cards/rank_keys.h\"\n\n"
               "namespace banca::cards::internal {\n\n",
               num_keys, rank.slots(), seven_slots, board_keys.size(),
               board.slots());
  WriteArray(f, "uint32_t", "kRowAdjust", "kNumRows", rank.adjust());
  // kBoardSlots < 2^16: the offsets fit 16 bits.
  WriteArray(f, "uint16_t", "kBoardRowOffset", "kNumBoardRows", board.offset());
  std::fprintf(f, "}  // namespace banca::cards::internal\n");
  return std::fclose(f) == 0 ? 0 : 1;
}
