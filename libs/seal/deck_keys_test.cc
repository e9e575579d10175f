#include "libs/seal/deck_keys.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace banca::seal {
namespace {

DeckKeys Keys(const std::string& text) {
  absl::StatusOr<DeckKeys> keys = DeckKeys::FromKeyFileText(text);
  EXPECT_TRUE(keys.ok()) << keys.status();
  return keys.ok() ? *std::move(keys) : DeckKeys();
}

TEST(DeckKeys, ASealedDeckOpensForItsDealOnly) {
  const DeckKeys keys = Keys(DeckKeys::NewKeyHex());
  absl::StatusOr<Sealed> sealed = keys.Seal("AhKd2c", "t1/hand/7");
  ASSERT_TRUE(sealed.ok()) << sealed.status();
  EXPECT_EQ(sealed->key_id, keys.sealing_key_id());
  EXPECT_EQ(sealed->nonce.size(), kNonceBytes);
  EXPECT_EQ(sealed->box.find("AhKd2c"), std::string::npos);
  EXPECT_EQ(*keys.Open(*sealed, "t1/hand/7"), "AhKd2c");
  EXPECT_EQ(keys.Open(*sealed, "t1/hand/8").status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(keys.Open(*sealed, "t2/hand/7").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(DeckKeys, TwoSealsOfOneDeckDiffer) {
  const DeckKeys keys = Keys(DeckKeys::NewKeyHex());
  const Sealed a = *keys.Seal("AhKd2c", "c");
  const Sealed b = *keys.Seal("AhKd2c", "c");
  EXPECT_NE(a.nonce, b.nonce);
  EXPECT_NE(a.box, b.box);
}

TEST(DeckKeys, AnAlteredBoxOrNonceDoesNotOpen) {
  const DeckKeys keys = Keys(DeckKeys::NewKeyHex());
  const Sealed sealed = *keys.Seal("AhKd2c", "c");
  for (size_t i = 0; i < sealed.box.size(); ++i) {
    Sealed altered = sealed;
    altered.box[i] ^= 1;
    EXPECT_EQ(keys.Open(altered, "c").status().code(),
              absl::StatusCode::kDataLoss)
        << i;
  }
  Sealed altered = sealed;
  altered.nonce[0] ^= 1;
  EXPECT_FALSE(keys.Open(altered, "c").ok());
  altered = sealed;
  altered.nonce.pop_back();
  EXPECT_EQ(keys.Open(altered, "c").status().code(),
            absl::StatusCode::kDataLoss);
  altered = sealed;
  altered.box = "short";
  EXPECT_EQ(keys.Open(altered, "c").status().code(),
            absl::StatusCode::kDataLoss);
}

TEST(DeckKeys, ARotationOpensWithTheOldKeyAndSealsWithTheNew) {
  const std::string old_key = DeckKeys::NewKeyHex();
  const std::string new_key = DeckKeys::NewKeyHex();
  const DeckKeys before = Keys(old_key);
  const DeckKeys after =
      Keys(absl::StrCat("# rotated\n", new_key, "\n", old_key, "\n"));
  const Sealed old_sealed = *before.Seal("deck", "c");
  EXPECT_EQ(*after.Open(old_sealed, "c"), "deck");
  EXPECT_NE(after.sealing_key_id(), before.sealing_key_id());
  const Sealed new_sealed = *after.Seal("deck", "c");
  EXPECT_EQ(new_sealed.key_id, after.sealing_key_id());
  EXPECT_EQ(before.Open(new_sealed, "c").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(DeckKeys, KeyFilesAreChecked) {
  const std::string key = DeckKeys::NewKeyHex();
  EXPECT_EQ(key.size(), 2 * kKeyBytes);
  EXPECT_FALSE(DeckKeys::FromKeyFileText("").ok());
  EXPECT_FALSE(DeckKeys::FromKeyFileText("# only a comment\n").ok());
  EXPECT_FALSE(DeckKeys::FromKeyFileText(key.substr(1)).ok());
  EXPECT_FALSE(DeckKeys::FromKeyFileText(std::string(64, 'g')).ok());
  EXPECT_FALSE(
      DeckKeys::FromKeyFileText(absl::StrCat(key, "\n", key, "\n")).ok());
  std::string many;
  for (size_t i = 0; i <= kMaxDeckKeys; ++i) {
    absl::StrAppend(&many, DeckKeys::NewKeyHex(), "\n");
  }
  EXPECT_FALSE(DeckKeys::FromKeyFileText(many).ok());
  EXPECT_TRUE(DeckKeys::FromKeyFileText(absl::StrCat("  ", key, "  \n")).ok());
}

TEST(DeckKeys, NoKeysSealNothing) {
  const DeckKeys none;
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.Seal("deck", "c").ok());
  EXPECT_FALSE(none.Open(Sealed{}, "c").ok());
  const DeckKeys keys = Keys(DeckKeys::NewKeyHex());
  EXPECT_FALSE(keys.Seal(std::string(kMaxSealedBytes + 1, 'x'), "c").ok());
}

}  // namespace
}  // namespace banca::seal
