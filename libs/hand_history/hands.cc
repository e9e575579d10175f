#include "libs/hand_history/hands.h"

#include <algorithm>
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

namespace banca::hand_history {
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

HandsRun ReplayOne(std::string_view phh_text) {
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

struct Section {
  std::string name;
  std::string_view text;
};

// The hands of a multi-hand file (PokerKit's .phhs): a TOML table header
// "[name]" at the start of a line, outside any array or string, opens each
// hand. Empty when the file has no header (one hand).
std::vector<Section> SplitSections(std::string_view text) {
  struct Header {
    size_t at = 0;    // the header line's first character
    size_t body = 0;  // the line after it
    std::string name;
  };
  std::vector<Header> headers;
  int depth = 0;  // of [ ] arrays, outside strings and comments
  size_t line_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      line_start = i + 1;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        if (c == '"' && text[i] == '\\') ++i;
      }
    } else if (c == '[' && depth == 0 &&
               text.substr(line_start, i - line_start)
                       .find_first_not_of(" \t") == std::string_view::npos) {
      const size_t close = text.find(']', i);
      const size_t eol = std::min(text.find('\n', i), text.size());
      if (close == std::string_view::npos || close > eol) {
        ++depth;  // not a header: an array value (malformed here)
        continue;
      }
      headers.push_back({line_start, std::min(eol + 1, text.size()),
                         std::string(text.substr(i + 1, close - i - 1))});
      i = eol;
      line_start = eol + 1;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']' && depth > 0) {
      --depth;
    }
  }
  std::vector<Section> out;
  for (size_t k = 0; k < headers.size(); ++k) {
    const size_t end = k + 1 < headers.size() ? headers[k + 1].at : text.size();
    out.push_back(
        {headers[k].name, text.substr(headers[k].body, end - headers[k].body)});
  }
  return out;
}

}  // namespace

HandsRun ReplayHandText(std::string_view phh_text) {
  const std::vector<Section> sections = SplitSections(phh_text);
  if (sections.empty()) return ReplayOne(phh_text);
  // One JSON object per hand and line, named by its section.
  HandsRun all{kHandsOk, "", ""};
  for (const Section& section : sections) {
    HandsRun one = ReplayOne(section.text);
    OJson j;
    j["section"] = section.name;
    OJson body = OJson::parse(one.json, nullptr, /*allow_exceptions=*/false);
    if (body.is_object()) {
      for (auto& [key, value] : body.items()) j[key] = value;
    }
    if (!all.json.empty()) all.json += "\n";
    all.json += Dump(j);
    if (one.exit_code != kHandsOk) {
      if (all.error.empty()) {
        all.error = absl::StrCat("[", section.name, "] ", one.error);
      }
      if (all.exit_code != kHandsFailed) all.exit_code = one.exit_code;
    }
  }
  return all;
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

}  // namespace banca::hand_history
