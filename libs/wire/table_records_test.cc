// The table topics' records byte for byte: what the poker and banked codecs
// append for a sample of each kind of event (a plain event, and each money
// request with its copy for the wallet) must never change, or old logs stop
// decoding and the wallet's request ids move. The expected bytes were
// written by the codecs before they shared one implementation.
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "banca/v1/banked_table.pb.h"
#include "banca/v1/table.pb.h"
#include "gtest/gtest.h"
#include "libs/wire/banked_codec.h"
#include "libs/wire/table_codec.h"

namespace banca::wire {
namespace {

// A record as one line: topic, key, timestamp, headers, the value in hex.
std::string Describe(const eventlog::Record& r) {
  std::vector<std::string> headers;
  for (const auto& [name, value] : r.headers) {
    headers.push_back(absl::StrCat(name, "=", value));
  }
  return absl::StrCat(r.topic, " ", r.key, " ", r.timestamp_micros, " ",
                      absl::StrJoin(headers, ","), " ",
                      absl::BytesToHexString(r.value));
}

TableEventContext Context() {
  TableEventContext context;
  context.producer = "table-0";
  context.correlation_id = "corr-1";
  context.occurred_at_micros = 1'767'225'600'000'123;
  return context;
}

v1::LedgerTransaction Tx(const std::string& from, const std::string& to,
                         int64_t amount) {
  v1::LedgerTransaction tx;
  v1::Posting* debit = tx.add_postings();
  debit->set_account(from);
  debit->set_amount_minor(-amount);
  v1::Posting* credit = tx.add_postings();
  credit->set_account(to);
  credit->set_amount_minor(amount);
  return tx;
}

// What a table host appends for one event: its record and, for a money
// request, the wallet's copy ("" when none); Encode*Record writes the first.
struct Written {
  std::string record;
  std::string copy;
};

Written Described(const std::vector<eventlog::Record>& records,
                  const eventlog::Record& encoded) {
  EXPECT_TRUE(records.size() == 1 || records.size() == 2);
  EXPECT_EQ(Describe(encoded), Describe(records.front()));
  return {Describe(records.front()),
          records.size() == 2 ? Describe(records.back()) : ""};
}

Written Poker(const v1::TableEvent& event, uint64_t sequence) {
  std::vector<eventlog::Record> records;
  AppendTableRecords(event, sequence, Context(), &records);
  return Described(records, EncodeTableRecord(event, sequence, Context()));
}

Written Banked(const v1::BankedTableEvent& event, uint64_t sequence) {
  std::vector<eventlog::Record> records;
  AppendBankedRecords(event, sequence, Context(), &records);
  return Described(records, EncodeBankedRecord(event, sequence, Context()));
}

// `described` with another topic.
std::string OnTopic(const std::string& topic, const std::string& described) {
  return topic + described.substr(described.find(' '));
}

v1::TableEvent PokerEvent(const std::string& request_id) {
  v1::TableEvent e;
  e.set_request_id(request_id);
  e.set_table_id("t1");
  return e;
}

v1::BankedTableEvent BankedEvent(const std::string& request_id) {
  v1::BankedTableEvent e;
  e.set_request_id(request_id);
  e.set_table_id("r1");
  e.set_at_micros(1'767'225'600'000'000);
  return e;
}

TEST(TableRecords, PokerTableCreatedIsOneRecord) {
  v1::TableEvent e = PokerEvent("create-t1");
  e.mutable_table_created()->set_table_id("t1");
  e.mutable_table_created()->set_name("Table t1");
  const Written w = Poker(e, 1);
  EXPECT_EQ(w.record,
            "banca.table.events table/t1 1767225600000123 "
            "event_id=table/t1#1,type=banca.v1.TableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0a7461626c652f7431233112087461626c652f74311801221362616e63612e"
            "76312e5461626c654576656e74280130fb8081b184e991033a077461626c652d"
            "304206636f72722d314a096372656174652d7431521f0a096372656174652d74"
            "311a027431520e0a02743112085461626c65207431");
  EXPECT_EQ(w.copy, "");
}

TEST(TableRecords, PokerBuyInIsCopiedForTheWallet) {
  v1::TableEvent e = PokerEvent("sit-ana");
  v1::BuyInRequested* r = e.mutable_buy_in_requested();
  r->set_saga_id("table/t1/buyin/2");
  r->set_player_id("ana");
  r->set_seat(1);
  r->set_paid_minor(10'000);
  r->set_rake_minor(100);
  const Written w = Poker(e, 2);
  EXPECT_EQ(w.record,
            "banca.table.events table/t1 1767225600000123 "
            "event_id=table/t1#2,type=banca.v1.TableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0a7461626c652f7431233212087461626c652f74311802221362616e63612e"
            "76312e5461626c654576656e74280130fb8081b184e991033a077461626c652d"
            "304206636f72722d314a077369742d616e61522d0a077369742d616e611a0274"
            "315a1e0a107461626c652f74312f627579696e2f321203616e61180120904e28"
            "64");
  // The same record on the requests topic.
  EXPECT_EQ(w.copy, OnTopic("banca.table.requests", w.record));
}

TEST(TableRecords, PokerSettlementIsCopiedWithoutItsDeck) {
  v1::TableEvent e = PokerEvent("");
  v1::HandSettled* h = e.mutable_hand_settled();
  h->set_hand_number(1);
  h->set_hand_id("t1-1");
  *h->add_transactions() = Tx("table/t1/pot", "table/t1/seat/ana", 200);
  h->set_rake_minor(0);
  h->add_revealed_deck("As");
  h->add_revealed_deck("Kd");
  const Written w = Poker(e, 7);
  EXPECT_EQ(w.record,
            "banca.table.events table/t1 1767225600000123 "
            "event_id=table/t1#7,type=banca.v1.TableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0a7461626c652f7431233712087461626c652f74311807221362616e63612e"
            "76312e5461626c654576656e74280130fb8081b184e991033a077461626c652d"
            "304206636f72722d31524c1a027431a201450801120474312d311a332a190a0c"
            "7461626c652f74312f706f7410b8feffffffffffffff012a160a117461626c65"
            "2f74312f736561742f616e6110c8013202417332024b64");
  EXPECT_EQ(w.copy,
            "banca.table.requests table/t1 1767225600000123 "
            "event_id=table/t1#7,type=banca.v1.TableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0a7461626c652f7431233712087461626c652f74311807221362616e63612e"
            "76312e5461626c654576656e74280130fb8081b184e991033a077461626c652d"
            "304206636f72722d3152441a027431a2013d0801120474312d311a332a190a0c"
            "7461626c652f74312f706f7410b8feffffffffffffff012a160a117461626c65"
            "2f74312f736561742f616e6110c801");
}

TEST(TableRecords, PokerCashOutIsCopiedForTheWallet) {
  v1::TableEvent e = PokerEvent("leave-ana");
  v1::PlayerLeft* left = e.mutable_player_left();
  left->set_player_id("ana");
  left->set_seat(1);
  left->set_stack_minor(9'800);
  const Written w = Poker(e, 8);
  EXPECT_EQ(w.record,
            "banca.table.events table/t1 1767225600000123 "
            "event_id=table/t1#8,type=banca.v1.TableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0a7461626c652f7431233812087461626c652f74311808221362616e63612e"
            "76312e5461626c654576656e74280130fb8081b184e991033a077461626c652d"
            "304206636f72722d314a096c656176652d616e61521b0a096c656176652d616e"
            "611a0274317a0a0a03616e61100118c84c");
  // The same record on the requests topic.
  EXPECT_EQ(w.copy, OnTopic("banca.table.requests", w.record));
}

TEST(TableRecords, BankedJoinIsOneRecord) {
  v1::BankedTableEvent e = BankedEvent("join-ana");
  e.mutable_joined()->set_player_id("ana");
  e.mutable_joined()->set_seat(2);
  const Written w = Banked(e, 2);
  EXPECT_EQ(w.record,
            "banca.banked.events banked/r1 1767225600000123 "
            "event_id=banked/r1#2,type=banca.v1.BankedTableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0b62616e6b65642f72312332120962616e6b65642f72311802221962616e63"
            "612e76312e42616e6b65645461626c654576656e74280130fb8081b184e99103"
            "3a077461626c652d304206636f72722d314a086a6f696e2d616e6152200a086a"
            "6f696e2d616e611a02723120808081b184e991035a070a03616e611002");
  EXPECT_EQ(w.copy, "");
}

TEST(TableRecords, BankedStakeIsCopiedForTheWallet) {
  v1::BankedTableEvent e = BankedEvent("bet-1");
  v1::StakeRequested* s = e.mutable_stake_requested();
  s->set_saga_id("banked/r1/stake/3");
  s->set_player_id("ana");
  s->set_bet_id("b1");
  s->set_round(1);
  s->set_stake_minor(500);
  *s->mutable_tx() = Tx("player/ana/cash", "game/r1/wagers", 500);
  const Written w = Banked(e, 3);
  EXPECT_EQ(w.record,
            "banca.banked.events banked/r1 1767225600000123 "
            "event_id=banked/r1#3,type=banca.v1.BankedTableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0b62616e6b65642f72312333120962616e6b65642f72311803221962616e63"
            "612e76312e42616e6b65645461626c654576656e74280130fb8081b184e99103"
            "3a077461626c652d304206636f72722d314a056265742d31526c0a056265742d"
            "311a02723120808081b184e991036a560a1162616e6b65642f72312f7374616b"
            "652f331203616e611a026231200128f4033a332a1c0a0f706c617965722f616e"
            "612f63617368108cfcffffffffffffff012a130a0e67616d652f72312f776167"
            "65727310f403");
  // The same record on the requests topic.
  EXPECT_EQ(w.copy, OnTopic("banca.banked.requests", w.record));
}

TEST(TableRecords, BankedMoneyIsCopiedForTheWallet) {
  v1::BankedTableEvent e = BankedEvent("");
  v1::BankedMoney* m = e.mutable_money();
  m->set_round(1);
  m->set_cause("settled");
  *m->add_transactions() = Tx("game/r1/wagers", "player/ana/cash", 1'000);
  const Written w = Banked(e, 9);
  EXPECT_EQ(w.record,
            "banca.banked.events banked/r1 1767225600000123 "
            "event_id=banked/r1#9,type=banca.v1.BankedTableEvent,"
            "schema_version=1,producer=table-0,correlation_id=corr-1 "
            "0a0b62616e6b65642f72312339120962616e6b65642f72311809221962616e63"
            "612e76312e42616e6b65645461626c654576656e74280130fb8081b184e99103"
            "3a077461626c652d304206636f72722d3152501a02723120808081b184e99103"
            "a2014008011207736574746c65641a332a1b0a0e67616d652f72312f77616765"
            "72731098f8ffffffffffffff012a140a0f706c617965722f616e612f63617368"
            "10e807");
  // The same record on the requests topic.
  EXPECT_EQ(w.copy, OnTopic("banca.banked.requests", w.record));
}

TEST(TableRecords, EachDecoderTakesItsOwnRecordsOnly) {
  v1::TableEvent poker = PokerEvent("create-t1");
  poker.mutable_table_created()->set_table_id("t1");
  v1::BankedTableEvent banked = BankedEvent("join-ana");
  banked.mutable_joined()->set_player_id("ana");
  auto stored = [](const eventlog::Record& r) {
    eventlog::StoredRecord s;
    s.topic = r.topic;
    s.partition = 3;
    s.offset = 41;
    s.key = r.key;
    s.value = r.value;
    return s;
  };
  const eventlog::StoredRecord p = stored(EncodeTableRecord(poker, 1, {}));
  const eventlog::StoredRecord b = stored(EncodeBankedRecord(banked, 4, {}));
  absl::StatusOr<DecodedTableEvent> poker_back = DecodeTableRecord(p);
  ASSERT_TRUE(poker_back.ok()) << poker_back.status();
  EXPECT_EQ(poker_back->event.SerializeAsString(), poker.SerializeAsString());
  EXPECT_EQ(poker_back->envelope.event_id(), "table/t1#1");
  absl::StatusOr<DecodedBankedEvent> banked_back = DecodeBankedRecord(b);
  ASSERT_TRUE(banked_back.ok()) << banked_back.status();
  EXPECT_EQ(banked_back->event.SerializeAsString(), banked.SerializeAsString());
  EXPECT_EQ(banked_back->envelope.event_id(), "banked/r1#4");
  EXPECT_EQ(DecodeTableRecord(b).status().message(),
            "record banca.banked.events/3@41 has type "
            "banca.v1.BankedTableEvent, not a table event");
  EXPECT_EQ(DecodeBankedRecord(p).status().message(),
            "record banca.table.events/3@41 has type banca.v1.TableEvent, "
            "not a banked event");
  eventlog::StoredRecord junk = p;
  junk.value = "\xff";
  EXPECT_EQ(DecodeTableRecord(junk).status().code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace banca::wire
