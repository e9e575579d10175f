// The embedded log's consumer groups: membership, generations and range
// assignment, in memory (the embedded log serves one process, so its
// groups' members all live in that process). Time is passed in, so the
// rules are tested without sleeping. Semantics: group_member.h.
#ifndef BANCA_LIBS_EVENTLOG_GROUP_COORDINATOR_H_
#define BANCA_LIBS_EVENTLOG_GROUP_COORDINATOR_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "libs/eventlog/group_member.h"

namespace banca::eventlog::internal {

// Limits: members per group and groups per log.
inline constexpr size_t kMaxGroupMembers = 1024;
inline constexpr size_t kMaxGroups = 10'000;

// Kafka's range assignor for one topic: `members` in their order, each a
// contiguous run; the first partitions % members runs one longer.
std::vector<int> RangeAssignment(int partitions, int members, int index);

class GroupCoordinator {
 public:
  // A new member of `group` (which then shares `topic` of `partitions`
  // partitions). FAILED_PRECONDITION when the group's members share
  // another topic; RESOURCE_EXHAUSTED past the limits.
  absl::StatusOr<int64_t> Join(const GroupOptions& options, int partitions,
                               int64_t now_micros);
  // The member is gone; the others rebalance. A no-op for one already
  // expelled.
  void Leave(const std::string& group, int64_t member, int64_t now_micros);
  // Heartbeat, and the member's part in a rebalance: during one it gets
  // no partitions until every live member has polled. A member expelled
  // for silence joins again (a rebalance), as a Kafka consumer does.
  Assignment Poll(const std::string& group, int64_t member, int64_t now_micros);
  // OK while the group's last completed generation is `epoch` and the
  // member alive in it; FAILED_PRECONDITION (fenced) otherwise. A member
  // that has not polled since another joined or left is still in the old
  // generation, so its appends stand until it takes part in the rebalance
  // (as KIP-447 transactional offset commits do on Kafka).
  absl::Status CheckFence(const std::string& group, int64_t member,
                          int64_t epoch, int64_t now_micros);

 private:
  struct Member {
    int64_t last_seen_micros = 0;
    // Polled since the group's membership last changed.
    bool rejoined = true;
  };
  struct Group {
    std::string topic;
    int partitions = 0;
    int64_t session_micros = 0;
    // The last completed generation: the one appends are fenced against.
    int64_t generation = 0;
    // Membership changed; the next generation completes once every live
    // member has polled (Kafka's eager protocol: until then the old
    // generation stands, and its owners' appends stay valid).
    bool rebalancing = false;
    std::map<int64_t, Member> members;  // by id: join order
  };
  // Drops members silent past the session timeout; a rebalance if any went.
  static void ExpireLocked(Group& g, int64_t now_micros);
  // Membership changed: every member must poll again.
  static void StartRebalanceLocked(Group& g);
  // Completes a rebalance every live member has taken part in.
  static void CompleteIfRejoinedLocked(Group& g);
  static Assignment AssignmentLocked(const Group& g, int64_t member);

  std::mutex mu_;
  std::map<std::string, Group> groups_ ABSL_GUARDED_BY(mu_);
  int64_t next_member_ ABSL_GUARDED_BY(mu_) = 1;
};

}  // namespace banca::eventlog::internal

#endif  // BANCA_LIBS_EVENTLOG_GROUP_COORDINATOR_H_
