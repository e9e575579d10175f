// banca log stats|tail: read the event log as a person would, or (tail
// --json) as a program would (services/audit/log_tail.h).
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/eventlog/embedded_log.h"
#include "libs/eventlog/log_backend.h"
#include "libs/wire/topics.h"
#include "services/audit/log_tail.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

int Stats(eventlog::EventLog& log, const std::string& dir) {
  auto scan = dir.empty() ? absl::StatusOr<eventlog::JournalScanReport>(
                                absl::NotFoundError("not an embedded log"))
                          : eventlog::ScanJournal(dir);
  if (scan.ok()) {
    std::printf(
        "journal: %lld segments, %lld records, %lld batches, %lld "
        "bytes, CRC %s\n",
        static_cast<long long>(scan->segments),
        static_cast<long long>(scan->records),
        static_cast<long long>(scan->batches),
        static_cast<long long>(scan->bytes), scan->ok ? "ok" : "FAILED");
  }
  auto topics = log.ListTopics();
  if (!topics.ok()) {
    std::fprintf(stderr, "%s\n", topics.status().ToString().c_str());
    return 1;
  }
  for (const auto& topic : *topics) {
    int64_t total = 0;
    std::string per_partition;
    for (int p = 0; p < topic.partitions; ++p) {
      const int64_t end = log.EndOffset(topic.name, p).value_or(0);
      total += end;
      absl::StrAppend(&per_partition, p ? " " : "", end);
    }
    std::printf("topic %s: %d partitions, %lld events (ends: %s)\n",
                topic.name.c_str(), topic.partitions,
                static_cast<long long>(total), per_partition.c_str());
  }
  return 0;
}

struct LogFlags {
  std::string data_dir;
  std::string log = "embedded";
  int64_t n = 20;
  std::string topic = std::string(wire::kWalletTopic);
  bool json = false;
};

int Tail(eventlog::EventLog& log, const LogFlags& flags) {
  auto records = audit::TailTopic(log, flags.topic, flags.n);
  if (!records.ok()) {
    return Complain("banca log tail", records.status().ToString(), 1);
  }
  for (const eventlog::StoredRecord& r : *records) {
    const std::string line =
        flags.json ? audit::TailJson(r) : audit::TailLine(r);
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

int Run(const LogFlags& flags, bool tail) {
  const std::string dir =
      flags.log == "embedded" ? flags.data_dir + "/log" : "";
  auto log = eventlog::OpenLogBackendReadOnly(flags.log, flags.data_dir);
  if (!log.ok()) return Complain("banca log", log.status().ToString(), 1);
  return tail ? Tail(**log, flags) : Stats(**log, dir);
}

}  // namespace

void AddLogCommand(CLI::App& banca, Action* action) {
  CLI::App* log =
      banca.add_subcommand("log", "inspect the event log (the server stopped)");
  log->require_subcommand(1);
  auto flags = std::make_shared<LogFlags>();
  CLI::App* stats =
      log->add_subcommand("stats", "journal check and events per topic");
  CLI::App* tail =
      log->add_subcommand("tail", "the last events of a topic, merged by time");
  for (CLI::App* sub : {stats, tail}) {
    sub->add_option("--data-dir", flags->data_dir,
                    "the server's data directory")
        ->required();
    sub->add_option("--log", flags->log, "embedded, or kafka://HOST:PORT");
  }
  AddInt(*tail, "--n", flags->n, "events to show", 1, audit::kMaxTail);
  tail->add_option("--topic", flags->topic, "the topic");
  AddSwitch(*tail, "--json", flags->json,
            "one JSON object per record (the wallet's events decoded)");
  OnParsed(*stats, action, [flags] { return Run(*flags, /*tail=*/false); });
  OnParsed(*tail, action, [flags] { return Run(*flags, /*tail=*/true); });
}

}  // namespace banca::cli
