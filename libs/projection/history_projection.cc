#include "libs/projection/history_projection.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"
#include "libs/projection/table_history.h"
#include "libs/projection/tournament_history.h"
#include "libs/wire/topics.h"

namespace banca::projection {
namespace {

// Records read at a time when memory is rebuilt from the log.
constexpr size_t kWarmBatch = 4096;

}  // namespace

struct HistoryProjector::Partition {
  bool warm = false;
  int64_t last = -1;  // the last offset applied
  std::map<std::string, PokerTable> poker;
  std::map<std::string, BankedTable> banked;
  std::map<std::string, TournamentMemory> tournaments;
};

namespace {

absl::Status Take(HistoryProjector::Partition& m,
                  const eventlog::StoredRecord& record, Txn* txn) {
  if (record.topic == wire::kTableTopic) {
    return TakePokerTable(m.poker, record, txn);
  }
  if (record.topic == wire::kTournamentTopic) {
    return TakeTournament(m.tournaments, record, txn);
  }
  return TakeBankedTable(m.banked, record, txn);
}

}  // namespace

HistoryProjector::HistoryProjector(eventlog::EventLog* log) : log_(log) {}
HistoryProjector::~HistoryProjector() = default;

std::vector<std::string> HistoryProjector::Topics() const {
  return {std::string(wire::kTableTopic), std::string(wire::kBankedTopic),
          std::string(wire::kTournamentTopic)};
}

absl::Status HistoryProjector::Warm(const eventlog::StoredRecord& record,
                                    Partition& memory) {
  memory = Partition();
  memory.warm = true;
  int64_t next = 0;
  while (next < record.offset) {
    if (log_ == nullptr) {
      return absl::FailedPreconditionError(
          "the history projection resumes past offset 0 without its log");
    }
    const size_t want = static_cast<size_t>(
        std::min<int64_t>(record.offset - next, kWarmBatch));
    ASSIGN_OR_RETURN(std::vector<eventlog::StoredRecord> records,
                     log_->Read(record.topic, record.partition, next, want));
    if (records.empty()) break;  // only markers left below the record
    for (const eventlog::StoredRecord& r : records) {
      if (r.offset >= record.offset) return absl::OkStatus();
      RETURN_IF_ERROR(Take(memory, r, nullptr));
      memory.last = r.offset;
      next = r.offset + 1;
    }
  }
  return absl::OkStatus();
}

absl::Status HistoryProjector::Apply(const eventlog::StoredRecord& record,
                                     Txn& txn) {
  std::unique_ptr<Partition>& slot = memory_[{record.topic, record.partition}];
  if (slot == nullptr) slot = std::make_unique<Partition>();
  if (!slot->warm || record.offset <= slot->last) {
    // Memory is not the log up to this record: rebuild it from the log.
    RETURN_IF_ERROR(Warm(record, *slot));
  }
  absl::Status s = Take(*slot, record, &txn);
  if (!s.ok()) {
    slot->warm = false;  // half applied: rebuild on the next try
    return s;
  }
  slot->last = record.offset;
  return absl::OkStatus();
}

std::string HistoryKey(const v1::Reference& ref) {
  return absl::StrCat("hist/game/", static_cast<int>(ref.kind()), "/",
                      ref.id());
}

std::string HistoryPlayerPrefix(std::string_view player,
                                std::string_view game) {
  return game.empty() ? absl::StrCat("hist/player/", ToAbsl(player), "/all/")
                      : absl::StrCat("hist/player/", ToAbsl(player), "/game/",
                                     ToAbsl(game), "/");
}

std::string HistoryTablePrefix(std::string_view table) {
  return absl::StrCat("hist/table/", ToAbsl(table), "/");
}

std::string HistoryTableKey(std::string_view table) {
  return absl::StrCat("hist/tables/", ToAbsl(table));
}

std::string HistoryTournamentKey(std::string_view tournament) {
  return absl::StrCat("hist/tournaments/", ToAbsl(tournament));
}

std::string HistoryTournamentPrefix(std::string_view tournament) {
  return absl::StrCat("hist/tournament/", ToAbsl(tournament), "/");
}

std::string HistoryTimePrefix() { return "hist/time/"; }

std::string SessionPrefix(std::string_view player, std::string_view game) {
  return game.empty() ? absl::StrCat("sess/", ToAbsl(player), "/all/")
                      : absl::StrCat("sess/", ToAbsl(player), "/game/",
                                     ToAbsl(game), "/");
}

std::string NewestFirstStart(std::string_view prefix, int64_t micros) {
  return absl::StrFormat("%s%016x", ToAbsl(prefix),
                         UINT64_MAX - static_cast<uint64_t>(micros));
}

int64_t IndexMicros(std::string_view prefix, std::string_view key) {
  uint64_t inv = 0;
  if (key.size() < prefix.size() + 16 ||
      !absl::SimpleHexAtoi(ToAbsl(key.substr(prefix.size(), 16)), &inv)) {
    return 0;
  }
  return static_cast<int64_t>(UINT64_MAX - inv);
}

}  // namespace banca::projection
