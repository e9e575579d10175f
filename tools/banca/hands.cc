#include "tools/banca/hands.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "libs/cards/card.h"
#include "libs/common/string_view.h"
#include "libs/games/poker/phh.h"
#include "libs/games/poker/phh_replay.h"
#include "nlohmann/json.hpp"

namespace banca::cli {
namespace {

namespace poker = games::poker;
using OJson = nlohmann::ordered_json;

// Player names come from the file: invalid UTF-8 is replaced, never thrown.
std::string Dump(const OJson& j) {
  return j.dump(-1, ' ', false, OJson::error_handler_t::replace);
}

OJson CardList(const std::vector<cards::Card>& cs) {
  OJson out = OJson::array();
  for (cards::Card c : cs) out.push_back(cards::CardToString(c));
  return out;
}

void PutWho(OJson& j, const poker::PhhSeatRef& who) {
  j["phh"] = who.phh_name;
  j["seat"] = who.seat;
  j["player"] = who.player.empty() ? OJson(nullptr) : OJson(who.player);
}

OJson OrNull(const std::string& s) {
  return s.empty() ? OJson(nullptr) : OJson(s);
}

OJson ReplayJson(const poker::PhhReplay& r) {
  OJson out;
  out["variant"] = r.variant;
  OJson players = OJson::array();
  for (const poker::PhhReplayPlayer& p : r.players) {
    OJson j;
    PutWho(j, p.who);
    j["starting_stack"] = p.starting_stack;
    j["finishing_stack"] = p.finishing_stack;
    j["net"] = p.net;
    j["hole_cards"] = CardList(p.hole_cards);
    j["folded"] = p.folded;
    j["shown"] = p.shown;
    j["hand"] = OrNull(p.hand);
    players.push_back(std::move(j));
  }
  out["players"] = std::move(players);
  OJson pots = OJson::array();
  for (const poker::PhhReplayPot& pot : r.pots) {
    OJson j;
    j["amount"] = pot.amount;
    j["rake"] = pot.rake;
    OJson winners = OJson::array();
    for (const poker::PhhReplayWinner& w : pot.winners) {
      OJson wj;
      PutWho(wj, w.who);
      wj["amount"] = w.amount;
      winners.push_back(std::move(wj));
    }
    j["winners"] = std::move(winners);
    j["hand"] = OrNull(pot.hand);
    pots.push_back(std::move(j));
  }
  out["pots"] = std::move(pots);
  out["board"] = CardList(r.board);
  out["showdown"] = r.showdown;
  out["winning_hand"] = OrNull(r.winning_hand);
  out["voided"] = r.voided;
  out["rake"] = r.rake;
  out["matches_file"] =
      r.file_has_finishing_stacks ? OJson(r.matches_file) : OJson(nullptr);
  OJson differences = OJson::array();
  for (const poker::PhhStackDifference& d : r.differences) {
    OJson j;
    PutWho(j, d.who);
    j["file"] = d.file;
    j["engine"] = d.engine;
    differences.push_back(std::move(j));
  }
  out["differences"] = std::move(differences);
  return out;
}

HandsRun Failed(int exit_code, const std::string& message) {
  OJson j;
  j["error"] = message;
  return HandsRun{exit_code, Dump(j), message};
}

}  // namespace

HandsRun ReplayHandText(std::string_view phh_text) {
  try {
    poker::PhhActionError failure;
    absl::StatusOr<poker::PhhReplay> r = poker::ReplayPhh(phh_text, &failure);
    if (r.ok()) return HandsRun{kHandsOk, Dump(ReplayJson(*r)), ""};
    const absl::Status& st = r.status();
    const bool file_fault =
        st.code() == absl::StatusCode::kInvalidArgument ||
        st.code() == absl::StatusCode::kFailedPrecondition ||
        st.code() == absl::StatusCode::kUnimplemented;
    HandsRun run;
    run.exit_code = file_fault ? kHandsBadFile : kHandsFailed;
    run.error = std::string(st.message());
    OJson j;
    j["error"] = run.error;
    j["code"] = absl::StatusCodeToString(st.code());
    if (failure.action_index >= 0) {
      j["action_index"] = failure.action_index;
      j["action"] = failure.action;
      j["reason"] = failure.reason;
    }
    run.json = Dump(j);
    return run;
  } catch (const std::exception& e) {
    return Failed(kHandsFailed, absl::StrCat("internal: ", e.what()));
  }
}

HandsRun ReplayHandFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Failed(kHandsFailed, absl::StrCat(path, " is a directory"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Failed(kHandsFailed, absl::StrCat("cannot read ", path));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Failed(kHandsFailed, absl::StrCat("cannot read ", path));
  return ReplayHandText(text.str());
}

}  // namespace banca::cli
