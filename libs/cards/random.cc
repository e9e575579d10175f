#include "libs/cards/random.h"

#include <pthread.h>
#include <sodium.h>

#include <atomic>
#include <cstring>

#include "absl/status/status.h"
#include "libs/common/status_macros.h"

namespace banca::cards {
namespace {

// Bumped in every forked child. A source whose buffer was filled under an
// older generation throws it away, so a fork never duplicates random output.
std::atomic<uint64_t> g_fork_generation{1};

void OnForkChild() { g_fork_generation.fetch_add(1); }

bool InitSodiumOnce() {
  static const bool ok = [] {
    if (sodium_init() < 0) return false;
    pthread_atfork(nullptr, nullptr, &OnForkChild);
    return true;
  }();
  return ok;
}

}  // namespace

uint32_t RandomSource::NextU32() {
  uint8_t b[4];
  Fill(absl::MakeSpan(b));
  return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 |
         uint32_t{b[3]} << 24;
}

absl::StatusOr<std::unique_ptr<SystemRandomSource>>
SystemRandomSource::Create() {
  if (!InitSodiumOnce()) {
    return absl::InternalError("libsodium failed to initialise (sodium_init)");
  }
  return std::unique_ptr<SystemRandomSource>(new SystemRandomSource());
}

SystemRandomSource::~SystemRandomSource() {
  sodium_memzero(buffer_.data(), buffer_.size());
}

void SystemRandomSource::Refill() {
  randombytes_buf(buffer_.data(), buffer_.size());
  pos_ = 0;
  fork_generation_ = g_fork_generation.load(std::memory_order_relaxed);
}

void SystemRandomSource::Fill(absl::Span<uint8_t> out) {
  // Large requests bypass the buffer: nothing to gain from copying.
  if (out.size() >= kBufferBytes) {
    randombytes_buf(out.data(), out.size());
    return;
  }
  for (uint8_t& byte : out) {
    if (pos_ == kBufferBytes ||
        fork_generation_ != g_fork_generation.load(std::memory_order_relaxed)) {
      Refill();
    }
    byte = buffer_[pos_];
    buffer_[pos_] = 0;
    ++pos_;
  }
}

uint32_t SystemRandomSource::NextU32() {
  if (kBufferBytes - pos_ < 4 ||
      fork_generation_ != g_fork_generation.load(std::memory_order_relaxed)) {
    Refill();
  }
  uint32_t v;
  std::memcpy(&v, buffer_.data() + pos_, 4);
  sodium_memzero(buffer_.data() + pos_, 4);
  pos_ += 4;
  return v;
}

uint32_t UniformInt(RandomSource& rng, uint32_t n) {
  if (n <= 1) return 0;
  // 2^32 mod n, computed in 32 bits: (2^32 - n) mod n.
  const uint32_t rejected = (0u - n) % n;
  const uint32_t limit = 0u - rejected;  // 2^32 - rejected; 0 means 2^32.
  for (;;) {
    uint32_t x = rng.NextU32();
    if (limit == 0 || x < limit) return x % n;
  }
}

absl::StatusOr<std::vector<Card>> ShuffledDeck(RandomSource& rng,
                                               const DeckSpec& spec) {
  ASSIGN_OR_RETURN(std::vector<Card> deck, BuildDeck(spec));
  Shuffle(absl::MakeSpan(deck), rng);
  return deck;
}

}  // namespace banca::cards
