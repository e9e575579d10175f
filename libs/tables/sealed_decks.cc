#include "libs/tables/sealed_decks.h"

#include "absl/strings/str_cat.h"
#include "libs/common/status_macros.h"
#include "libs/common/string_view.h"

namespace banca::tables {
namespace {

constexpr std::string_view kHand = "hand";
constexpr std::string_view kRound = "round";

using Cards = google::protobuf::RepeatedPtrField<std::string>;

absl::Status Seal(const seal::DeckKeys& keys, const Cards& deck,
                  const std::string& context, v1::SealedDeck* out) {
  v1::DeckCards plain;
  *plain.mutable_cards() = deck;
  ASSIGN_OR_RETURN(seal::Sealed sealed,
                   keys.Seal(plain.SerializeAsString(), context));
  out->set_key_id(std::move(sealed.key_id));
  out->set_nonce(std::move(sealed.nonce));
  out->set_box(std::move(sealed.box));
  return absl::OkStatus();
}

absl::Status Open(const seal::DeckKeys& keys, const v1::SealedDeck& sealed,
                  const std::string& context, Cards* deck) {
  absl::StatusOr<std::string> plain = keys.Open(
      seal::Sealed{sealed.key_id(), sealed.nonce(), sealed.box()}, context);
  if (absl::IsNotFound(plain.status())) {
    return absl::FailedPreconditionError(plain.status().message());
  }
  if (!plain.ok()) return plain.status();
  v1::DeckCards cards;
  if (!cards.ParseFromString(*plain)) {
    return absl::DataLossError("a sealed deck holds no cards");
  }
  *deck = std::move(*cards.mutable_cards());
  return absl::OkStatus();
}

}  // namespace

std::string DealContext(std::string_view table_id, std::string_view kind,
                        int64_t number) {
  return absl::StrCat("banca.deck.v1|", ToAbsl(table_id), "|", ToAbsl(kind),
                      "|", number);
}

absl::Status SealDeal(const seal::DeckKeys& keys, v1::TableEvent& event) {
  if (!event.has_hand_started()) return absl::OkStatus();
  v1::HandStarted& h = *event.mutable_hand_started();
  if (h.deck().empty() || h.has_sealed_deck()) return absl::OkStatus();
  return Seal(keys, h.deck(),
              DealContext(event.table_id(), kHand, h.hand_number()),
              h.mutable_sealed_deck());
}

absl::Status SealDeal(const seal::DeckKeys& keys, v1::BankedTableEvent& event) {
  if (!event.has_dealt()) return absl::OkStatus();
  v1::RoundDealt& d = *event.mutable_dealt();
  if (d.deck().empty() || d.has_sealed_deck()) return absl::OkStatus();
  return Seal(keys, d.deck(), DealContext(event.table_id(), kRound, d.round()),
              d.mutable_sealed_deck());
}

// A tournament's hand: bound to the tournament, its table and the hand.
static std::string TournamentDealContext(const v1::TournamentEvent& event) {
  const v1::TournamentHandStarted& h = event.hand_started();
  return DealContext(absl::StrCat(event.tournament_id(), "/", h.table()), kHand,
                     h.hand_number());
}

absl::Status SealDeal(const seal::DeckKeys& keys, v1::TournamentEvent& event) {
  if (!event.has_hand_started()) return absl::OkStatus();
  v1::TournamentHandStarted& h = *event.mutable_hand_started();
  if (h.deck().empty() || h.has_sealed_deck()) return absl::OkStatus();
  return Seal(keys, h.deck(), TournamentDealContext(event),
              h.mutable_sealed_deck());
}

void DropClearDeck(v1::TournamentEvent& event) {
  if (event.has_hand_started() && event.hand_started().has_sealed_deck()) {
    event.mutable_hand_started()->clear_deck();
  }
}

absl::Status OpenDeal(const seal::DeckKeys& keys, v1::TournamentEvent& event) {
  if (!event.has_hand_started() || !event.hand_started().has_sealed_deck()) {
    return absl::OkStatus();
  }
  const std::string context = TournamentDealContext(event);
  v1::TournamentHandStarted& h = *event.mutable_hand_started();
  return Open(keys, h.sealed_deck(), context, h.mutable_deck());
}

void DropClearDeck(v1::TableEvent& event) {
  if (event.has_hand_started() && event.hand_started().has_sealed_deck()) {
    event.mutable_hand_started()->clear_deck();
  }
}

void DropClearDeck(v1::BankedTableEvent& event) {
  if (event.has_dealt() && event.dealt().has_sealed_deck()) {
    event.mutable_dealt()->clear_deck();
  }
}

absl::Status OpenDeal(const seal::DeckKeys& keys, v1::TableEvent& event) {
  if (!event.has_hand_started() || !event.hand_started().has_sealed_deck()) {
    return absl::OkStatus();
  }
  v1::HandStarted& h = *event.mutable_hand_started();
  return Open(keys, h.sealed_deck(),
              DealContext(event.table_id(), kHand, h.hand_number()),
              h.mutable_deck());
}

absl::Status OpenDeal(const seal::DeckKeys& keys, v1::BankedTableEvent& event) {
  if (!event.has_dealt() || !event.dealt().has_sealed_deck()) {
    return absl::OkStatus();
  }
  v1::RoundDealt& d = *event.mutable_dealt();
  return Open(keys, d.sealed_deck(),
              DealContext(event.table_id(), kRound, d.round()),
              d.mutable_deck());
}

std::optional<int64_t> SealedDealNumber(const v1::TableEvent& event) {
  if (!event.has_hand_started()) return std::nullopt;
  const v1::HandStarted& h = event.hand_started();
  if (!h.has_sealed_deck() || !h.deck().empty()) return std::nullopt;
  return h.hand_number();
}

std::optional<int64_t> SealedDealNumber(const v1::BankedTableEvent& event) {
  if (!event.has_dealt()) return std::nullopt;
  const v1::RoundDealt& d = event.dealt();
  if (!d.has_sealed_deck() || !d.deck().empty()) return std::nullopt;
  return d.round();
}

const Cards* RevealedDeck(const v1::TableEvent& event, int64_t number) {
  if (!event.has_hand_settled()) return nullptr;
  const v1::HandSettled& s = event.hand_settled();
  return s.hand_number() == number ? &s.revealed_deck() : nullptr;
}

const Cards* RevealedDeck(const v1::BankedTableEvent& event, int64_t number) {
  if (!event.has_revealed()) return nullptr;
  const v1::DeckRevealed& r = event.revealed();
  return r.round() == number ? &r.deck() : nullptr;
}

void FillDeck(v1::TableEvent& deal, const Cards& deck) {
  *deal.mutable_hand_started()->mutable_deck() = deck;
}

void FillDeck(v1::BankedTableEvent& deal, const Cards& deck) {
  *deal.mutable_dealt()->mutable_deck() = deck;
}

}  // namespace banca::tables
