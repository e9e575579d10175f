#include "libs/common/log_line.h"

#include <cstdio>

#include "libs/common/json_text.h"

namespace banca {

std::string LogLine(std::string_view level, std::string_view service,
                    std::string_view msg,
                    std::initializer_list<LogField> fields) {
  nlohmann::ordered_json line;
  line["level"] = level;
  line["service"] = service;
  line["msg"] = msg;
  for (const auto& [name, value] : fields) line[std::string(name)] = value;
  return JsonText(line);
}

void PrintLogLine(std::string_view level, std::string_view service,
                  std::string_view msg,
                  std::initializer_list<LogField> fields) {
  const std::string line = LogLine(level, service, msg, fields);
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace banca
