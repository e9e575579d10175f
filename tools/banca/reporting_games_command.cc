// banca reporting games --target=HOST:PORT --player=ID --token-key-file=F
//                       [--tls-ca-file=F [--tls-cert-file=F --tls-key-file=F]]
//                       [--role=player|auditor|finance|operator]
//                       [--game=NAME] [--page-size=N] [--pretty]
// A player's last games (ReportingService.ListGames: newest first, 10 by
// default, the recall of the last ten), asked over gRPC with a token this
// command signs for --role (a player's own: the player themselves);
// prints the answer as one JSON object (the proto's field names).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "banca/v1/reporting.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "services/common/authorized_channel.h"
#include "services/server/token_key.h"
#include "tools/banca/client_tls_flags.h"
#include "tools/banca/commands.h"

namespace banca::cli {
namespace {

constexpr std::string_view kCommand = "banca reporting games";
constexpr int kCallSeconds = 10;

struct GamesFlags {
  std::string target = "127.0.0.1:7070";
  std::string token_key_file;
  std::string role = "player";
  v1::GamesRequest request;
  int64_t page_size = 10;
  bool pretty = false;
  edge::ClientTls tls;
};

int Games(GamesFlags flags) {
  absl::StatusOr<auth::SigningKey> key =
      server::LoadSigningKey(flags.token_key_file);
  if (!key.ok()) return Complain(kCommand, key.status(), kUsageError);
  absl::StatusOr<auth::Role> role = auth::ParseRole(flags.role);
  if (!role.ok()) return Complain(kCommand, role.status(), kUsageError);
  const std::string& player = flags.request.player_id();
  absl::StatusOr<std::string> token = edge::DayToken(
      *key, *role, *role == auth::Role::kPlayer ? player : "reporting-cli");
  if (!token.ok()) return Complain(kCommand, token.status(), kUsageError);
  flags.request.set_page_size(static_cast<int32_t>(flags.page_size));
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      edge::ChannelCredentialsFor(flags.tls);
  if (!credentials.ok()) {
    return Complain(kCommand, credentials.status(), kUsageError);
  }
  auto stub = v1::ReportingService::NewStub(
      grpc::CreateChannel(flags.target, *credentials));
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() +
                   std::chrono::seconds(kCallSeconds));
  ctx.AddMetadata("authorization", "Bearer " + *token);
  v1::GamesPage page;
  const grpc::Status s = stub->ListGames(&ctx, flags.request, &page);
  if (!s.ok()) {
    return Complain(
        kCommand,
        absl::StrCat("ListGames: ", static_cast<int>(s.error_code()), " ",
                     s.error_message()),
        1);
  }
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  options.add_whitespace = flags.pretty;
  std::string text;
  if (!google::protobuf::util::MessageToJsonString(page, &text, options).ok()) {
    return Complain(kCommand, "the answer does not print as JSON", 1);
  }
  std::printf("%s%s", text.c_str(), flags.pretty ? "" : "\n");
  return 0;
}

}  // namespace

void AddReportingGamesCommand(CLI::App& reporting, Action* action) {
  CLI::App* games = reporting.add_subcommand(
      "games", "a player's last games, from a running reporting service");
  games->footer(
      "Asks ReportingService.ListGames over gRPC with a token signed for "
      "--role (player: the player's own) and prints the page as one JSON "
      "object: each game's reference, game, table, time and what the "
      "player staked and got back, newest first.\nExit 0 answered, 1 the "
      "call failed, 2 usage.");
  auto flags = std::make_shared<GamesFlags>();
  games->add_option("--target", flags->target, "the server, HOST:PORT");
  AddClientTlsFlags(*games, flags->tls);
  games->add_option("--token-key-file", flags->token_key_file,
                    "the issuer's key (else BANCA_TOKEN_KEY)");
  games
      ->add_option_function<std::string>(
          "--player",
          [flags](const std::string& p) { flags->request.set_player_id(p); },
          "the player")
      ->required();
  games
      ->add_option("--role", flags->role,
                   "who asks: player (the player themselves), auditor, "
                   "finance or operator")
      ->check(CLI::IsMember({"player", "auditor", "finance", "operator"}));
  games->add_option_function<std::string>(
      "--game", [flags](const std::string& g) { flags->request.set_game(g); },
      "one game only (poker, roulette_french, blackjack, ...)");
  AddInt(*games, "--page-size", flags->page_size, "games on the page", 1, 100);
  AddSwitch(*games, "--pretty", flags->pretty, "indent the JSON");
  OnParsed(*games, action, [flags] { return Games(*flags); });
}

}  // namespace banca::cli
