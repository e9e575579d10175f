// Fingerprints are written to the log with every command (and compared
// again after a replay), so their bytes must never change: the golden
// values below pin them, and a reference implementation (a copy of the
// request with its request_id cleared, serialized deterministically)
// checks the fast one on requests of several shapes.
#include "libs/common/request_fingerprint.h"

#include <sodium.h>

#include <memory>
#include <string>

#include "absl/strings/escaping.h"
#include "banca/v1/table.pb.h"
#include "banca/v1/wallet.pb.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "gtest/gtest.h"

namespace banca {
namespace {

std::string Reference(std::string_view method,
                      const google::protobuf::Message& body,
                      std::string_view caller = "") {
  std::unique_ptr<google::protobuf::Message> copy(body.New());
  copy->CopyFrom(body);
  const auto* field = copy->GetDescriptor()->FindFieldByName("request_id");
  if (field != nullptr) copy->GetReflection()->ClearField(copy.get(), field);
  std::string bytes(method);
  bytes.push_back('\0');
  if (!caller.empty()) {
    bytes.append(caller);
    bytes.push_back('\0');
  }
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    copy->SerializeToCodedStream(&out);
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest,
                     reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  return std::string(reinterpret_cast<const char*>(digest), 16);
}

v1::ActRequest Act() {
  v1::ActRequest a;
  a.set_request_id("act-17");
  a.set_table_id("t1");
  a.set_hand_number(42);
  a.set_action(v1::POKER_ACTION_TYPE_RAISE);
  a.set_amount_minor(1'250);
  return a;
}

TEST(RequestFingerprint, GoldenValuesNeverChange) {
  EXPECT_EQ(absl::BytesToHexString(RequestFingerprint("Act", Act(), "ana")),
            "198d7763cb8668f63cf6a9e343dfde84");
  v1::DepositRequest d;
  d.set_request_id("dep-1");
  d.set_player_id("ana");
  d.set_amount_minor(10'000);
  d.set_payment_ref("psp-1");
  EXPECT_EQ(absl::BytesToHexString(RequestFingerprint("Deposit", d)),
            "e9cdf98a813d7592eb412343d0220d11");
}

TEST(RequestFingerprint, IgnoresTheRequestIdAndNothingElse) {
  v1::ActRequest other_id = Act();
  other_id.set_request_id("act-18");
  EXPECT_EQ(RequestFingerprint("Act", Act()),
            RequestFingerprint("Act", other_id));
  v1::ActRequest other_amount = Act();
  other_amount.set_amount_minor(1'251);
  EXPECT_NE(RequestFingerprint("Act", Act()),
            RequestFingerprint("Act", other_amount));
  EXPECT_NE(RequestFingerprint("Act", Act()),
            RequestFingerprint("Rebuy", Act()));
  EXPECT_NE(RequestFingerprint("Act", Act(), "ana"),
            RequestFingerprint("Act", Act(), "rui"));
}

TEST(RequestFingerprint, MatchesTheCopyWithoutItsRequestId) {
  const v1::ActRequest act = Act();
  v1::ActRequest no_id = act;
  no_id.clear_request_id();
  v1::ActRequest only_id;
  only_id.set_request_id("x");
  v1::ActRequest with_unknown = act;
  with_unknown.GetReflection()
      ->MutableUnknownFields(&with_unknown)
      ->AddVarint(999, 7);
  // Nested messages and repeated fields around the request id.
  v1::CreateTableRequest create;
  create.set_request_id("create-t1");
  create.set_table_id("t1");
  create.set_name("Mesa 1");
  create.mutable_config()->set_seats(6);
  create.mutable_config()->set_big_blind_minor(100);
  v1::TableView view;  // no request_id field at all
  view.set_table_id("t1");
  view.add_board("As");
  view.add_seats()->set_player_id("ana");
  const google::protobuf::Message* bodies[] = {&act,          &no_id,  &only_id,
                                               &with_unknown, &create, &view};
  for (const google::protobuf::Message* body : bodies) {
    for (std::string_view caller : {"", "ana"}) {
      EXPECT_EQ(RequestFingerprint("M", *body, caller),
                Reference("M", *body, caller))
          << body->ShortDebugString();
    }
  }
}

}  // namespace
}  // namespace banca
