// Roulette pockets (the numbers on the wheel and the board), their colours
// and sets of them. 0..36 are themselves; the American double zero "00" is
// kDoubleZero, -1, so that no integer a client might mean as a number
// (37, say) is taken for it.
#ifndef BANCA_LIBS_GAMES_ROULETTE_POCKET_H_
#define BANCA_LIBS_GAMES_ROULETTE_POCKET_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace banca::games::roulette {

using Pocket = int;
inline constexpr Pocket kZero = 0;
inline constexpr Pocket kDoubleZero = -1;
inline constexpr int kHighestNumber = 36;

// RF-6a / RA-6a: the French wheel and the single-zero American wheel have
// 37 pockets; the double-zero American wheel has 38.
enum class WheelKind : uint8_t {
  kFrench,              // RF-6c order
  kAmericanSingleZero,  // RA-6c, 37 pockets
  kAmericanDoubleZero,  // RA-6c, 38 pockets
};

int PocketCount(WheelKind wheel);
bool HasDoubleZero(WheelKind wheel);
bool IsZero(Pocket p);  // 0, and 00 which behaves like it (RA gap 3)
// A pocket of this wheel: 0..36, and 00 on a double-zero wheel.
bool IsOnWheel(WheelKind wheel, Pocket p);

// "0".."36", "00".
std::string PocketName(Pocket p);
// The inverse of PocketName; INVALID_ARGUMENT naming the text, or "00 is
// only on a double-zero wheel".
absl::StatusOr<Pocket> ParsePocket(WheelKind wheel, std::string_view text);
// A number given as an integer (scenario files write 00 as the string
// "00", every other number as an integer).
absl::Status CheckPocket(WheelKind wheel, Pocket p);

// RF-6b / RA-6b: red and black alternate; zeros are green. The red set is
// the digest's decision (section 3 gap 5): 1, 3, 5, 7, 9, 12, 14, 16, 18,
// 19, 21, 23, 25, 27, 30, 32, 34, 36.
enum class Colour : uint8_t { kGreen, kRed, kBlack };
Colour ColourOf(Pocket p);
std::string_view ColourName(Colour c);  // "green", "red", "black"

// A set of pockets: bit p set when pocket p is in it, bit 37 for 00.
class NumberSet {
 public:
  constexpr NumberSet() = default;
  static NumberSet Of(std::initializer_list<Pocket> pockets);
  static NumberSet Range(Pocket first, Pocket last);  // inclusive
  void Add(Pocket p) { bits_ |= uint64_t{1} << Bit(p); }
  bool Contains(Pocket p) const {
    return (p == kDoubleZero || (p >= 0 && p <= kHighestNumber)) &&
           ((bits_ >> Bit(p)) & 1);
  }
  int size() const { return __builtin_popcountll(bits_); }
  bool empty() const { return bits_ == 0; }
  uint64_t bits() const { return bits_; }
  std::vector<Pocket> Pockets() const;  // ascending, 00 last
  // "0-2-3", in ascending order with 00 last.
  std::string ToString() const;
  auto operator<=>(const NumberSet&) const = default;

 private:
  static int Bit(Pocket p) { return p == kDoubleZero ? kHighestNumber + 1 : p; }
  uint64_t bits_ = 0;
};

}  // namespace banca::games::roulette

#endif  // BANCA_LIBS_GAMES_ROULETTE_POCKET_H_
