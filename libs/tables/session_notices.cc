#include "libs/tables/session_notices.h"

namespace banca::tables {
namespace poker = games::poker;

v1::SessionNoticeReason NoticeReasonToProto(poker::InvitationReason reason) {
  return reason == poker::InvitationReason::kShortStack
             ? v1::SESSION_NOTICE_REASON_SHORT_STACK
             : v1::SESSION_NOTICE_REASON_INACTIVE;
}

v1::LeaveReason LeaveReasonToProto(poker::LeaveReason reason) {
  switch (reason) {
    case poker::LeaveReason::kInactive:
      return v1::LEAVE_REASON_INACTIVE;
    case poker::LeaveReason::kShortStack:
      return v1::LEAVE_REASON_SHORT_STACK;
    case poker::LeaveReason::kRestOver:
      return v1::LEAVE_REASON_REST_OVER;
    case poker::LeaveReason::kVoluntary:
      break;
  }
  return v1::LEAVE_REASON_UNSPECIFIED;
}

poker::LeaveReason LeaveReasonFromProto(v1::LeaveReason reason) {
  switch (reason) {
    case v1::LEAVE_REASON_INACTIVE:
      return poker::LeaveReason::kInactive;
    case v1::LEAVE_REASON_SHORT_STACK:
      return poker::LeaveReason::kShortStack;
    case v1::LEAVE_REASON_REST_OVER:
      return poker::LeaveReason::kRestOver;
    default:
      return poker::LeaveReason::kVoluntary;
  }
}

v1::SessionNotice NoticeOf(const std::string& player,
                           const poker::SessionNotice& notice) {
  v1::SessionNotice out;
  out.set_player_id(player);
  out.set_kind(notice.warned ? v1::SESSION_NOTICE_KIND_WARNED
                             : v1::SESSION_NOTICE_KIND_INVITED);
  out.set_reason(NoticeReasonToProto(notice.reason));
  out.set_hand_number(notice.hand_number);
  return out;
}

std::optional<v1::SessionNotice> EndedNotice(const std::string& player,
                                             poker::LeaveReason reason,
                                             int64_t hand_number) {
  v1::SessionNotice out;
  out.set_player_id(player);
  out.set_kind(v1::SESSION_NOTICE_KIND_ENDED);
  switch (reason) {
    case poker::LeaveReason::kVoluntary:
      return std::nullopt;
    case poker::LeaveReason::kInactive:
      out.set_reason(v1::SESSION_NOTICE_REASON_INACTIVE);
      break;
    case poker::LeaveReason::kShortStack:
      out.set_reason(v1::SESSION_NOTICE_REASON_SHORT_STACK);
      break;
    case poker::LeaveReason::kRestOver:
      out.set_reason(v1::SESSION_NOTICE_REASON_REST_OVER);
      break;
  }
  out.set_hand_number(hand_number);
  return out;
}

std::string NoticeMessage(const v1::SessionNotice& n) {
  const bool short_stack = n.reason() == v1::SESSION_NOTICE_REASON_SHORT_STACK;
  switch (n.kind()) {
    case v1::SESSION_NOTICE_KIND_INVITED:
      return short_stack
                 ? "Your stack is below the table's minimum bet: you are "
                   "invited to end the session, or rebuy (HE-70a)."
                 : "You have placed no bet in more than 5 consecutive hands: "
                   "you are invited to end the session (HE-70b).";
    case v1::SESSION_NOTICE_KIND_WARNED:
      return short_stack
                 ? "Your session will be ended if you do not rebuy before "
                   "the next hand ends (HE-71)."
                 : "Your session will be ended if you place no bet in the "
                   "next hand (HE-71).";
    case v1::SESSION_NOTICE_KIND_ENDED:
      if (n.reason() == v1::SESSION_NOTICE_REASON_REST_OVER) {
        return "Your rest ran past the table's limit: your session ended "
               "and your stack went back to your account (HE-68).";
      }
      return short_stack
                 ? "You did not rebuy after the warning: your session ended "
                   "and your stack went back to your account (HE-71)."
                 : "You placed no bet after the warning: your session ended "
                   "and your stack went back to your account (HE-71).";
    default:
      return "";
  }
}

}  // namespace banca::tables
