#include "services/common/table_group.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/common/json_text.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/eventlog/fail_stop.h"
#include "libs/wire/table_owners.h"
#include "nlohmann/json.hpp"

namespace banca::table {
namespace {

constexpr size_t kOwnersBatch = 512;
// OwnerOf reads new announcements at most this often.
constexpr absl::Duration kOwnersRefresh = absl::Milliseconds(100);

void LogLine(const nlohmann::ordered_json& line) {
  std::fprintf(stderr, "%s\n", JsonText(line).c_str());
  std::fflush(stderr);
}

}  // namespace

absl::Status ValidateTableGroupOptions(const TableGroupOptions& options) {
  if (options.group.empty() || options.group.size() > 200) {
    return absl::InvalidArgumentError(
        "the table group's name must be 1-200 "
        "bytes");
  }
  if (options.advertise_address.size() > kMaxAdvertiseAddressBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("--advertise-address must be at most ",
                     kMaxAdvertiseAddressBytes, " bytes"));
  }
  if (options.partitions < 1 || options.partitions > eventlog::kMaxPartitions) {
    return absl::InvalidArgumentError("partitions out of range");
  }
  return absl::OkStatus();
}

TableGroup::TableGroup(eventlog::EventLog& log, TableGroupOptions options,
                       std::vector<int64_t> followed, Follow follow,
                       Gained gained)
    : log_(log),
      options_(std::move(options)),
      consumer_group_(absl::StrCat(options_.group, ".", options_.topic)),
      follow_(std::move(follow)),
      gained_(std::move(gained)),
      owned_(options_.partitions, false),
      followed_(std::move(followed)) {}

TableGroup::~TableGroup() { Stop(); }

absl::Status TableGroup::Join() {
  RETURN_IF_ERROR(ValidateTableGroupOptions(options_));
  RETURN_IF_ERROR(log_.EnsureTopic({std::string(wire::kTableOwnersTopic), 1}));
  eventlog::GroupOptions group;
  group.group = consumer_group_;
  group.topic = options_.topic;
  group.session_timeout_ms = options_.session_timeout_ms;
  ASSIGN_OR_RETURN(member_, log_.JoinGroup(group));
  thread_ = std::thread([this] { Loop(); });
  return absl::OkStatus();
}

void TableGroup::Stop() {
  if (!stopping_.HasBeenNotified()) stopping_.Notify();
  if (thread_.joinable()) thread_.join();
  member_.reset();
}

absl::Status TableGroup::Enter(int p, std::string_view what, bool busy) {
  absl::MutexLock lock(&mu_);
  const absl::Time give_up = absl::Now() + kMaxTableGateWait;
  while (closed_ && owned_[p] && !(busy && !drained_)) {
    if (changed_.WaitWithDeadline(&mu_, give_up)) break;
  }
  if (!owned_[p] || (closed_ && !(busy && !drained_))) {
    return absl::UnavailableError(absl::StrCat(
        ToAbsl(what), " is on partition ", p, " of table group ",
        consumer_group_, ", which this process does not decide for now"));
  }
  ++in_flight_;
  return absl::OkStatus();
}

void TableGroup::Leave() {
  absl::MutexLock lock(&mu_);
  --in_flight_;
  changed_.SignalAll();
}

bool TableGroup::Owns(int p) const {
  absl::MutexLock lock(&mu_);
  return p >= 0 && p < options_.partitions && owned_[p];
}

std::vector<int> TableGroup::Owned() const {
  absl::MutexLock lock(&mu_);
  std::vector<int> owned;
  for (int p = 0; p < options_.partitions; ++p) {
    if (owned_[p]) owned.push_back(p);
  }
  return owned;
}

void TableGroup::AppendAsync(std::vector<eventlog::Record> records, int p,
                             eventlog::AppendCallback done) {
  int64_t offset = 0;
  {
    absl::MutexLock lock(&mu_);
    offset = followed_[p];
  }
  // What this process had followed of the partition: a record of progress,
  // and the carrier of the fence.
  member_->AppendAsync(std::move(records),
                       {{consumer_group_, options_.topic, p, offset}},
                       std::move(done));
}

void TableGroup::CloseAndDrain() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
  drained_ = false;
  while (in_flight_ > 0) changed_.Wait(&mu_);
  drained_ = true;
}

void TableGroup::Open(std::vector<int> owned) {
  absl::MutexLock lock(&mu_);
  std::fill(owned_.begin(), owned_.end(), false);
  for (int p : owned) owned_[p] = true;
  closed_ = false;
  drained_ = false;
  changed_.SignalAll();
}

void TableGroup::Loop() {
  while (!stopping_.HasBeenNotified()) {
    Poll();
    stopping_.WaitForNotificationWithTimeout(options_.poll_interval);
  }
  // Stopping: decide nothing more (the member leaves in Stop).
  CloseAndDrain();
  Open({});
  CloseAndDrain();
}

void TableGroup::Poll() {
  const std::vector<int> before = Owned();
  CloseAndDrain();
  absl::StatusOr<eventlog::Assignment> assignment = member_->Poll();
  if (!assignment.ok()) {
    std::fprintf(stderr, "banca table group %s: poll: %s\n",
                 consumer_group_.c_str(),
                 std::string(assignment.status().message()).c_str());
    Open({});
    epoch_ = -1;  // take everything over afresh
    return;
  }
  if (assignment->epoch == epoch_) {
    Open(assignment->partitions);
    return;
  }
  // A new assignment: the partitions kept are decided again at once (this
  // process followed them all along); the gained ones once settled and
  // followed.
  std::vector<int> kept, gained;
  for (int p : assignment->partitions) {
    (std::find(before.begin(), before.end(), p) != before.end() ? kept : gained)
        .push_back(p);
  }
  Open(kept);
  if (!gained.empty() && !TakeOver(gained, *assignment)) {
    epoch_ = -1;  // tried again at the next poll
    return;
  }
  epoch_ = assignment->epoch;
  Open(assignment->partitions);
  Announce(assignment->partitions);
  LogLine({{"level", "info"},
           {"msg", "table partitions assigned"},
           {"group", consumer_group_},
           {"partitions", assignment->partitions}});
}

bool TableGroup::TakeOver(const std::vector<int>& gained,
                          const eventlog::Assignment& assignment) {
  // Beside this thread, which keeps polling (a member silent for a session
  // is presumed dead, and then fenced, even if it is not): waits out every
  // previous owner's last transaction on these partitions (on Kafka up to
  // transaction_timeout_ms after a crash), follows them to their end and
  // moves the outcome reader back to their positions. Nothing is decided
  // there meanwhile: they are not owned yet.
  std::future<absl::Status> settled =
      std::async(std::launch::async, [this, gained] { return Settle(gained); });
  bool moved_on = false;
  while (settled.wait_for(absl::ToChronoMilliseconds(options_.poll_interval)) !=
         std::future_status::ready) {
    const std::vector<int> kept = Owned();
    CloseAndDrain();
    absl::StatusOr<eventlog::Assignment> again = member_->Poll();
    // Moved on: a new assignment, or a rebalance under way (nothing
    // assigned meanwhile).
    if (!again.ok() || *again != assignment) {
      moved_on = true;
      Open({});
    } else {
      Open(kept);
    }
  }
  if (absl::Status s = settled.get(); !s.ok() || moved_on) {
    if (!s.ok()) {
      std::fprintf(stderr, "banca table group %s: not taken over yet: %s\n",
                   consumer_group_.c_str(), std::string(s.message()).c_str());
    }
    return false;
  }
  return true;
}

absl::Status TableGroup::Settle(const std::vector<int>& gained) {
  for (int p : gained) {
    absl::StatusOr<int64_t> offset =
        log_.CommittedOffset(consumer_group_, options_.topic, p);
    if (!offset.ok()) {
      return absl::Status(
          offset.status().code(),
          absl::StrCat("partition ", p, ": ", offset.status().message()));
    }
  }
  for (int p : gained) {
    int64_t from = 0;
    {
      absl::MutexLock lock(&mu_);
      from = followed_[p];
    }
    absl::StatusOr<int64_t> to = follow_(p, from);
    // A host that cannot apply its topic differs from it: only a restart
    // (a full replay) is safe.
    if (!to.ok()) eventlog::StopOnLogFailure("table", "following", to.status());
    absl::MutexLock lock(&mu_);
    followed_[p] = *to;
  }
  return gained_(gained);
}

void TableGroup::Announce(const std::vector<int>& owned) {
  if (options_.advertise_address.empty() || owned.empty()) return;
  std::vector<eventlog::Record> records;
  std::vector<eventlog::OffsetCommit> commits;
  {
    absl::MutexLock lock(&mu_);
    for (int p : owned) {
      records.push_back(wire::TableOwnerRecord(
          {consumer_group_, p, options_.advertise_address}));
      commits.push_back({consumer_group_, options_.topic, p, followed_[p]});
    }
  }
  absl::StatusOr<std::vector<eventlog::Position>> appended =
      member_->Append(std::move(records), std::move(commits));
  if (!appended.ok()) {
    // Fenced: the group moved on; the next poll learns it.
    std::fprintf(stderr, "banca table group %s: announce: %s\n",
                 consumer_group_.c_str(),
                 std::string(appended.status().message()).c_str());
  }
}

absl::Status TableGroup::ReadOwners() {
  const std::string topic(wire::kTableOwnersTopic);
  ASSIGN_OR_RETURN(const int64_t end, log_.EndOffset(topic, 0));
  while (owners_offset_ < end) {
    ASSIGN_OR_RETURN(std::vector<eventlog::StoredRecord> records,
                     log_.Read(topic, 0, owners_offset_, kOwnersBatch));
    if (records.empty()) break;
    for (const eventlog::StoredRecord& r : records) {
      owners_offset_ = r.offset + 1;
      std::optional<wire::TableOwnerAnnouncement> a = wire::DecodeTableOwner(r);
      if (a && a->consumer_group == consumer_group_ &&
          a->partition < options_.partitions) {
        owners_[a->partition] = a->address;
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TableOwner> TableGroup::OwnerOf(int p) {
  TableOwner owner;
  owner.partition = p;
  owner.here = Owns(p);
  if (owner.here) {
    owner.address = options_.advertise_address;
    return owner;
  }
  absl::MutexLock lock(&owners_mu_);
  if (absl::Now() - owners_read_ >= kOwnersRefresh) {
    RETURN_IF_ERROR(ReadOwners());
    owners_read_ = absl::Now();
  }
  auto it = owners_.find(p);
  if (it != owners_.end()) owner.address = it->second;
  return owner;
}

}  // namespace banca::table
