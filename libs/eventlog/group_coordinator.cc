#include "libs/eventlog/group_coordinator.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/str_cat.h"

namespace banca::eventlog::internal {

std::vector<int> RangeAssignment(int partitions, int members, int index) {
  std::vector<int> out;
  if (members <= 0 || index < 0 || index >= members) return out;
  const int base = partitions / members;
  const int extra = partitions % members;
  const int begin = index * base + std::min(index, extra);
  const int count = base + (index < extra ? 1 : 0);
  for (int p = begin; p < begin + count; ++p) out.push_back(p);
  return out;
}

void GroupCoordinator::ExpireLocked(Group& g, int64_t now_micros) {
  const size_t before = g.members.size();
  std::erase_if(g.members, [&](const auto& m) {
    return now_micros - m.second.last_seen_micros > g.session_micros;
  });
  if (g.members.size() != before) {
    StartRebalanceLocked(g);
    CompleteIfRejoinedLocked(g);  // when none is left
  }
}

void GroupCoordinator::StartRebalanceLocked(Group& g) {
  g.rebalancing = true;
  for (auto& [id, m] : g.members) m.rejoined = false;
}

void GroupCoordinator::CompleteIfRejoinedLocked(Group& g) {
  if (!g.rebalancing) return;
  for (const auto& [id, m] : g.members) {
    if (!m.rejoined) return;
  }
  g.rebalancing = false;
  ++g.generation;
}

Assignment GroupCoordinator::AssignmentLocked(const Group& g, int64_t member) {
  Assignment a;
  a.epoch = g.generation;
  auto it = g.members.find(member);
  if (it == g.members.end() || g.rebalancing) return a;
  const int index = static_cast<int>(std::distance(g.members.begin(), it));
  a.partitions =
      RangeAssignment(g.partitions, static_cast<int>(g.members.size()), index);
  return a;
}

absl::StatusOr<int64_t> GroupCoordinator::Join(const GroupOptions& options,
                                               int partitions,
                                               int64_t now_micros) {
  std::lock_guard l(mu_);
  auto it = groups_.find(options.group);
  if (it == groups_.end()) {
    if (groups_.size() >= kMaxGroups) {
      return absl::ResourceExhaustedError(
          absl::StrCat("more than ", kMaxGroups, " consumer groups"));
    }
    it = groups_.emplace(options.group, Group{}).first;
  }
  Group& g = it->second;
  ExpireLocked(g, now_micros);
  if (!g.members.empty() && g.topic != options.topic) {
    return absl::FailedPreconditionError(absl::StrCat("group ", options.group,
                                                      " shares topic ", g.topic,
                                                      ", not ", options.topic));
  }
  if (g.members.size() >= kMaxGroupMembers) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "group ", options.group, " has ", kMaxGroupMembers, " members"));
  }
  g.topic = options.topic;
  g.partitions = partitions;
  // The group's session timeout is its newest member's (Kafka keeps one
  // per member; one process configures its members alike).
  g.session_micros = int64_t{options.session_timeout_ms} * 1000;
  const int64_t id = next_member_++;
  StartRebalanceLocked(g);
  g.members[id].last_seen_micros = now_micros;
  CompleteIfRejoinedLocked(g);
  return id;
}

void GroupCoordinator::Leave(const std::string& group, int64_t member,
                             int64_t now_micros) {
  std::lock_guard l(mu_);
  auto it = groups_.find(group);
  if (it == groups_.end()) return;
  Group& g = it->second;
  ExpireLocked(g, now_micros);
  if (g.members.erase(member) > 0) {
    StartRebalanceLocked(g);
    CompleteIfRejoinedLocked(g);
  }
}

Assignment GroupCoordinator::Poll(const std::string& group, int64_t member,
                                  int64_t now_micros) {
  std::lock_guard l(mu_);
  Group& g = groups_[group];
  ExpireLocked(g, now_micros);
  if (!g.members.contains(member)) StartRebalanceLocked(g);
  Member& m = g.members[member];
  m.last_seen_micros = now_micros;
  m.rejoined = true;
  CompleteIfRejoinedLocked(g);
  return AssignmentLocked(g, member);
}

absl::Status GroupCoordinator::CheckFence(const std::string& group,
                                          int64_t member, int64_t epoch,
                                          int64_t now_micros) {
  std::lock_guard l(mu_);
  auto it = groups_.find(group);
  if (it == groups_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("fenced: group ", group, " has no members"));
  }
  Group& g = it->second;
  ExpireLocked(g, now_micros);
  if (!g.members.contains(member)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "fenced: this member left group ", group, " or was presumed dead"));
  }
  if (g.generation != epoch) {
    return absl::FailedPreconditionError(absl::StrCat(
        "fenced: group ", group, " rebalanced (generation ", g.generation,
        ", this member's assignment is from ", epoch, "); Poll again"));
  }
  return absl::OkStatus();
}

}  // namespace banca::eventlog::internal
