#include "libs/common/log_line.h"

#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "libs/common/json_text.h"
#include "spdlog/formatter.h"
#include "spdlog/logger.h"
#include "spdlog/sinks/ostream_sink.h"
#include "spdlog/sinks/stdout_sinks.h"

namespace banca {
namespace {

constexpr size_t kMaxFieldNameBytes = 64;

spdlog::level::level_enum SpdLevel(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return spdlog::level::debug;
    case LogLevel::kInfo:
      return spdlog::level::info;
    case LogLevel::kWarning:
      return spdlog::level::warn;
    case LogLevel::kError:
      return spdlog::level::err;
    case LogLevel::kFatal:
      return spdlog::level::critical;
  }
  return spdlog::level::err;
}

std::string_view SpdLevelName(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug:
      return "debug";
    case spdlog::level::info:
      return "info";
    case spdlog::level::warn:
      return "warning";
    case spdlog::level::err:
      return "error";
    default:
      return "fatal";
  }
}

// {"time":…,"level":…, then the object Log() made (its fields after
// these two); text that is not such an object (a line logged straight
// through spdlog) becomes the line's "msg".
class JsonLineFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg,
              spdlog::memory_buf_t& dest) override {
    const absl::Time at = absl::FromChrono(msg.time);
    std::string line = "{\"time\":\"";
    line += absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", at, absl::UTCTimeZone());
    line += "\",\"level\":\"";
    line += SpdLevelName(msg.level);
    line += "\"";
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    if (payload.size() > 2 && payload.front() == '{' && payload.back() == '}') {
      line += ",";
      line += payload.substr(1);
    } else {
      nlohmann::ordered_json j;
      j["msg"] = std::string(payload);
      line += ",";
      line += std::string_view(JsonText(j)).substr(1);
    }
    line.push_back('\n');
    dest.append(line.data(), line.data() + line.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonLineFormatter>();
  }
};

std::shared_ptr<spdlog::logger> NewLogger(std::string name,
                                          spdlog::sink_ptr sink,
                                          spdlog::level::level_enum level) {
  auto logger = std::make_shared<spdlog::logger>(std::move(name), sink);
  logger->set_formatter(std::make_unique<JsonLineFormatter>());
  logger->set_level(level);
  logger->flush_on(spdlog::level::trace);  // every line, at once
  return logger;
}

// The two loggers (stderr's, filtered; stdout's, never), swapped whole by
// RedirectLogForTesting.
struct Loggers {
  absl::Mutex mu;
  spdlog::level::level_enum level ABSL_GUARDED_BY(mu) = spdlog::level::info;
  std::shared_ptr<spdlog::logger> err ABSL_GUARDED_BY(mu) =
      NewLogger("banca", std::make_shared<spdlog::sinks::stderr_sink_mt>(),
                spdlog::level::info);
  std::shared_ptr<spdlog::logger> out ABSL_GUARDED_BY(mu) =
      NewLogger("banca-out", std::make_shared<spdlog::sinks::stdout_sink_mt>(),
                spdlog::level::trace);
};

Loggers& TheLoggers() {
  static auto* loggers = new Loggers();  // never destroyed: logged at exit
  return *loggers;
}

// {"service":…,"msg":…,<fields>}: every string escaped.
std::string Payload(std::string_view service, std::string_view msg,
                    std::initializer_list<LogField> fields) {
  nlohmann::ordered_json line;
  line["service"] = service;
  line["msg"] = msg;
  for (const auto& [name, value] : fields) {
    std::string key(name.substr(0, kMaxFieldNameBytes));
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>,
                                       std::span<const int>>) {
            line[key] = std::vector<int>(v.begin(), v.end());
          } else {
            line[key] = v;
          }
        },
        value.value());
  }
  return JsonText(line);
}

}  // namespace

std::string_view LogLevelName(LogLevel level) {
  return SpdLevelName(SpdLevel(level));
}

std::optional<LogLevel> ParseLogLevel(std::string_view name) {
  for (LogLevel level : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning,
                         LogLevel::kError, LogLevel::kFatal}) {
    if (name == LogLevelName(level)) return level;
  }
  return std::nullopt;
}

void SetLogLevel(LogLevel level) {
  Loggers& loggers = TheLoggers();
  absl::MutexLock lock(&loggers.mu);
  loggers.level = SpdLevel(level);
  loggers.err->set_level(loggers.level);
}

void Log(LogLevel level, std::string_view service, std::string_view msg,
         std::initializer_list<LogField> fields) {
  std::shared_ptr<spdlog::logger> logger;
  {
    Loggers& loggers = TheLoggers();
    absl::MutexLock lock(&loggers.mu);
    logger = loggers.err;
  }
  const spdlog::level::level_enum l = SpdLevel(level);
  if (!logger->should_log(l)) return;
  logger->log(l, Payload(service, msg, fields));
}

void Announce(std::string_view service, std::string_view msg,
              std::initializer_list<LogField> fields) {
  std::shared_ptr<spdlog::logger> logger;
  {
    Loggers& loggers = TheLoggers();
    absl::MutexLock lock(&loggers.mu);
    logger = loggers.out;
  }
  logger->log(spdlog::level::info, Payload(service, msg, fields));
}

void RedirectLogForTesting(std::ostream* out) {
  Loggers& loggers = TheLoggers();
  absl::MutexLock lock(&loggers.mu);
  if (out == nullptr) {
    loggers.err =
        NewLogger("banca", std::make_shared<spdlog::sinks::stderr_sink_mt>(),
                  loggers.level);
    loggers.out = NewLogger("banca-out",
                            std::make_shared<spdlog::sinks::stdout_sink_mt>(),
                            spdlog::level::trace);
    return;
  }
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(*out, true);
  loggers.err = NewLogger("banca", sink, loggers.level);
  loggers.out = NewLogger("banca-out", sink, spdlog::level::trace);
}

}  // namespace banca
