// What every table's state is to the host that runs it (services/table):
// the poker table (TableState) and each banked game (BankedGameState and
// its roulette, blackjack and stud states). A table is an aggregate of its
// own event stream: one event opens it, every later one is decided against
// it (Apply: refused with nothing changed, or applied with the events it
// derives) and replayed from the log the same way (ApplyLogged).
#ifndef BANCA_LIBS_TABLES_TABLE_AGGREGATE_H_
#define BANCA_LIBS_TABLES_TABLE_AGGREGATE_H_

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace banca::tables {

template <typename A>
concept TableAggregate = requires(A& table, const A& read,
                                  const typename A::Event& event,
                                  std::vector<typename A::Event>* derived) {
  // The event type of the table's stream.
  typename A::Event;
  // Whether `event` opens a table, and the table it opens (INVALID_ARGUMENT
  // for bad settings; the settings are normalized).
  { A::Opens(event) } -> std::same_as<bool>;
  { A::Open(event) } -> std::same_as<absl::StatusOr<std::unique_ptr<A>>>;
  // Decides a new event: on success it is applied and what it derives is
  // appended to `derived`; on error nothing changed.
  { table.Apply(event, derived) } -> std::same_as<absl::Status>;
  // Applies an event read back from the log, its derived events being
  // logged after it; an error means the log and the rules disagree.
  { table.ApplyLogged(event) } -> std::same_as<absl::Status>;
  { read.id() } -> std::convertible_to<std::string>;
  // Increases with every applied event.
  { read.version() } -> std::same_as<int64_t>;
  // Releases what the table has taken from its engine (the engine's
  // events, once turned into log records): a host calls it after each
  // event, so a table that plays for months keeps only its recent events.
  { table.ForgetTaken() } -> std::same_as<void>;
};

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_TABLE_AGGREGATE_H_
