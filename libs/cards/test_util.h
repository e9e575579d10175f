// Test helpers (test-only header).
#ifndef BANCA_LIBS_CARDS_TEST_UTIL_H_
#define BANCA_LIBS_CARDS_TEST_UTIL_H_

#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/cards/evaluator.h"

namespace banca::cards {

inline std::vector<Card> Cards(std::string_view text) {
  absl::StatusOr<std::vector<Card>> cards = ParseCards(text);
  EXPECT_TRUE(cards.ok()) << cards.status();
  return cards.ok() ? *cards : std::vector<Card>{};
}

inline HandValue Value(std::string_view text) {
  absl::StatusOr<HandValue> v = Evaluator::Get().EvaluateChecked(Cards(text));
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : HandValue();
}

}  // namespace banca::cards

#endif  // BANCA_LIBS_CARDS_TEST_UTIL_H_
