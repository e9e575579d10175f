// Constants shared by the evaluator and its build-time hash generator
// (tools/gen_perfect_hash.cc).
#ifndef BANCA_LIBS_CARDS_RANK_KEYS_H_
#define BANCA_LIBS_CARDS_RANK_KEYS_H_

#include <cstdint>

namespace banca::cards::internal {

// One key per rank, 2 … A. Found by a greedy search so that every multiset of
// at most 7 ranks with at most 4 of each rank has a distinct sum: the sum of
// a hand's keys then identifies its rank pattern whatever the suits. The
// largest sum (4 aces + 3 kings) is 18,393,157, so keys fit in 32 bits with
// room for the suit counters above them.
inline constexpr uint32_t kRankKeys[13] = {
    1,     5,      24,     112,    521,     2247,   9244,
    30823, 103066, 250154, 667453, 1526359, 3453520};

// The rank-pattern key space (≈ 18.4 M) is compressed by row displacement:
// slot = key + kRowAdjust[key >> kRowShift] (mod 2^32), with kRowAdjust
// generated at build time.
inline constexpr int kRowShift = 10;
inline constexpr uint32_t kMaxRankKey = 4 * 3453520 + 3 * 1526359;
inline constexpr uint32_t kNumRows = (kMaxRankKey >> kRowShift) + 1;
// Upper bound on the slots the generator may use; the build fails if the
// packing ever needs more (it needs 142,210 with these keys).
inline constexpr uint32_t kRankSlots = 144 * 1024;

// Omaha looks its board (exactly five cards) up in a hash of its own over
// the 6,175 five-card patterns: narrower rows pack them almost densely, so
// the slot itself can index the Omaha table.
inline constexpr int kBoardRowShift = 9;
inline constexpr uint32_t kMaxBoardKey = 4 * 3453520 + 1526359;
inline constexpr uint32_t kNumBoardRows = (kMaxBoardKey >> kBoardRowShift) + 1;
// Upper bound again (the packing needs 6,520).
inline constexpr uint32_t kBoardSlots = 6656;

// Defined in the generated perfect_hash_rows.cc.
extern const uint32_t kRowAdjust[kNumRows];
extern const uint32_t kBoardRowAdjust[kNumBoardRows];

}  // namespace banca::cards::internal

#endif  // BANCA_LIBS_CARDS_RANK_KEYS_H_
