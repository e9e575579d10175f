// JSON as banca prints it (`--json` output, structured log lines): one
// line, built with nlohmann::json so that every string is escaped (quotes,
// backslashes, control characters), and bytes that are not UTF-8 (a name
// a client chose) replaced by U+FFFD rather than thrown on.
#ifndef BANCA_LIBS_COMMON_JSON_TEXT_H_
#define BANCA_LIBS_COMMON_JSON_TEXT_H_

#include <string>

#include "nlohmann/json.hpp"

namespace banca {

std::string JsonText(const nlohmann::json& value);
std::string JsonText(const nlohmann::ordered_json& value);

}  // namespace banca

#endif  // BANCA_LIBS_COMMON_JSON_TEXT_H_
