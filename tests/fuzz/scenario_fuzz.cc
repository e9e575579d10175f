// The scenario parser and runner (libs/scenario/scenario.h): the JSON files
// `banca scenario run` reads, played through the production engines, ledger
// and a throw-away embedded log. A malformed file must exit 2 (or a step be
// rejected), never crash or hit UB; and a played scenario's ledger must sum
// to zero.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "libs/scenario/scenario.h"
#include "nlohmann/json.hpp"

namespace {

const std::string& WorkDir() {
  static const std::string* dir = [] {
    std::string d = std::filesystem::temp_directory_path().string() +
                    "/banca-scenario-fuzz-XXXXXX";
    if (mkdtemp(d.data()) == nullptr) std::abort();
    std::atexit([] { std::filesystem::remove_all(WorkDir()); });
    return new std::string(d);
  }();
  return *dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace banca::scenario;
  const ScenarioRun run = RunScenario(
      std::string_view(reinterpret_cast<const char*>(data), size), WorkDir());
  if (run.exit_code != kScenarioPlayed) return 0;
  const nlohmann::json out = nlohmann::json::parse(run.json, nullptr, false);
  if (out.is_discarded() || !out.contains("ledger_sum") ||
      out["ledger_sum"] != 0 || out.contains("violations")) {
    std::fprintf(stderr, "scenario played to %s\n", run.json.c_str());
    std::abort();
  }
  return 0;
}
