// HE-70/71 invitations and warnings, and the end of a session they (or an
// HE-68 rest past its limit) lead to, as the table service logs them and
// shows them to the one player they concern.
#ifndef BANCA_LIBS_TABLES_SESSION_NOTICES_H_
#define BANCA_LIBS_TABLES_SESSION_NOTICES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "banca/v1/table.pb.h"
#include "libs/games/poker/table.h"

namespace banca::tables {

v1::SessionNoticeReason NoticeReasonToProto(
    games::poker::InvitationReason reason);
v1::LeaveReason LeaveReasonToProto(games::poker::LeaveReason reason);
// UNSPECIFIED and unknown values are a voluntary leave.
games::poker::LeaveReason LeaveReasonFromProto(v1::LeaveReason reason);

// The engine's standing invitation or warning.
v1::SessionNotice NoticeOf(const std::string& player,
                           const games::poker::SessionNotice& notice);
// The end of a session the player did not ask for; nullopt for a voluntary
// leave (nothing to tell).
std::optional<v1::SessionNotice> EndedNotice(const std::string& player,
                                             games::poker::LeaveReason reason,
                                             int64_t hand_number);

// What the player reads: the rule, and what would avoid the consequence.
std::string NoticeMessage(const v1::SessionNotice& notice);

}  // namespace banca::tables

#endif  // BANCA_LIBS_TABLES_SESSION_NOTICES_H_
