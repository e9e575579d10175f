// Constants shared by the evaluator and its build-time hash generator
// (tools/gen_perfect_hash.cc).
#ifndef BANCA_LIBS_CARDS_RANK_KEYS_H_
#define BANCA_LIBS_CARDS_RANK_KEYS_H_

#include <cstdint>

namespace banca::cards::internal {

// Every card adds kCardCountKey plus its rank's multiplier, so a hand's rank
// key is (number of cards) · 2^25 + (sum of multipliers). The multipliers
// are OMPEval's (github.com/zekyll/OMPEval, Apache-2.0): every multiset of
// at most 7 ranks with at most 4 of each has a distinct sum below 2^25, and
// those sums fall evenly enough over rows of 4,096 that row displacement
// packs them almost densely. The card count keeps the 5-, 6- and 7-card
// patterns in rows of their own, which the generator packs one count after
// the other: a 7-card hand (the common case) only ever touches the 7-card
// part of both tables (≈ 100 KB of values and 32 KB of rows).
inline constexpr uint32_t kCardCountKey = uint32_t{1} << 25;
inline constexpr uint32_t kRankMultipliers[13] = {
    0x2000,   0x8001,   0x11000,  0x3a000,  0x91000,  0x176005, 0x366000,
    0x41a013, 0x47802e, 0x479068, 0x48c0e4, 0x48f211, 0x494493};
inline constexpr uint32_t kRankKeys[13] = {
    kCardCountKey + kRankMultipliers[0],  kCardCountKey + kRankMultipliers[1],
    kCardCountKey + kRankMultipliers[2],  kCardCountKey + kRankMultipliers[3],
    kCardCountKey + kRankMultipliers[4],  kCardCountKey + kRankMultipliers[5],
    kCardCountKey + kRankMultipliers[6],  kCardCountKey + kRankMultipliers[7],
    kCardCountKey + kRankMultipliers[8],  kCardCountKey + kRankMultipliers[9],
    kCardCountKey + kRankMultipliers[10], kCardCountKey + kRankMultipliers[11],
    kCardCountKey + kRankMultipliers[12]};
static_assert(4 * kRankMultipliers[12] + 3 * kRankMultipliers[11] <
              kCardCountKey);

// Rank keys (< 2^28 for up to 7 cards, so they never carry into the suit
// counters above bit 32) are compressed by row displacement:
// slot = key + kRowAdjust[key >> kRowShift] (mod 2^32), with kRowAdjust
// generated at build time. Rows exist for every key of 0 to 7 cards, so any
// such hand reads inside the tables; only 5 to 7 cards give values. (16-bit
// row offsets, slot = (key mod 2^12) + 2 · offset, halve the rows a 7-card
// hand touches but cost an instruction: enumeration lost 10 %, random hands
// 4 %.)
inline constexpr int kRowShift = 12;
inline constexpr uint32_t kNumRows = (8 * kCardCountKey) >> kRowShift;
// Upper bound on the slots the generator may use; the build fails if the
// packing ever needs more (it needs 74,845 with these keys, the 7-card
// patterns the first 51,355).
inline constexpr uint32_t kRankSlots = 74'880;

// Omaha looks its board (exactly five cards) up in a hash of its own over
// the 6,175 five-card patterns: narrower rows pack them densely, so the slot
// itself can index the Omaha table. Its rows start at the 5-card keys:
// slot = (k mod 2^kBoardRowShift) + kBoardRowOffset[k >> kBoardRowShift]
// for k = key - kFirstBoardKey. 16-bit offsets halve the rows (23 KB): a
// random board's row is then in one of ~200 cache lines nine times in ten,
// not ~380, which Omaha, waiting on memory anyway, feels more than one
// instruction.
inline constexpr int kBoardRowShift = 11;
inline constexpr uint32_t kFirstBoardKey = 5 * kCardCountKey;
inline constexpr uint32_t kNumBoardRows =
    ((4 * kRankMultipliers[12] + kRankMultipliers[11]) >> kBoardRowShift) + 1;
// Upper bound again (the packing needs 6,175).
inline constexpr uint32_t kBoardSlots = 6176;
static_assert(kBoardSlots <= 65536);

// Defined in the generated perfect_hash_rows.cc.
extern const uint32_t kRowAdjust[kNumRows];
extern const uint16_t kBoardRowOffset[kNumBoardRows];

}  // namespace banca::cards::internal

#endif  // BANCA_LIBS_CARDS_RANK_KEYS_H_
