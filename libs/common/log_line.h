// One structured log line as banca writes them to stderr:
// {"level":…,"service":…,"msg":…,<field>:…}, every string escaped
// (json_text.h), whatever a client or a status put in it.
#ifndef BANCA_LIBS_COMMON_LOG_LINE_H_
#define BANCA_LIBS_COMMON_LOG_LINE_H_

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace banca {

using LogField = std::pair<std::string_view, std::string_view>;

std::string LogLine(std::string_view level, std::string_view service,
                    std::string_view msg,
                    std::initializer_list<LogField> fields = {});

// Writes LogLine(...) and a newline to stderr and flushes it.
void PrintLogLine(std::string_view level, std::string_view service,
                  std::string_view msg,
                  std::initializer_list<LogField> fields = {});

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_LOG_LINE_H_
