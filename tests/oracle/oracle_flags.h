// The oracle generators' command line (generate_hands.cc,
// generate_tournament_hands.cc): --hands=N --seed=S --out=DIR.
#ifndef BANCA_TESTS_ORACLE_ORACLE_FLAGS_H_
#define BANCA_TESTS_ORACLE_ORACLE_FLAGS_H_

#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>

#include "absl/strings/numbers.h"

namespace banca::oracle {

struct OracleFlags {
  int64_t hands = 0;
  uint64_t seed = 1;
  std::string out;
};

// False (after printing `usage` on stderr) for an unknown flag, a bad
// number, no --out or no hands.
inline bool ParseOracleFlags(int argc, char** argv, std::string_view usage,
                             OracleFlags* flags) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&](std::string_view flag) -> const char* {
      return arg.substr(0, flag.size()) == flag ? argv[i] + flag.size()
                                                : nullptr;
    };
    if (const char* v = value("--hands=");
        v && absl::SimpleAtoi(v, &flags->hands)) {
    } else if (const char* v = value("--seed=");
               v && absl::SimpleAtoi(v, &flags->seed)) {
    } else if (const char* v = value("--out=")) {
      flags->out = v;
    } else {
      std::cerr << usage << "\n";
      return false;
    }
  }
  if (flags->out.empty() || flags->hands <= 0) {
    std::cerr << usage << "\n";
    return false;
  }
  return true;
}

}  // namespace banca::oracle

#endif  // BANCA_TESTS_ORACLE_ORACLE_FLAGS_H_
