// A fault-injecting EventLog around a real one (TigerBeetle-style fault
// simulation): everything goes to the real log, but the wrapper can hold
// back the append callbacks (the batch is stored; its writer is not told it
// is durable until Release) or fail appends (the batch is never stored;
// its writer hears UNAVAILABLE on Release), and can fail the reads of one
// topic's partition (UNAVAILABLE, as a broker that is away answers).
// Offsets and topics go straight through.
#ifndef BANCA_TESTS_INTEGRATION_FAULT_LOG_H_
#define BANCA_TESTS_INTEGRATION_FAULT_LOG_H_

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "libs/eventlog/event_log.h"

namespace banca::testing {

class FaultLog final : public eventlog::EventLog {
 public:
  enum class Mode { kPass, kHold, kFail };

  explicit FaultLog(eventlog::EventLog& inner) : inner_(inner) {}

  void SetMode(Mode mode) {
    absl::MutexLock lock(&mu_);
    mode_ = mode;
  }
  // Appends whose callbacks are held, or will be once the real log answers.
  int held() {
    absl::MutexLock lock(&mu_);
    return static_cast<int>(held_.size()) + outstanding_;
  }
  // Back to kPass; runs the held callbacks in order on this thread, once
  // the real log has answered every held append.
  void Release() {
    std::deque<Held> run;
    {
      absl::MutexLock lock(&mu_);
      mode_ = Mode::kPass;
      mu_.Await(absl::Condition(
          +[](int* n) { return *n == 0; }, &outstanding_));
      run.swap(held_);
    }
    for (Held& h : run) h.done(h.status, std::move(h.positions));
  }

  // Reads of `topic`'s `partition` fail until ClearReadFault.
  void FailReads(std::string_view topic, int partition) {
    absl::MutexLock lock(&mu_);
    read_fault_ = {std::string(topic), partition};
  }
  void ClearReadFault() {
    absl::MutexLock lock(&mu_);
    read_fault_ = {"", -1};
  }

  void AppendAsync(std::vector<eventlog::Record> records,
                   std::vector<eventlog::OffsetCommit> commits,
                   eventlog::AppendCallback done) override {
    Mode mode;
    {
      absl::MutexLock lock(&mu_);
      mode = mode_;
      if (mode == Mode::kFail) {
        held_.push_back({absl::UnavailableError("injected: the disk is gone"),
                         {},
                         std::move(done)});
        return;
      }
      if (mode == Mode::kHold) ++outstanding_;
    }
    if (mode == Mode::kPass) {
      inner_.AppendAsync(std::move(records), std::move(commits),
                         std::move(done));
      return;
    }
    inner_.AppendAsync(
        std::move(records), std::move(commits),
        [this, done = std::move(done)](
            absl::Status status,
            std::vector<eventlog::Position> positions) mutable {
          absl::MutexLock lock(&mu_);
          held_.push_back(
              {std::move(status), std::move(positions), std::move(done)});
          --outstanding_;
        });
  }

  absl::Status EnsureTopic(const eventlog::TopicConfig& config) override {
    return inner_.EnsureTopic(config);
  }
  absl::StatusOr<int> PartitionCount(std::string_view topic) override {
    return inner_.PartitionCount(topic);
  }
  absl::StatusOr<std::vector<eventlog::StoredRecord>> Read(
      std::string_view topic, int partition, int64_t offset,
      size_t max_records) override {
    {
      absl::MutexLock lock(&mu_);
      if (read_fault_.first == topic && read_fault_.second == partition) {
        return absl::UnavailableError("injected: the broker is away");
      }
    }
    return inner_.Read(topic, partition, offset, max_records);
  }
  absl::StatusOr<int64_t> EndOffset(std::string_view topic,
                                    int partition) override {
    return inner_.EndOffset(topic, partition);
  }
  absl::Status CommitOffsets(
      std::vector<eventlog::OffsetCommit> commits) override {
    return inner_.CommitOffsets(std::move(commits));
  }
  absl::StatusOr<int64_t> CommittedOffset(std::string_view group,
                                          std::string_view topic,
                                          int partition) override {
    return inner_.CommittedOffset(group, topic, partition);
  }
  absl::StatusOr<std::vector<eventlog::TopicConfig>> ListTopics() override {
    return inner_.ListTopics();
  }

 private:
  struct Held {
    absl::Status status;
    std::vector<eventlog::Position> positions;
    eventlog::AppendCallback done;
  };

  eventlog::EventLog& inner_;
  absl::Mutex mu_;
  Mode mode_ ABSL_GUARDED_BY(mu_) = Mode::kPass;
  int outstanding_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<Held> held_ ABSL_GUARDED_BY(mu_);
  std::pair<std::string, int> read_fault_ ABSL_GUARDED_BY(mu_) = {"", -1};
};

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_FAULT_LOG_H_
