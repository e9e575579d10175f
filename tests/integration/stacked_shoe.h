// TEST ONLY. Chosen cards through the banked-table service's real path:
// the service deals from cards::ShuffledDeck over the table's RandomSource,
// and the network API never takes a deck, so a service test that needs a
// split or a dealer blackjack stacks the shoe at the source. StackedShoes
// hands the service (TableHostOptions::random_source_for_tests)
// sources that answer UniformInt with exactly the Fisher-Yates picks that
// turn the built deck into the stacked order; a table with nothing stacked
// draws from the system CSPRNG as in production.
#ifndef BANCA_TESTS_INTEGRATION_STACKED_SHOE_H_
#define BANCA_TESTS_INTEGRATION_STACKED_SHOE_H_

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/cards/random.h"

namespace banca::testing {

class StackedShoes {
 public:
  // The next shoe `table` shuffles deals `top` ("As Kd 7h ...", draw order)
  // first, then the rest of a `copies`-deck shoe in its built order. Fails
  // the test when `top` does not fit the shoe.
  void Stack(const std::string& table, const std::string& top, int copies = 6) {
    absl::StatusOr<std::vector<cards::Card>> built =
        cards::BuildDeck(cards::DeckSpec{.copies = copies});
    ASSERT_TRUE(built.ok()) << built.status();
    std::vector<cards::Card> rest = *built;
    std::vector<cards::Card> order;
    std::istringstream in(top);
    std::string code;
    while (in >> code) {
      absl::StatusOr<cards::Card> c = cards::ParseCard(code);
      ASSERT_TRUE(c.ok()) << code;
      auto it = std::find(rest.begin(), rest.end(), *c);
      ASSERT_NE(it, rest.end()) << "the shoe has no more " << code;
      rest.erase(it);
      order.push_back(*c);
    }
    order.insert(order.end(), rest.begin(), rest.end());
    // Durstenfeld from the top index down: position i-1 takes the pick j
    // in [0, i); find where the wanted card sits now and pick that.
    std::vector<cards::Card> items = *built;
    std::vector<uint32_t> picks;
    for (size_t i = items.size(); i > 1; --i) {
      auto it = std::find(items.begin(), items.begin() + i, order[i - 1]);
      const size_t j = static_cast<size_t>(it - items.begin());
      std::swap(items[i - 1], items[j]);
      picks.push_back(static_cast<uint32_t>(j));
    }
    ASSERT_EQ(items, order);
    absl::MutexLock lock(&state_->mu);
    state_->stacked[table].push_back(std::move(picks));
  }

  // Shoes stacked and not dealt yet.
  int Waiting(const std::string& table) const {
    absl::MutexLock lock(&state_->mu);
    auto it = state_->stacked.find(table);
    return it == state_->stacked.end() ? 0
                                       : static_cast<int>(it->second.size());
  }

  std::function<std::unique_ptr<cards::RandomSource>(const std::string&)>
  Factory() {
    std::shared_ptr<State> state = state_;
    return [state](const std::string& table) {
      return std::unique_ptr<cards::RandomSource>(new Source(state, table));
    };
  }

 private:
  struct State {
    mutable absl::Mutex mu;
    std::map<std::string, std::deque<std::vector<uint32_t>>> stacked
        ABSL_GUARDED_BY(mu);
  };

  class Source final : public cards::RandomSource {
   public:
    Source(std::shared_ptr<State> state, std::string table)
        : state_(std::move(state)), table_(std::move(table)) {}
    void Fill(absl::Span<uint8_t> out) override { System().Fill(out); }
    uint32_t NextU32() override {
      if (next_ == picks_.size()) {
        absl::MutexLock lock(&state_->mu);
        auto it = state_->stacked.find(table_);
        if (it != state_->stacked.end() && !it->second.empty()) {
          picks_ = std::move(it->second.front());
          it->second.pop_front();
          next_ = 0;
        }
      }
      // Each pick j < i is below UniformInt's rejection limit, so it
      // comes back as drawn.
      if (next_ < picks_.size()) return picks_[next_++];
      return System().NextU32();
    }

   private:
    cards::RandomSource& System() {
      if (system_ == nullptr) system_ = *cards::SystemRandomSource::Create();
      return *system_;
    }

    std::shared_ptr<State> state_;
    std::string table_;
    std::vector<uint32_t> picks_;
    size_t next_ = 0;
    std::unique_ptr<cards::SystemRandomSource> system_;
  };

  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_STACKED_SHOE_H_
