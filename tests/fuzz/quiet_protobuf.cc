// Linked into every fuzz target: protobuf logs each string field that is
// not UTF-8 when it parses one, which is most fuzzed inputs; the log would
// drown libFuzzer's output and slow the runs.
#include "google/protobuf/stubs/logging.h"

namespace {

const bool quiet = [] {
  google::protobuf::SetLogHandler(nullptr);
  return true;
}();

}  // namespace
