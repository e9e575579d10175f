// Group mode of a table host: several processes share one game's tables
// (docs/architecture.md, "Several table processes").
//
// A table belongs to the partition of its stream on the game's topic
// ("table/<id>" on banca.table.events, wire::TableTopicStream), so its
// owner is deterministic. The processes of a table group are the members
// of a consumer group on that topic (eventlog/group_member.h): the process
// assigned a partition is the only one that decides for its tables. Its
// appends are fenced by the membership, so a process the group presumed
// dead (a zombie) cannot append after its partitions moved: the append is
// refused whole and the process stops, as on any failed append.
//
// Decisions pass a gate. Before the process polls the group (where a
// rebalance may take partitions away), it closes the gate and waits until
// every decision let through is appended; a decision meanwhile waits (at
// most kMaxTableGateWait) for the gate to open again. On a new assignment
// the partitions kept are decided again at once; a gained partition only
// once the previous owner's last transaction is settled (CommittedOffset)
// and the partition has been followed to its end (`follow`).
//
// Every process announces the partitions it takes on the owners topic
// (wire::kTableOwnersTopic), fenced like any decision, with the address
// clients reach it at; `OwnerOf` answers from there (the route in a
// refusal: owner_redirect.h).
#ifndef BANCA_SERVICES_COMMON_TABLE_GROUP_H_
#define BANCA_SERVICES_COMMON_TABLE_GROUP_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "libs/eventlog/event_log.h"
#include "libs/eventlog/group_member.h"

namespace banca::table {

// A decision waits at most this long for the gate (then UNAVAILABLE).
inline constexpr absl::Duration kMaxTableGateWait = absl::Seconds(5);
// An advertised address: host:port, at most this long.
inline constexpr size_t kMaxAdvertiseAddressBytes = 255;

struct TableGroupOptions {
  // The table group; its consumer group on `topic` is "<group>.<topic>".
  std::string group;
  // The game's events topic and its partitions.
  std::string topic;
  int partitions = 8;
  int session_timeout_ms = 10'000;
  // How often the group is polled.
  absl::Duration poll_interval = absl::Milliseconds(200);
  // Where clients reach this process ("host:port"), announced with its
  // partitions; empty announces nothing.
  std::string advertise_address;
};

// INVALID_ARGUMENT naming the bad option.
absl::Status ValidateTableGroupOptions(const TableGroupOptions& options);

// Where a table is decided.
struct TableOwner {
  int partition = 0;
  bool here = false;    // this process decides for it now
  std::string address;  // the last owner announced ("" none yet)
};

class TableGroup {
 public:
  // Applies partition `p` of the topic from offset `from` to its end;
  // returns the offset after the last record read.
  using Follow = std::function<absl::StatusOr<int64_t>(int p, int64_t from)>;
  // The partitions just gained (after they were followed): the host moves
  // its wallet-outcome reader back to their positions.
  using Gained = std::function<absl::Status(const std::vector<int>&)>;

  // `followed[p]`: where the host's replay of partition p ended.
  TableGroup(eventlog::EventLog& log, TableGroupOptions options,
             std::vector<int64_t> followed, Follow follow, Gained gained);
  ~TableGroup();
  TableGroup(const TableGroup&) = delete;
  TableGroup& operator=(const TableGroup&) = delete;

  // Joins the group and starts polling it. Nothing is decided here until
  // the group assigns partitions.
  absl::Status Join();
  // Ends the loop and leaves the group (its partitions go to the others at
  // once).
  void Stop();

  const std::string& consumer_group() const { return consumer_group_; }
  int partitions() const { return options_.partitions; }

  // A decision on partition `p` starts: waits while the gate is closed
  // for a poll; UNAVAILABLE when `p` is not this process's. Each OK is
  // paired with one Leave, once the decision is appended (or refused
  // before anything changed). The caller may hold its table's lock:
  // `busy` says the table has appends in flight, whose completions need
  // that lock, so while the gate drains such a decision is let through
  // instead of waiting (the drain waits for it too).
  absl::Status Enter(int p, std::string_view what, bool busy = false);
  void Leave();
  // This process decides for `p` now.
  bool Owns(int p) const;
  std::vector<int> Owned() const;

  // EventLog::AppendAsync fenced by the membership, for a decision on `p`.
  void AppendAsync(std::vector<eventlog::Record> records, int p,
                   eventlog::AppendCallback done);

  // The owner of partition `p`, from the announcements on the log.
  absl::StatusOr<TableOwner> OwnerOf(int p);

 private:
  void Loop();
  void Poll();
  // Closes the gate and waits for the decisions let through.
  void CloseAndDrain();
  void Open(std::vector<int> owned);
  // Settles and follows `gained`, keeping the membership alive meanwhile;
  // false when the group moved on (or an error), to be tried again.
  bool TakeOver(const std::vector<int>& gained,
                const eventlog::Assignment& assignment);
  // TakeOver's work beside the polling thread: settled, followed, the
  // outcome reader moved back.
  absl::Status Settle(const std::vector<int>& gained);
  // Announces this process as the owner of `owned` (fenced).
  void Announce(const std::vector<int>& owned);
  absl::Status ReadOwners() ABSL_EXCLUSIVE_LOCKS_REQUIRED(owners_mu_);

  eventlog::EventLog& log_;
  const TableGroupOptions options_;
  const std::string consumer_group_;
  Follow follow_;
  Gained gained_;

  std::unique_ptr<eventlog::GroupMember> member_;
  std::thread thread_;
  absl::Notification stopping_;
  int64_t epoch_ = -1;  // the loop's thread only

  mutable absl::Mutex mu_;
  absl::CondVar changed_;
  bool closed_ ABSL_GUARDED_BY(mu_) = true;
  // Closed, and every decision let through is appended.
  bool drained_ ABSL_GUARDED_BY(mu_) = false;
  int64_t in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<bool> owned_ ABSL_GUARDED_BY(mu_);
  // Offsets of the topic followed (progress, and the fences' offsets).
  std::vector<int64_t> followed_ ABSL_GUARDED_BY(mu_);

  absl::Mutex owners_mu_;
  int64_t owners_offset_ ABSL_GUARDED_BY(owners_mu_) = 0;
  absl::Time owners_read_ ABSL_GUARDED_BY(owners_mu_) = absl::InfinitePast();
  std::map<int, std::string> owners_ ABSL_GUARDED_BY(owners_mu_);
};

}  // namespace banca::table

#endif  // BANCA_SERVICES_COMMON_TABLE_GROUP_H_
