#include "libs/tables/tournament_state.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/message_differencer.h"
#include "libs/common/check.h"
#include "libs/common/status_macros.h"
#include "libs/settlement/tournament_settlement.h"
#include "libs/tables/poker_config.h"
#include "libs/tables/tournament_config.h"
#include "libs/wire/request_ids.h"
#include "libs/wire/table_codec.h"

namespace banca::tables {
namespace tn = games::tournament;
namespace poker = games::poker;

namespace {

constexpr size_t kMaxNameBytes = 128;
constexpr size_t kMaxReasonBytes = 256;

absl::StatusOr<tn::PaymentKind> KindOf(v1::TournamentPaymentKind kind) {
  switch (kind) {
    case v1::TOURNAMENT_PAYMENT_KIND_BUY_IN:
      return tn::PaymentKind::kBuyIn;
    case v1::TOURNAMENT_PAYMENT_KIND_REENTRY:
      return tn::PaymentKind::kReentry;
    case v1::TOURNAMENT_PAYMENT_KIND_REBUY:
      return tn::PaymentKind::kRebuy;
    case v1::TOURNAMENT_PAYMENT_KIND_ADD_ON:
      return tn::PaymentKind::kAddOn;
    default:
      return absl::InvalidArgumentError("kind: not a payment kind");
  }
}

bool SamePostings(const v1::LedgerTransaction& a,
                  const v1::LedgerTransaction& b) {
  if (a.postings_size() != b.postings_size()) return false;
  for (int i = 0; i < a.postings_size(); ++i) {
    if (a.postings(i).account() != b.postings(i).account() ||
        a.postings(i).amount_minor() != b.postings(i).amount_minor()) {
      return false;
    }
  }
  return true;
}

bool SameDerived(const v1::TournamentEvent& a, const v1::TournamentEvent& b) {
  using google::protobuf::util::MessageDifferencer;
  if (a.kind_case() != b.kind_case()) return false;
  return a.has_money()
             ? MessageDifferencer::Equals(a.money(), b.money())
             : MessageDifferencer::Equals(a.hand_ended(), b.hand_ended());
}

std::string DerivedName(const v1::TournamentEvent& e) {
  if (e.has_money()) return absl::StrCat("money ", e.money().number());
  return absl::StrCat("the end of hand ", e.hand_ended().hand_number(), " at ",
                      e.hand_ended().table());
}

}  // namespace

absl::StatusOr<std::unique_ptr<TournamentState>> TournamentState::Open(
    const Event& event) {
  if (!event.has_created()) {
    return absl::InvalidArgumentError("a tournament opens with created");
  }
  const v1::TournamentCreated& c = event.created();
  if (!wire::IsValidTableId(c.tournament_id()) ||
      c.tournament_id() != event.tournament_id()) {
    return absl::InvalidArgumentError(
        "tournament_id must be 1-32 of [a-z0-9-]");
  }
  if (c.name().size() > kMaxNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("name must be at most ", kMaxNameBytes, " bytes"));
  }
  ASSIGN_OR_RETURN(v1::TournamentConfig config,
                   NormalizeTournamentConfig(c.config()));
  std::unique_ptr<TournamentState> s(new TournamentState());
  TournamentState* self = s.get();
  ASSIGN_OR_RETURN(tn::Director director,
                   tn::Director::Create(c.tournament_id(),
                                        DirectorConfig(config), [self](int n) {
                                          // Only inputs draw, and each has
                                          // its seed.
                                          BANCA_CHECK(self->draws_ != nullptr);
                                          return self->draws_->Draw(n);
                                        }));
  s->director_ = std::make_unique<tn::Director>(std::move(director));
  s->id_ = c.tournament_id();
  s->created_ = c;
  *s->created_.mutable_config() = std::move(config);
  s->version_ = 1;
  return s;
}

// --- Applying events ----------------------------------------------------

absl::Status TournamentState::Apply(const Event& event,
                                    std::vector<Event>* derived) {
  if (IsDerived(event) || event.has_created()) {
    return absl::InvalidArgumentError(
        "created, money and hand_ended are not decided at a tournament");
  }
  return Input(event, derived);
}

absl::Status TournamentState::ApplyLogged(const Event& event) {
  if (IsDerived(event)) {
    // A log written before hands revealed their decks has no hand_ended:
    // the reveals are redundant with the sealed decks, money is not.
    if (event.has_money()) DropExpectedReveals();
    if (expected_.empty() || !SameDerived(expected_.front(), event)) {
      return absl::DataLossError(
          absl::StrCat("tournament ", id_, ": logged ", DerivedName(event),
                       " is not what the events before it decided"));
    }
    expected_.pop_front();
    return absl::OkStatus();
  }
  DropExpectedReveals();
  if (!expected_.empty()) {
    return absl::DataLossError(absl::StrCat("tournament ", id_, ": ",
                                            DerivedName(expected_.front()),
                                            " is missing from the log"));
  }
  std::vector<Event> derived;
  RETURN_IF_ERROR(Input(event, &derived));
  for (Event& d : derived) expected_.push_back(std::move(d));
  return absl::OkStatus();
}

void TournamentState::DropExpectedReveals() {
  while (!expected_.empty() && expected_.front().has_hand_ended()) {
    expected_.pop_front();
  }
}

absl::Status TournamentState::Input(const Event& event,
                                    std::vector<Event>* derived) {
  if (event.tournament_id() != id_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "event of tournament ", event.tournament_id(), " at ", id_));
  }
  ASSIGN_OR_RETURN(SeededDraws draws, SeededDraws::Create(event.draw_seed()));
  draws_ = &draws;
  // Everything that may refuse is checked before anything changes: the
  // director's commands refuse whole; the bookkeeping here follows them.
  absl::Status s = Dispatch(event);
  draws_ = nullptr;
  if (!s.ok()) {
    BANCA_CHECK(director_->TakeMoves().empty());
    posted_.clear();
    refunds_.clear();
    return s;
  }
  director_->TakeNotices();
  ++version_;
  if (event.has_payment_requested() && !event.request_id().empty()) {
    saga_of_request_[event.request_id()] = event.payment_requested().saga_id();
  }
  if (event.has_hand_started()) {
    DealtHand& dealt = dealt_[event.hand_started().table()];
    dealt.number = event.hand_started().hand_number();
    dealt.deck = event.hand_started().deck();
  }
  DeriveReveals(derived);
  return DeriveMoney(derived);
}

absl::Status TournamentState::Dispatch(const Event& e) {
  const int64_t at = e.at_micros();
  switch (e.kind_case()) {
    case Event::kPaymentRequested:
      return RequestPayment(e.payment_requested());
    case Event::kPaymentCaptured:
      return Captured(e.payment_captured().saga_id());
    case Event::kPaymentRefused:
      return Refused(e.payment_refused());
    case Event::kUnregistered:
      return director_->Unregister(e.unregistered().player_id());
    case Event::kStarted:
      if (AnyPaymentPending()) {
        return absl::FailedPreconditionError(
            "payments are on their way: start once the wallet has answered");
      }
      RETURN_IF_ERROR(director_->StartWithDraw());
      level_started_micros_ = at;
      return absl::OkStatus();
    case Event::kHandStarted: {
      const v1::TournamentHandStarted& h = e.hand_started();
      if (h.hand_number() != director_->HandsPlayedAt(h.table()) + 1) {
        return absl::FailedPreconditionError(
            absl::StrCat("the next hand at ", h.table(), " is ",
                         director_->HandsPlayedAt(h.table()) + 1));
      }
      ASSIGN_OR_RETURN(std::vector<cards::Card> deck,
                       AsInvalidArgument(wire::CardsFromStrings(h.deck())));
      RETURN_IF_ERROR(director_->Deal(h.table(), std::move(deck), 0));
      NoteDecision(h.table(), at);
      RetryDeferred();
      return absl::OkStatus();
    }
    case Event::kActed:
      RETURN_IF_ERROR(Acted(e.acted()));
      NoteDecision(director_->TableOf(e.acted().player_id()), at);
      RetryDeferred();
      return absl::OkStatus();
    case Event::kAway:
      RETURN_IF_ERROR(
          director_->SetAway(e.away().player_id(), e.away().away()));
      RetryDeferred();
      return absl::OkStatus();
    case Event::kLevelStarted:
      if (e.level_started().level() != director_->level() + 2) {
        return absl::FailedPreconditionError(
            absl::StrCat("the next level is ", director_->level() + 2));
      }
      RETURN_IF_ERROR(director_->NextLevel());
      level_started_micros_ = at;
      RetryDeferred();
      return absl::OkStatus();
    case Event::kCancelled:
      if (e.cancelled().reason().size() > kMaxReasonBytes) {
        return absl::InvalidArgumentError(
            absl::StrCat("reason must be at most ", kMaxReasonBytes, " bytes"));
      }
      return director_->Cancel();
    default:
      return absl::InvalidArgumentError("not a tournament input event");
  }
}

absl::Status TournamentState::Acted(const v1::TournamentActed& a) {
  const std::string& table = director_->TableOf(a.player_id());
  const int64_t hand = director_->HandsPlayedAt(table) + 1;
  if (a.hand_number() != 0 && a.hand_number() != hand) {
    return absl::FailedPreconditionError(absl::StrCat("hand ", a.hand_number(),
                                                      " is over; the hand at ",
                                                      table, " is ", hand));
  }
  if (a.timeout()) return director_->Timeout(a.player_id());
  ASSIGN_OR_RETURN(poker::Action action,
                   ActionFromProto(a.action(), a.amount()));
  return director_->Act(a.player_id(), action);
}

void TournamentState::NoteDecision(const std::string& table, int64_t at) {
  if (!table.empty()) decision_since_[table] = at;
}

// --- Payments -----------------------------------------------------------

absl::StatusOr<std::optional<tn::MoneyMove>> TournamentState::Quote(
    const v1::PaymentRequested& r) const {
  if (r.kind() == v1::TOURNAMENT_PAYMENT_KIND_TICKET_CASH_OUT) {
    if (!r.use_ticket()) {
      return absl::InvalidArgumentError(
          "a ticket cash-out pays from the tickets (use_ticket)");
    }
    ASSIGN_OR_RETURN(tn::MoneyMove move,
                     director_->QuoteTicketCashOut(r.player_id()));
    return move;
  }
  ASSIGN_OR_RETURN(tn::PaymentKind kind, KindOf(r.kind()));
  return director_->Quote(
      r.player_id(), kind,
      r.use_ticket() ? tn::Source::kTicket : tn::Source::kCash);
}

absl::Status TournamentState::CheckPayment(
    const v1::PaymentRequested& r) const {
  for (const auto& [saga, p] : pending_) {
    if (p.player_id() == r.player_id()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a payment of ", r.player_id(), " is on its way (", saga, ")"));
    }
  }
  for (const v1::PaymentRequested& p : deferred_) {
    if (p.player_id() == r.player_id()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "a purchase of ", r.player_id(), " waits for the hand to end"));
    }
  }
  if (r.kind() == v1::TOURNAMENT_PAYMENT_KIND_BUY_IN) {
    int pending_entries = 0;
    for (const auto& [saga, p] : pending_) {
      pending_entries += p.kind() == v1::TOURNAMENT_PAYMENT_KIND_BUY_IN;
    }
    if (director_->entrants() + pending_entries >=
        director_->config().max_players) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the tournament is full (", director_->config().max_players,
          " players with the payments on their way, TN-7i)"));
    }
  }
  return Quote(r).status();
}

absl::StatusOr<TournamentState::Event> TournamentState::PaymentEvent(
    const std::string& player, v1::TournamentPaymentKind kind,
    bool use_ticket) const {
  Event e;
  e.set_tournament_id(id_);
  v1::PaymentRequested* r = e.mutable_payment_requested();
  r->set_saga_id(wire::PaymentSagaId(id_, sagas_ + 1));
  r->set_player_id(player);
  r->set_kind(kind);
  r->set_use_ticket(use_ticket ||
                    kind == v1::TOURNAMENT_PAYMENT_KIND_TICKET_CASH_OUT);
  RETURN_IF_ERROR(CheckPayment(*r));
  ASSIGN_OR_RETURN(std::optional<tn::MoneyMove> move, Quote(*r));
  if (move) {
    ASSIGN_OR_RETURN(*r->mutable_tx(),
                     settlement::TournamentTransaction(id_, *move));
  }
  return e;
}

absl::Status TournamentState::RequestPayment(const v1::PaymentRequested& r) {
  if (r.saga_id() != wire::PaymentSagaId(id_, sagas_ + 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the next payment saga is ", wire::PaymentSagaId(id_, sagas_ + 1)));
  }
  RETURN_IF_ERROR(CheckPayment(r));
  ASSIGN_OR_RETURN(std::optional<tn::MoneyMove> move, Quote(r));
  v1::LedgerTransaction quoted;
  if (move) {
    ASSIGN_OR_RETURN(quoted, settlement::TournamentTransaction(id_, *move));
  }
  if (!SamePostings(quoted, r.tx())) {
    return absl::InvalidArgumentError(
        "tx: not the payment the tournament charges");
  }
  ++sagas_;
  if (!move) {  // a freeroll's entry: nothing to pay
    ApplyPaid(r);
    return absl::OkStatus();
  }
  pending_[r.saga_id()] = r;
  return absl::OkStatus();
}

std::optional<std::string> TournamentState::SagaOfRequest(
    const std::string& request_id) const {
  auto it = saga_of_request_.find(request_id);
  if (it == saga_of_request_.end()) return std::nullopt;
  return it->second;
}

const v1::PaymentRequested* TournamentState::PendingPayment(
    const std::string& saga) const {
  auto it = pending_.find(saga);
  return it == pending_.end() ? nullptr : &it->second;
}

std::optional<bool> TournamentState::PaymentOutcome(
    const std::string& saga) const {
  auto it = outcomes_.find(saga);
  if (it == outcomes_.end()) return std::nullopt;
  return it->second;
}

absl::Status TournamentState::Captured(const std::string& saga) {
  if (auto it = pending_.find(saga); it != pending_.end()) {
    v1::PaymentRequested r = std::move(it->second);
    pending_.erase(it);
    ApplyPaid(r);
    return absl::OkStatus();
  }
  if (auto it = timed_out_.find(saga); it != timed_out_.end()) {
    // Captured after the service gave up on it: paid back once (a ticket
    // converted to cash stands: nothing here depends on it).
    v1::PaymentRequested r = std::move(it->second);
    timed_out_.erase(it);
    if (r.kind() == v1::TOURNAMENT_PAYMENT_KIND_TICKET_CASH_OUT) {
      ApplyPaid(r);
    } else {
      PayBack(r, absl::DeadlineExceededError("captured after it timed out"));
    }
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(
      absl::StrCat("no payment ", saga, " is on its way"));
}

absl::Status TournamentState::Refused(const v1::PaymentRefused& r) {
  auto it = pending_.find(r.saga_id());
  if (it == pending_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no payment ", r.saga_id(), " is on its way"));
  }
  if (r.reason().size() > kMaxReasonBytes) {
    return absl::InvalidArgumentError("reason is too long");
  }
  if (r.timed_out()) timed_out_[r.saga_id()] = it->second;
  outcomes_[r.saga_id()] = false;
  pending_.erase(it);
  return absl::OkStatus();
}

void TournamentState::ApplyPaid(const v1::PaymentRequested& r) {
  if (r.kind() == v1::TOURNAMENT_PAYMENT_KIND_TICKET_CASH_OUT) {
    outcomes_[r.saga_id()] = true;
    for (const v1::Posting& p : r.tx().postings()) {
      if (p.amount_minor() > 0) cashed_out_[r.player_id()] += p.amount_minor();
    }
    return;  // the director's play is not concerned
  }
  absl::StatusOr<tn::PaymentKind> kind = KindOf(r.kind());
  BANCA_CHECK(kind.ok());  // checked when requested
  const std::string& player = r.player_id();
  if ((*kind == tn::PaymentKind::kRebuy || *kind == tn::PaymentKind::kAddOn) &&
      director_->InHand(player)) {
    deferred_.push_back(r);  // chips are added between hands
    return;
  }
  absl::Status s;
  switch (*kind) {
    case tn::PaymentKind::kBuyIn:
      s = director_->Register(
          player, r.use_ticket() ? tn::Source::kTicket : tn::Source::kCash);
      break;
    case tn::PaymentKind::kReentry:
      s = director_->Reentry(player);
      break;
    case tn::PaymentKind::kRebuy:
      s = director_->Rebuy(player);
      break;
    case tn::PaymentKind::kAddOn:
      s = director_->AddOn(player);
      break;
  }
  if (!s.ok()) {
    PayBack(r, s);
    return;
  }
  outcomes_[r.saga_id()] = true;
  if (r.tx().postings_size() > 0) posted_.push_back(r.tx());
}

void TournamentState::RetryDeferred() {
  std::vector<v1::PaymentRequested> waiting = std::exchange(deferred_, {});
  for (const v1::PaymentRequested& r : waiting) ApplyPaid(r);
}

void TournamentState::PayBack(const v1::PaymentRequested& r,
                              const absl::Status& why) {
  outcomes_[r.saga_id()] = false;
  if (r.tx().postings_size() == 0) return;
  v1::LedgerTransaction back = r.tx();
  for (v1::Posting& p : *back.mutable_postings()) {
    p.set_amount_minor(-p.amount_minor());
    p.clear_balance_after_minor();
  }
  back.set_reason(v1::POSTING_REASON_REFUND);
  back.set_memo(absl::StrCat("paid back (", r.saga_id(), "): ", why.message()));
  refunds_.push_back(std::move(back));
}

void TournamentState::DeriveReveals(std::vector<Event>* derived) {
  const bool over = director_->phase() == tn::Phase::kFinished ||
                    director_->phase() == tn::Phase::kCancelled;
  for (auto it = dealt_.begin(); it != dealt_.end();) {
    const poker::Hand* hand = director_->HandAt(it->first);
    const bool ended = over || hand == nullptr || hand->finished() ||
                       director_->HandsPlayedAt(it->first) >= it->second.number;
    if (!ended) {
      ++it;
      continue;
    }
    Event e;
    e.set_tournament_id(id_);
    v1::TournamentHandEnded* h = e.mutable_hand_ended();
    h->set_table(it->first);
    h->set_hand_number(it->second.number);
    *h->mutable_revealed_deck() = std::move(it->second.deck);
    derived->push_back(std::move(e));
    it = dealt_.erase(it);
  }
}

absl::Status TournamentState::DeriveMoney(std::vector<Event>* derived) {
  std::vector<tn::MoneyMove> moves = director_->TakeMoves();
  Event e;
  e.set_tournament_id(id_);
  v1::TournamentMoney* money = e.mutable_money();
  for (const tn::MoneyMove& m : moves) {
    ASSIGN_OR_RETURN(v1::LedgerTransaction tx,
                     settlement::TournamentTransaction(id_, m));
    auto paid = std::find_if(
        posted_.begin(), posted_.end(),
        [&](const v1::LedgerTransaction& p) { return SamePostings(p, tx); });
    if (paid != posted_.end()) {
      posted_.erase(paid);  // the wallet posted it with the saga
      continue;
    }
    *money->add_transactions() = std::move(tx);
  }
  BANCA_CHECK(posted_.empty());  // every payment applied is the director's
  for (v1::LedgerTransaction& tx : refunds_) {
    *money->add_transactions() = std::move(tx);
  }
  refunds_.clear();
  if (money->transactions().empty()) return absl::OkStatus();
  money->set_number(++money_events_);
  derived->push_back(std::move(e));
  return absl::OkStatus();
}

int64_t TournamentState::ConvertibleTickets(const std::string& player,
                                            int64_t satellite_won,
                                            int64_t freeroll_won) const {
  int64_t used = 0;  // entries paid by ticket
  for (const tn::Entry& e : director_->entries()) {
    if (e.player != player || e.payments.empty() ||
        e.payments.front().source != tn::Source::kTicket) {
      continue;
    }
    used += e.payments.front().split.amount();
  }
  auto out = cashed_out_.find(player);
  const int64_t converted = out == cashed_out_.end() ? 0 : out->second;
  // Each amount is below kMaxAmountMinor times a bounded count: no overflow.
  return satellite_won - std::max<int64_t>(0, used - freeroll_won) - converted;
}

// --- What the clock calls for --------------------------------------------

std::optional<TournamentState::Event> TournamentState::Due(
    int64_t now, cards::RandomSource& rng) const {
  const tn::Director& d = *director_;
  Event e;
  e.set_tournament_id(id_);
  e.set_at_micros(now);
  e.set_draw_seed(NewDrawSeed(rng));
  if (d.phase() == tn::Phase::kRegistering) {
    if (d.config().kind == tn::TournamentKind::kSitAndGo &&
        d.entrants() >= d.config().max_players && !AnyPaymentPending()) {
      e.mutable_started();  // TN-2r: as soon as the seats are filled
      return e;
    }
    return std::nullopt;
  }
  if (d.phase() != tn::Phase::kRunning) return std::nullopt;
  const int64_t action_micros =
      int64_t{created_.config().action_seconds()} * 1'000'000;
  for (const std::string& table : d.TableNames()) {
    const poker::Hand* hand = d.HandAt(table);
    if (hand == nullptr || hand->finished() || !hand->to_act()) continue;
    auto since = decision_since_.find(table);
    if (since == decision_since_.end() || now - since->second < action_micros) {
      continue;
    }
    const std::vector<std::string>* seats = d.SeatsAt(table);
    v1::TournamentActed* a = e.mutable_acted();
    a->set_player_id((*seats)[*hand->to_act() - 1]);
    a->set_timeout(true);
    a->set_hand_number(hand->record().hand_number);
    return e;
  }
  const auto& levels = d.config().levels;
  const bool more =
      d.level() + 1 < static_cast<int>(levels.size()) ||
      (d.config().kind == tn::TournamentKind::kTimed && !d.time_over());
  if (more &&
      now >= level_started_micros_ + levels[d.level()].duration_micros) {
    e.mutable_level_started()->set_level(d.level() + 2);
    return e;
  }
  // A table whose player is buying chips waits for the wallet: dealing
  // would put them out (TN-31) while their rebuy is on its way.
  std::set<std::string> buying;
  for (const auto& [saga, p] : pending_) {
    if (p.kind() == v1::TOURNAMENT_PAYMENT_KIND_REBUY ||
        p.kind() == v1::TOURNAMENT_PAYMENT_KIND_ADD_ON) {
      buying.insert(d.TableOf(p.player_id()));
    }
  }
  for (const std::string& table : d.TableNames()) {
    if (buying.contains(table) || !d.CanDeal(table).ok()) continue;
    absl::StatusOr<std::vector<cards::Card>> deck = cards::ShuffledDeck(rng);
    if (!deck.ok()) return std::nullopt;
    v1::TournamentHandStarted* h = e.mutable_hand_started();
    h->set_table(table);
    h->set_hand_number(d.HandsPlayedAt(table) + 1);
    for (const std::string& c : wire::CardsToStrings(*deck)) h->add_deck(c);
    return e;
  }
  return std::nullopt;
}

}  // namespace banca::tables
