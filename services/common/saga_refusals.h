// The reasons of refused money sagas, for the calls that wait for them;
// shared by the poker and the banked tables.
#ifndef BANCA_SERVICES_COMMON_SAGA_REFUSALS_H_
#define BANCA_SERVICES_COMMON_SAGA_REFUSALS_H_

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace banca::table {

// Why a table gave up on a saga the wallet had not answered in time.
inline constexpr std::string_view kSagaTimedOut =
    "the wallet did not answer in time";

// Why the wallet refused a buy-in or a stake (or the table gave up on it),
// kept for the call waiting to say so (Sit, Rebuy, PlaceBet) and for
// nobody else: a reason is recorded only while a caller waits for that
// saga, and forgotten when the caller stops waiting, answered or out of
// time. Refusals nobody waits for (the caller's deadline passed, a refusal
// after a restart) leave nothing behind, so the service's memory does not
// grow with refused sagas. Not part of the table's state: nothing here is
// replayed.
class SagaRefusals {
 public:
  // At most `limit` callers wait at once on one table.
  explicit SagaRefusals(size_t limit = 1024) : limit_(limit) {}

  // A caller starts waiting for `saga`'s answer. False when `limit`
  // callers already wait: the caller must not wait for a reason then.
  bool Wait(const std::string& saga);
  // `saga` was refused: kept if a caller waits for it, else dropped.
  void Refused(const std::string& saga, std::string why);
  // The caller is done waiting: the refusal, if one came; `saga` is
  // forgotten either way.
  std::optional<std::string> Done(const std::string& saga);
  // Sagas callers wait for (the memory held).
  size_t size() const { return waiting_.size(); }

 private:
  size_t limit_;
  std::map<std::string, std::optional<std::string>> waiting_;
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_SAGA_REFUSALS_H_
