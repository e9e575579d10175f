// banca's structured log: one JSON object per line,
//   {"time":"2026-11-26T13:57:33.123Z","level":"info","service":…,
//    "msg":…,<field>:…}
// written by spdlog (Debian's libspdlog-dev) to stderr, every string
// escaped by nlohmann::json (json_text.h) whatever a client or a status put
// in it. `time` is RFC 3339 in UTC with milliseconds. This is the one API
// the code logs through; spdlog stays behind it.
#ifndef BANCA_LIBS_COMMON_LOG_LINE_H_
#define BANCA_LIBS_COMMON_LOG_LINE_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"

namespace banca {

enum class LogLevel { kDebug, kInfo, kWarning, kError, kFatal };

// "debug", "info", "warning", "error", "fatal": the `level` of a line and
// what `banca serve --log-level` takes.
std::string_view LogLevelName(LogLevel level);
// nullopt for any other name.
std::optional<LogLevel> ParseLogLevel(std::string_view name);

// A field's value: a string (escaped), an integer, a boolean or a list of
// small integers (partitions).
class LogValue {
 public:
  LogValue(std::string_view s) : value_(s) {}  // NOLINT: implicit on purpose
  LogValue(const char* s) : value_(std::string_view(s)) {}         // NOLINT
  LogValue(const std::string& s) : value_(std::string_view(s)) {}  // NOLINT
  // Debian's Abseil has its own string_view (a Status's message).
  LogValue(absl::string_view s)  // NOLINT
      : value_(std::string_view(s.data(), s.size())) {}
  LogValue(int64_t v) : value_(v) {}                    // NOLINT
  LogValue(int v) : value_(static_cast<int64_t>(v)) {}  // NOLINT
  LogValue(bool v) : value_(v) {}                       // NOLINT
  LogValue(const std::vector<int>& v) : value_(std::span<const int>(v)) {}

  using Value =
      std::variant<std::string_view, int64_t, bool, std::span<const int>>;
  const Value& value() const { return value_; }

 private:
  Value value_;
};

using LogField = std::pair<std::string_view, LogValue>;

// Lines below `level` are dropped (default: info). Fatal lines never are.
void SetLogLevel(LogLevel level);

// Writes one line to stderr and flushes it (a fatal line is followed by an
// abort: it must be out first).
void Log(LogLevel level, std::string_view service, std::string_view msg,
         std::initializer_list<LogField> fields = {});

// The same line on stdout, whatever the level set: what a script waits
// for (`banca serve`'s "serving" and "stopped").
void Announce(std::string_view service, std::string_view msg,
              std::initializer_list<LogField> fields = {});

// Tests: every line (stderr's and stdout's) goes to `out` instead, until
// called again with nullptr.
void RedirectLogForTesting(std::ostream* out);

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_LOG_LINE_H_
