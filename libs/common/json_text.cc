#include "libs/common/json_text.h"

namespace banca {

std::string JsonText(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string JsonText(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false,
                    nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace banca
