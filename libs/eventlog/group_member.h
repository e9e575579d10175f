// Consumer-group membership: several processes share the partitions of one
// topic, each working on the partitions the group assigns it, and the group
// moves partitions when a member joins, leaves or stops answering.
//
// Semantics are Kafka's eager rebalance protocol with KIP-447 fencing, so
// the embedded backend (members within one process) and the Kafka backend
// (members anywhere) behave the same:
//  - every change of membership starts a new generation of the group, in
//    which every live member gets a new assignment (range assignment: the
//    partitions are split into contiguous runs of nearly equal size);
//  - a member learns its assignment, and keeps itself alive, by calling
//    Poll; a member that does not Poll for `session_timeout_ms` is presumed
//    dead and its partitions go to the others;
//  - a member's appends carry offset commits for its assigned partitions
//    and are fenced: if the group moved to a newer generation than the one
//    of the member's last Poll, the whole append (records and commits) is
//    refused with FAILED_PRECONDITION and nothing of it is stored. So a
//    member that was presumed dead (a "zombie" that paused for a long GC or
//    network partition) cannot apply anything after its partitions moved;
//  - CommittedOffset includes every commit appended before the call (a
//    commit still on its way is waited for), so the member that takes a
//    partition over resumes exactly after the last record its predecessor
//    processed, never before (a repeat) and never after (a loss).
#ifndef BANCA_LIBS_EVENTLOG_GROUP_MEMBER_H_
#define BANCA_LIBS_EVENTLOG_GROUP_MEMBER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/eventlog/event_log.h"

namespace banca::eventlog {

inline constexpr int kMinSessionTimeoutMs = 100;
inline constexpr int kMaxSessionTimeoutMs = 300'000;

struct GroupOptions {
  // The consumer group; also the group of the member's offset commits.
  std::string group;
  // The one topic whose partitions the group shares.
  std::string topic;
  // A member silent (no Poll) this long is presumed dead. On Kafka the
  // broker's group.min.session.timeout.ms bounds it from below
  // (tools/kafka-local sets 1000).
  int session_timeout_ms = 10'000;
};

struct Assignment {
  // Bumped every time this member receives an assignment, even an
  // unchanged one: work decided under an older epoch may be fenced.
  int64_t epoch = 0;
  // Sorted. Empty while a rebalance is in progress, or when the group has
  // more members than the topic has partitions.
  std::vector<int> partitions;
  bool operator==(const Assignment&) const = default;
};

class GroupMember {
 public:
  // Leaves the group at once: the other members get its partitions at
  // their next Poll, without waiting for a session timeout.
  virtual ~GroupMember() = default;

  const std::string& group() const { return group_; }
  const std::string& topic() const { return topic_; }

  // Keeps the member alive, takes part in a rebalance, and returns the
  // assignment of the member's current generation. Cheap; call it often
  // (at least several times per session timeout).
  virtual absl::StatusOr<Assignment> Poll() = 0;

  // EventLog::AppendAsync, fenced by this membership (see the file
  // comment). `commits` must not be empty, and each must be for this
  // group, this topic and a partition of the last Poll's assignment
  // (FAILED_PRECONDITION otherwise). The log must outlive the member.
  virtual void AppendAsync(std::vector<Record> records,
                           std::vector<OffsetCommit> commits,
                           AppendCallback done) = 0;

  // Blocking convenience over AppendAsync.
  absl::StatusOr<std::vector<Position>> Append(
      std::vector<Record> records, std::vector<OffsetCommit> commits);

 protected:
  GroupMember(std::string group, std::string topic)
      : group_(std::move(group)), topic_(std::move(topic)) {}
  // The checks every backend makes before a fenced append: shape of the
  // commits against the last assignment.
  absl::Status CheckCommits(const std::vector<OffsetCommit>& commits,
                            const Assignment& assignment) const;

 private:
  const std::string group_;
  const std::string topic_;
};

// INVALID_ARGUMENT naming the bad option.
absl::Status ValidateGroupOptions(const GroupOptions& options);

}  // namespace banca::eventlog

#endif  // BANCA_LIBS_EVENTLOG_GROUP_MEMBER_H_
