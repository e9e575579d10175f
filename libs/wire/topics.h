// The topics banca's services meet on, their records' types and the
// consumer groups whose positions say how far a reader has carried them out.
// A topic's name and a type's name never change: old logs must still be
// read (docs/architecture.md, "The log").
#ifndef BANCA_LIBS_WIRE_TOPICS_H_
#define BANCA_LIBS_WIRE_TOPICS_H_

#include <cstdint>
#include <string_view>

namespace banca::wire {

// The wallet's events: every posting, hold and account change.
inline constexpr std::string_view kWalletTopic = "banca.wallet.events";
inline constexpr int kDefaultWalletPartitions = 8;
inline constexpr std::string_view kWalletEventType = "banca.v1.WalletEvent";
inline constexpr uint32_t kWalletSchemaVersion = 1;

// The poker tables' events.
inline constexpr std::string_view kTableTopic = "banca.table.events";
// The poker tables' money requests, for the wallet (docs/security.md,
// "Money requests"): a copy of each BuyInRequested, HandSettled and
// PlayerLeft, with the same envelope, appended in the same atomic batch as
// the event itself, and with the same partitions. The wallet reads only
// this topic, never the table's events (no card, no action).
inline constexpr std::string_view kTableRequestsTopic = "banca.table.requests";
inline constexpr int kDefaultTablePartitions = 8;
inline constexpr std::string_view kTableEventType = "banca.v1.TableEvent";
inline constexpr uint32_t kTableSchemaVersion = 1;

// The banked tables' events (roulette, blackjack, póquer sem descarte).
inline constexpr std::string_view kBankedTopic = "banca.banked.events";
// The banked tables' money requests for the wallet (StakeRequested,
// BankedMoney), copied as the poker tables' are (kTableRequestsTopic).
inline constexpr std::string_view kBankedRequestsTopic =
    "banca.banked.requests";
inline constexpr std::string_view kBankedEventType =
    "banca.v1.BankedTableEvent";
inline constexpr uint32_t kBankedSchemaVersion = 1;

// The tournaments' events (registration, seat draws, hands, levels).
inline constexpr std::string_view kTournamentTopic = "banca.tournament.events";
// The tournaments' money requests for the wallet (PaymentRequested,
// TournamentMoney), copied as the tables' are (kTableRequestsTopic).
inline constexpr std::string_view kTournamentRequestsTopic =
    "banca.tournament.requests";
inline constexpr std::string_view kTournamentEventType =
    "banca.v1.TournamentEvent";
inline constexpr uint32_t kTournamentSchemaVersion = 1;

// How far the wallet has carried out the poker tables' requests (durably).
inline constexpr std::string_view kTableRequestsGroup = "wallet.table-requests";
// How far the wallet has carried out the banked tables' requests.
inline constexpr std::string_view kBankedRequestsGroup =
    "wallet.banked-requests";
// How far the wallet has carried out the tournaments' requests.
inline constexpr std::string_view kTournamentRequestsGroup =
    "wallet.tournament-requests";
// The tournaments' position on kWalletTopic: the payment outcomes they have
// read (and turned into PaymentCaptured / PaymentRefused).
inline constexpr std::string_view kTournamentPaymentOutcomesGroup =
    "tournament.payment-outcomes";
// The poker tables' position on kWalletTopic: the buy-in outcomes they
// have read (and turned into BuyInCompleted / BuyInFailed).
inline constexpr std::string_view kTableOutcomesGroup = "table.buy-in-outcomes";
// The banked tables' position on kWalletTopic: the stake outcomes they have
// read (and turned into StakeCaptured / StakeRefused).
inline constexpr std::string_view kBankedStakeOutcomesGroup =
    "table.banked-stake-outcomes";

// What tells the poker tables' topics from the banked tables' (the record
// codecs, envelope_record.h; the audit): where the events and the wallet's
// copies of the money requests go, the wallet's group that reads the
// copies, the events' type and version, the prefix of a table's stream
// ("<prefix><table id>", also the record key) and the word a decoding
// error names the events by.
struct TableTopics {
  std::string_view topic;
  std::string_view requests_topic;
  std::string_view requests_group;
  std::string_view type;
  uint32_t schema_version;
  std::string_view stream_prefix;
  std::string_view what;
};
inline constexpr TableTopics kPokerTableTopics{
    .topic = kTableTopic,
    .requests_topic = kTableRequestsTopic,
    .requests_group = kTableRequestsGroup,
    .type = kTableEventType,
    .schema_version = kTableSchemaVersion,
    .stream_prefix = "table/",
    .what = "table"};
inline constexpr TableTopics kBankedTableTopics{
    .topic = kBankedTopic,
    .requests_topic = kBankedRequestsTopic,
    .requests_group = kBankedRequestsGroup,
    .type = kBankedEventType,
    .schema_version = kBankedSchemaVersion,
    .stream_prefix = "banked/",
    .what = "banked"};
inline constexpr TableTopics kTournamentTopics{
    .topic = kTournamentTopic,
    .requests_topic = kTournamentRequestsTopic,
    .requests_group = kTournamentRequestsGroup,
    .type = kTournamentEventType,
    .schema_version = kTournamentSchemaVersion,
    .stream_prefix = "tournament/",
    .what = "tournament"};

}  // namespace banca::wire

#endif  // BANCA_LIBS_WIRE_TOPICS_H_
