#include "libs/games/poker/phh_replay.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/cards/card.h"
#include "libs/games/poker/deterministic_bits.h"
#include "libs/games/poker/events.h"
#include "libs/games/poker/hand.h"
#include "libs/games/poker/phh.h"
#include "libs/games/poker/random_play.h"

namespace banca::games::poker {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

std::string ReadTestdata(const std::string& dir, const std::string& name) {
  std::ifstream in(dir + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << dir << "/" << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Hands(const std::string& name) {
  return ReadTestdata(BANCA_HANDS_TESTDATA_DIR, name);
}

std::string Oracle(const std::string& name) {
  return ReadTestdata(BANCA_ORACLE_TESTDATA_DIR, name);
}

std::vector<int64_t> Finishing(const PhhReplay& r) {
  std::vector<int64_t> out;
  for (const PhhReplayPlayer& p : r.players) out.push_back(p.finishing_stack);
  return out;
}

std::vector<int> WinnerSeats(const PhhReplayPot& pot) {
  std::vector<int> out;
  for (const PhhReplayWinner& w : pot.winners) out.push_back(w.who.seat);
  return out;
}

// A random game PHH has a code for, as the PokerKit oracle's generator
// (tests/oracle/generate_hands.cc) draws them.
HandSetup RandomSetup(DeterministicBits& bits, bool rake) {
  HandSetup s;
  TableConfig& c = s.config;
  switch (bits.Between(0, 2)) {
    case 0:
      c.variant = Variant::kHoldem;
      c.limit = Limit::kNoLimit;
      break;
    case 1:
      c.variant = Variant::kHoldem;
      c.limit = Limit::kFixedLimit;
      break;
    default:
      c.variant = Variant::kOmaha;
      c.limit = Limit::kPotLimit;
  }
  c.seats = 10;
  c.big_blind = bits.Between(1, 4) * 50;
  c.small_blind = bits.Between(1, c.big_blind - 1);
  c.buy_in_min = c.buy_in_max = 100 * c.big_blind;
  c.heads_up = static_cast<HeadsUpBlinds>(bits.Between(0, 1));
  if (rake && bits.Between(0, 1) == 0) {
    c.rake = {RakeMode::kPot, static_cast<int32_t>(bits.Between(100, 500)),
              bits.Between(0, 1) * bits.Between(1, 500)};
  }
  s.table_id = "rt";
  s.players = RandomPlayers(bits, c.big_blind);
  s.button = s.players[bits.Between(0, s.players.size() - 1)].seat;
  s.deck = cards::StandardDeck();
  ShuffleDeck(bits, s.deck);
  return s;
}

// The seat whose big blind put it all in for less, or 0. PokerKit asks the
// others for the posted amount, banca for the full big blind (HE-52): the
// PokerKit oracle's generator avoids such hands; banca's own PHH follows
// HE-52 and round-trips them (ShortBigBlind::kForce below).
int ShortBigBlind(const Hand& hand) {
  for (const Event& e : hand.events()) {
    if (const auto* blind = std::get_if<BlindPosted>(&e);
        blind != nullptr && blind->big &&
        blind->amount < hand.config().big_blind) {
      return blind->seat;
    }
  }
  return 0;
}

PhhExtras ExtrasOf(const HandResult& result) {
  PhhExtras extras;
  for (const PlayerResult& p : result.players) {
    extras.finishing_stacks.push_back(p.end_stack);
  }
  for (const PotResult& pot : result.pots) {
    PhhPot p{pot.amount, pot.rake, {}};
    for (const SeatAmount& share : pot.shares) {
      p.winner_seats.push_back(share.seat);
    }
    extras.pots.push_back(std::move(p));
  }
  return extras;
}

// The file without its `_banca_*` lines: what another tool would keep.
std::string WithoutBancaFields(const std::string& phh) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(phh, '\n')) {
    if (absl::StartsWith(line, "_banca_")) continue;
    out.append(line.data(), line.size());
    out += '\n';
  }
  return out;
}

// The seat that posts the big blind, or 0.
int BigBlindSeat(const Hand& hand) {
  for (const Event& e : hand.events()) {
    if (const auto* blind = std::get_if<BlindPosted>(&e);
        blind != nullptr && blind->big) {
      return blind->seat;
    }
  }
  return 0;
}

enum class ShortBlinds { kAvoid, kForce };

// Engine -> WritePhh -> ReplayPhh gives the engine's stacks, pots and board.
void ExpectRoundTrip(bool strip_banca_fields, int hands, uint64_t seed,
                     ShortBlinds short_blinds = ShortBlinds::kAvoid) {
  DeterministicBits bits{seed};
  int side_pot_hands = 0, showdowns = 0, short_called = 0;
  for (int i = 0; i < hands; ++i) {
    HandSetup setup = RandomSetup(bits, /*rake=*/!strip_banca_fields);
    absl::StatusOr<Hand> hand = Hand::Start(setup);
    ASSERT_TRUE(hand.ok()) << hand.status();
    const int64_t bb = setup.config.big_blind;
    if (const int seat = ShortBigBlind(*hand);
        seat != 0 && short_blinds == ShortBlinds::kAvoid) {
      for (SeatedPlayer& p : setup.players) {
        if (p.seat == seat) p.stack += bb;
      }
      hand = Hand::Start(setup);
      ASSERT_TRUE(hand.ok()) << hand.status();
    } else if (short_blinds == ShortBlinds::kForce && seat == 0 && bb > 1) {
      const int big = BigBlindSeat(*hand);
      for (SeatedPlayer& p : setup.players) {
        if (p.seat == big) p.stack = bits.Between(1, bb - 1);
      }
      hand = Hand::Start(setup);
      ASSERT_TRUE(hand.ok()) << hand.status();
    }
    ASSERT_TRUE(PlayRandomly(*hand, [&bits] { return bits(); }).ok());
    if (ShortBigBlind(*hand) != 0) {
      for (const RecordedAction& a : hand->actions()) {
        if (a.action.type == ActionType::kCall) {
          ++short_called;
          break;
        }
      }
    }
    const HandResult& result = hand->result();
    absl::StatusOr<std::string> phh =
        WritePhh(hand->record(), ExtrasOf(result));
    ASSERT_TRUE(phh.ok()) << phh.status();
    const std::string text =
        strip_banca_fields ? WithoutBancaFields(*phh) : *phh;
    PhhActionError failure;
    absl::StatusOr<PhhReplay> r = ReplayPhh(text, &failure);
    ASSERT_TRUE(r.ok()) << "hand " << i << ": " << r.status() << "\n" << text;
    EXPECT_TRUE(r->file_has_finishing_stacks);
    EXPECT_TRUE(r->matches_file) << "hand " << i << "\n" << text;
    ASSERT_EQ(r->players.size(), result.players.size());
    for (const PhhReplayPlayer& p : r->players) {
      for (const PlayerResult& e : result.players) {
        if (e.seat != p.who.seat) continue;
        EXPECT_EQ(p.starting_stack, e.start_stack) << "hand " << i;
        EXPECT_EQ(p.finishing_stack, e.end_stack) << "hand " << i;
        EXPECT_EQ(p.net, e.end_stack - e.start_stack) << "hand " << i;
      }
    }
    ASSERT_EQ(r->pots.size(), result.pots.size()) << "hand " << i;
    for (size_t k = 0; k < r->pots.size(); ++k) {
      EXPECT_EQ(r->pots[k].amount, result.pots[k].amount);
      EXPECT_EQ(r->pots[k].rake, result.pots[k].rake);
      ASSERT_EQ(r->pots[k].winners.size(), result.pots[k].shares.size());
      for (size_t w = 0; w < r->pots[k].winners.size(); ++w) {
        EXPECT_EQ(r->pots[k].winners[w].who.seat,
                  result.pots[k].shares[w].seat);
        EXPECT_EQ(r->pots[k].winners[w].amount,
                  result.pots[k].shares[w].amount);
      }
    }
    EXPECT_EQ(r->board, result.board);
    EXPECT_EQ(r->showdown, !result.showdown_order.empty());
    EXPECT_EQ(r->rake, result.rake);
    EXPECT_EQ(r->winning_hand.empty(), result.showdown_order.empty());
    side_pot_hands += result.pots.size() > 1;
    showdowns += !result.showdown_order.empty();
    if (::testing::Test::HasFailure()) return;
  }
  // The sample covers what it claims to.
  EXPECT_GT(side_pot_hands, hands / 20);
  EXPECT_GT(showdowns, hands / 5);
  if (short_blinds == ShortBlinds::kForce) {
    EXPECT_GT(short_called, hands / 5);
  }
}

TEST(PhhReplay, RoundTripOfEngineHandsGivesTheEnginesResult) {
  ExpectRoundTrip(/*strip_banca_fields=*/false, 500, 11);
}

// A big blind posted short and then called: the others put in the full big
// blind (HE-52), the PHH says so with `cc`, and the replay agrees.
TEST(PhhReplay, RoundTripOfShortBigBlindsThatAreCalled_HE52) {
  ExpectRoundTrip(/*strip_banca_fields=*/false, 300, 13, ShortBlinds::kForce);
}

// Unraked hands keep their result without the _banca_ fields (deck, table
// settings): the deck is rebuilt from the dealt cards.
TEST(PhhReplay, RoundTripWithoutBancaFieldsGivesTheEnginesResult) {
  ExpectRoundTrip(/*strip_banca_fields=*/true, 500, 12);
}

TEST(PhhReplay, VoidedHandReturnsEveryBet_HE72) {
  TableConfig c;
  HandSetup s;
  s.config = c;
  s.button = 3;
  s.players = {{1, "ana", 10000}, {2, "rui", 10000}, {3, "eva", 10000}};
  s.deck = cards::StandardDeck();
  absl::StatusOr<Hand> hand = Hand::Start(s);
  ASSERT_TRUE(hand.ok());
  ASSERT_TRUE(hand->Act(3, {ActionType::kRaise, 300}).ok());
  ASSERT_TRUE(hand->Void().ok());
  absl::StatusOr<std::string> phh = WritePhh(hand->record(), {});
  ASSERT_TRUE(phh.ok()) << phh.status();
  absl::StatusOr<PhhReplay> r = ReplayPhh(*phh);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->voided);
  EXPECT_THAT(r->pots, IsEmpty());
  EXPECT_THAT(Finishing(*r), ElementsAre(10000, 10000, 10000));
  EXPECT_FALSE(r->file_has_finishing_stacks);
}

TEST(PhhReplay, PokerKitFileWithoutBancaFields) {
  absl::StatusOr<PhhReplay> r = ReplayPhh(Hands("pokerkit_style.phh"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->variant, "NT");
  ASSERT_EQ(r->players.size(), 3u);
  const PhhReplayPlayer& ana = r->players[0];
  EXPECT_EQ(ana.who, (PhhSeatRef{"p1", 1, "ana"}));
  EXPECT_EQ(ana.starting_stack, 5000);
  EXPECT_EQ(ana.finishing_stack, 4300);
  EXPECT_EQ(ana.net, -700);
  EXPECT_EQ(ana.hole_cards, *cards::ParseCards("8h8d"));
  EXPECT_TRUE(ana.shown);
  EXPECT_EQ(r->players[1].who, (PhhSeatRef{"p2", 2, "rui"}));
  EXPECT_EQ(r->players[1].net, 700);
  EXPECT_TRUE(r->players[2].folded);
  EXPECT_EQ(r->players[2].net, 0);
  ASSERT_EQ(r->pots.size(), 1u);
  EXPECT_EQ(r->pots[0].amount, 1400);
  EXPECT_EQ(r->pots[0].rake, 0);
  ASSERT_EQ(r->pots[0].winners.size(), 1u);
  EXPECT_EQ(r->pots[0].winners[0].who.player, "rui");
  EXPECT_EQ(r->pots[0].winners[0].amount, 1400);
  EXPECT_EQ(r->board, *cards::ParseCards("Th9s3cKd2c"));
  EXPECT_TRUE(r->showdown);
  EXPECT_THAT(r->winning_hand, StartsWith("Pair of kings"));
  EXPECT_EQ(r->pots[0].hand, r->winning_hand);
  EXPECT_TRUE(r->file_has_finishing_stacks);
  EXPECT_TRUE(r->matches_file);
  EXPECT_THAT(r->differences, IsEmpty());
}

TEST(PhhReplay, WithoutPlayerNamesThePlayerIsEmpty) {
  std::string text = Hands("pokerkit_style.phh");
  absl::StrReplaceAll({{"players = ['ana', 'rui', 'eva']\n", ""}}, &text);
  absl::StatusOr<PhhReplay> r = ReplayPhh(text);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->players[1].who, (PhhSeatRef{"p2", 2, ""}));
}

TEST(PhhReplay, SidePotsAndSplitPot_HE41_HE42_HE33) {
  absl::StatusOr<PhhReplay> r = ReplayPhh(Hands("side_pots_split.phh"));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pots.size(), 3u);
  // Main pot: 4 x 1000, alice's aces.
  EXPECT_EQ(r->pots[0].amount, 4000);
  EXPECT_THAT(WinnerSeats(r->pots[0]), ElementsAre(1));
  EXPECT_THAT(r->pots[0].hand, StartsWith("Pair of aces"));
  // Side pot 1: 3 x 2000 between bob, carol, dave; carol and dave split.
  EXPECT_EQ(r->pots[1].amount, 6000);
  EXPECT_THAT(WinnerSeats(r->pots[1]), ElementsAre(3, 4));
  EXPECT_EQ(r->pots[1].winners[0].amount, 3000);
  EXPECT_EQ(r->pots[1].winners[1].amount, 3000);
  EXPECT_THAT(r->pots[1].hand, StartsWith("Pair of queens"));
  // Side pot 2: 2 x 2000 between carol and dave, split.
  EXPECT_EQ(r->pots[2].amount, 4000);
  EXPECT_THAT(WinnerSeats(r->pots[2]), ElementsAre(3, 4));
  EXPECT_EQ(r->winning_hand, r->pots[0].hand);
  EXPECT_THAT(Finishing(*r), ElementsAre(4000, 0, 5000, 5000));
  EXPECT_TRUE(r->matches_file);
  EXPECT_EQ(r->board.size(), 5u);
}

// banca's own export with rake per pot and a cap (HE-17a, HE-19): the
// engine's rake, not PokerKit's rounding.
TEST(PhhReplay, BancaFileWithRakeGivesBancasRake_HE17a_HE19) {
  absl::StatusOr<PhhReplay> r = ReplayPhh(Oracle("raked_capped_side_pots.phh"));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pots.size(), 3u);
  EXPECT_EQ(r->pots[0].rake, 200);
  EXPECT_EQ(r->pots[1].rake, 100);
  EXPECT_EQ(r->pots[2].rake, 0);
  EXPECT_EQ(r->rake, 300);
  EXPECT_TRUE(r->matches_file);
}

TEST(PhhReplay, WrongFinishingStacksAreReported) {
  absl::StatusOr<PhhReplay> r = ReplayPhh(Hands("wrong_finishing_stacks.phh"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->file_has_finishing_stacks);
  EXPECT_FALSE(r->matches_file);
  ASSERT_EQ(r->differences.size(), 2u);
  EXPECT_EQ(r->differences[0].who, (PhhSeatRef{"p2", 2, "rui"}));
  EXPECT_EQ(r->differences[0].file, 5600);
  EXPECT_EQ(r->differences[0].engine, 5700);
  EXPECT_EQ(r->differences[1].who.phh_name, "p3");
  EXPECT_EQ(r->differences[1].file, 5100);
  EXPECT_EQ(r->differences[1].engine, 5000);
}

TEST(PhhReplay, FinishingStacksOfTheWrongLengthAreRejected) {
  std::string text = Hands("pokerkit_style.phh");
  absl::StrReplaceAll({{"finishing_stacks = [4300, 5700, 5000]",
                        "finishing_stacks = [4300, 5700]"}},
                      &text);
  EXPECT_EQ(ReplayPhh(text).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// --- Illegal actions: the entry's index, its text and the engine's reason.

struct Rejection {
  absl::Status status;
  PhhActionError failure;
};

Rejection Replace(const std::string& from, const std::string& to) {
  std::string text = Hands("pokerkit_style.phh");
  const int replaced = absl::StrReplaceAll({{from, to}}, &text);
  EXPECT_EQ(replaced, 1) << from;
  Rejection out;
  out.status = ReplayPhh(text, &out.failure).status();
  return out;
}

TEST(PhhReplay, RaiseBelowTheMinimumIsRejected_HE23) {
  PhhActionError failure;
  absl::Status st =
      ReplayPhh(Hands("illegal_min_raise.phh"), &failure).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(failure.action_index, 4);
  EXPECT_EQ(failure.action, "p1 cbr 150");
  EXPECT_EQ(failure.reason, "raise to 150 is below the minimum raise to 200");
  EXPECT_EQ(st.message(),
            "action 4 'p1 cbr 150': raise to 150 is below the minimum raise "
            "to 200");
}

TEST(PhhReplay, ActionOutOfTurnIsRejected) {
  // Pre-flop p3 (left of the big blind) acts first, not p1.
  Rejection r =
      Replace("  'p3 f',\n  'p1 cbr 300',\n", "  'p1 cbr 300',\n  'p3 f',\n");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, 3);
  EXPECT_EQ(r.failure.action, "p1 cbr 300");
  EXPECT_EQ(r.failure.reason, "not ana's turn");
}

TEST(PhhReplay, BetBeyondTheStackIsRejected) {
  Rejection r = Replace("'p1 cbr 400'", "'p1 cbr 9000'");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, 10);
  EXPECT_THAT(r.failure.reason, HasSubstr("more than the stack allows"));
}

// A `cc` facing a bet is a call; after the time runs out (HE-45) the
// engine folds instead, so a file claiming a check there is wrong.
TEST(PhhReplay, TimeoutCheckFacingABetIsRejected_HE45) {
  Rejection r =
      Replace("  'p2 cc',\n  # flop\n", "  'p2 cc # timeout',\n  # flop\n");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, 5);
  EXPECT_THAT(r.failure.reason, HasSubstr("chose to fold"));
}

TEST(PhhReplay, ActionAfterTheHandEndedIsRejected) {
  Rejection r =
      Replace("  'p2 cc',\n  # flop\n", "  'p2 f',\n  'p3 cc',\n  # flop\n");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, 6);
  EXPECT_EQ(r.failure.reason, "the hand is over");
}

TEST(PhhReplay, BoardBeforeTheRoundEndsIsRejected) {
  Rejection r = Replace("  'p2 cc',\n  # flop\n", "  # flop\n");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, 5);
  EXPECT_THAT(r.failure.reason, HasSubstr("before the betting round"));
}

TEST(PhhReplay, FileEndingBeforeTheHandIsRejected) {
  Rejection r = Replace("  'p1 cc',\n  'p2 cc',\n  'p1 sm", "  'p1 sm");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, -1);
  EXPECT_THAT(r.status.message(), HasSubstr("p1 (seat 1, ana) is to act"));
}

TEST(PhhReplay, MissingRunOutIsRejected) {
  std::string text = Hands("side_pots_split.phh");
  absl::StrReplaceAll({{"  'd db 3h',\n  'd db 8c',\n", ""}}, &text);
  absl::Status st = ReplayPhh(text).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("the run-out is missing"));
}

TEST(PhhReplay, MalformedFileGivesTheParsersMessage) {
  PhhActionError failure;
  absl::Status st = ReplayPhh(Hands("malformed.phh"), &failure).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("unterminated array"));
  EXPECT_EQ(failure.action_index, -1);
}

TEST(PhhReplay, UnknownVerbIsRejectedWithItsIndex) {
  Rejection r = Replace("'p3 f'", "'p3 xx'");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.failure.action_index, 3);
  EXPECT_EQ(r.failure.action, "p3 xx");
  EXPECT_EQ(r.failure.reason, "unsupported player action");
}

TEST(PhhReplay, HiddenHoleCardsAreRejected) {
  Rejection r = Replace("'d dh p3 2s2d'", "'d dh p3 ?\??\?'");
  EXPECT_EQ(r.status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.failure.action_index, 2);
  EXPECT_THAT(r.failure.reason, HasSubstr("hole cards of p3 are hidden"));
}

TEST(PhhReplay, GamesBancaDoesNotRunAreUnimplemented) {
  std::string text = Hands("pokerkit_style.phh");
  absl::StrReplaceAll({{"variant = 'NT'", "variant = 'NS'"}}, &text);
  EXPECT_EQ(ReplayPhh(text).status().code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace banca::games::poker
