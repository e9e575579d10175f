// What the director's files (director*.cc) share: seat arithmetic.
#ifndef BANCA_LIBS_GAMES_TOURNAMENT_DIRECTOR_INTERNAL_H_
#define BANCA_LIBS_GAMES_TOURNAMENT_DIRECTOR_INTERNAL_H_

#include <string>
#include <vector>

namespace banca::games::tournament::internal {

// The occupied seat after `seat` clockwise among `seats` (1-based); `seat`
// itself when it is the only one; 0 when none is.
template <typename Occupied>
int NextSeat(const std::vector<std::string>& seats, int seat,
             const Occupied& occupied) {
  const int n = static_cast<int>(seats.size());
  for (int i = 1; i <= n; ++i) {
    const int s = (seat - 1 + i + n) % n + 1;
    if (occupied(s)) return s;
  }
  return 0;
}

// A seat's order at its table for ties and odd cents: the table number ×
// 100 + its position clockwise from the button (1 = the seat after it).
inline int OrderFromButton(int table_number, int seats, int button, int seat) {
  return table_number * 100 + (seat - button + seats - 1) % seats + 1;
}

}  // namespace banca::games::tournament::internal

#endif  // BANCA_LIBS_GAMES_TOURNAMENT_DIRECTOR_INTERNAL_H_
