// The recent end of a table engine's event sequence. A table lives for
// months and its events are read as they come (the table state turns them
// into log records, a scenario runner into its book); an engine keeps only
// those its readers have not all taken, numbered from the table's first
// event so that a reader's position survives what is forgotten.

#ifndef BANCA_LIBS_GAMES_EVENT_TAIL_H_
#define BANCA_LIBS_GAMES_EVENT_TAIL_H_

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

namespace banca::games {

template <typename Event>
class EventTail {
 public:
  void push_back(Event e) { events_.push_back(std::move(e)); }
  const Event& back() const { return events_.back(); }

  // The events kept, oldest first: kept()[0] is event number begin().
  const std::vector<Event>& kept() const { return events_; }
  size_t begin() const { return forgotten_; }
  size_t end() const { return forgotten_ + events_.size(); }
  // Event number `n`, one of those kept.
  const Event& at(size_t n) const {
    assert(n >= begin() && n < end());
    return events_[n - forgotten_];
  }

  // Forgets the events numbered below `n` (at most end()).
  void ForgetBefore(size_t n) {
    assert(n <= end());
    if (n <= forgotten_) return;
    events_.erase(
        events_.begin(),
        events_.begin() + static_cast<std::ptrdiff_t>(n - forgotten_));
    forgotten_ = n;
  }

 private:
  std::vector<Event> events_;
  size_t forgotten_ = 0;
};

}  // namespace banca::games

#endif  // BANCA_LIBS_GAMES_EVENT_TAIL_H_
