#include "libs/projection/history_view.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "libs/common/string_view.h"

namespace banca::projection {
namespace {

// Overwrites the card text after each occurrence of `head` with '?'.
void Blank(std::string& text, const std::string& head) {
  for (size_t at = text.find(head); at != std::string::npos;
       at = text.find(head, at + head.size())) {
    for (size_t i = at + head.size();
         i < text.size() && text[i] != '"' && text[i] != ' ' && text[i] != '\n';
         ++i) {
      text[i] = '?';
    }
  }
}

bool MaySeeCards(const v1::PokerSeatHistory& seat, HistoryAudience audience,
                 std::string_view player) {
  if (audience == HistoryAudience::kStaff || seat.shown()) return true;
  return audience == HistoryAudience::kPlayer && seat.player_id() == player;
}

void CutPoker(v1::PokerHandHistory& hand, HistoryAudience audience,
              std::string_view player) {
  const std::vector<int> numbers = PhhNumbers(hand);
  std::vector<int> hidden;
  for (int i = 0; i < hand.seats_size(); ++i) {
    v1::PokerSeatHistory& seat = *hand.mutable_seats(i);
    if (MaySeeCards(seat, audience, player)) continue;
    seat.clear_hole_cards();
    seat.set_cards_hidden(true);
    hidden.push_back(numbers[i]);
  }
  if (audience != HistoryAudience::kStaff && !hand.phh().empty()) {
    hand.set_phh(MaskPhh(hand.phh(), hidden));
  }
}

void CutBanked(v1::GameHistory& history, std::string_view player) {
  v1::BankedRoundHistory& banked = *history.mutable_banked();
  auto* players = banked.mutable_players();
  players->erase(std::remove_if(players->begin(), players->end(),
                                [&](const v1::BankedPlayerRound& p) {
                                  return p.player_id() != player;
                                }),
                 players->end());
  v1::HistorySummary& s = *history.mutable_summary();
  s.clear_players();
  s.add_players(std::string(player));
  int64_t staked = 0, returned = 0;
  for (const v1::BankedPlayerRound& p : banked.players()) {
    staked += p.record().staked_minor();
    returned += p.record().returned_minor();
  }
  s.set_staked_minor(staked);
  s.set_returned_minor(returned);
}

}  // namespace

std::vector<int> PhhNumbers(const v1::PokerHandHistory& hand) {
  const int n = hand.seats_size();
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return hand.seats(a).seat() < hand.seats(b).seat();
  });
  // The first seat after the button, clockwise, is p1.
  int first = 0;
  while (first < n && hand.seats(order[first]).seat() <= hand.button()) {
    ++first;
  }
  if (first == n) first = 0;
  std::vector<int> numbers(n, 0);
  for (int k = 0; k < n; ++k) numbers[order[(first + k) % n]] = k + 1;
  return numbers;
}

std::string MaskPhh(std::string_view phh, const std::vector<int>& hidden) {
  std::string out;
  out.reserve(phh.size());
  for (absl::string_view line : absl::StrSplit(ToAbsl(phh), '\n')) {
    if (absl::StartsWith(line, "_banca_deck")) continue;
    absl::StrAppend(&out, line, "\n");
  }
  if (!phh.empty() && phh.back() != '\n' && !out.empty()) out.pop_back();
  for (int p : hidden) {
    Blank(out, absl::StrCat("\"d dh p", p, " "));
    Blank(out, absl::StrCat("\"p", p, " sm "));
  }
  return out;
}

void CutHistory(v1::GameHistory& history, HistoryAudience audience,
                std::string_view player) {
  if (history.has_poker()) {
    CutPoker(*history.mutable_poker(), audience, player);
  }
  if (history.has_banked() && audience == HistoryAudience::kPlayer) {
    CutBanked(history, player);
  }
}

}  // namespace banca::projection
