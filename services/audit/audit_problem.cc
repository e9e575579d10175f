#include "services/audit/audit_problem.h"

#include <utility>

namespace banca::audit {

std::ostream& operator<<(std::ostream& out, const AuditProblem& problem) {
  return out << problem.message;
}

AuditProblem AtRecord(std::string kind, std::string_view topic, int partition,
                      int64_t offset, std::string message) {
  AuditProblem p;
  p.kind = std::move(kind);
  p.message = std::move(message);
  p.topic = std::string(topic);
  p.partition = partition;
  p.offset = offset;
  return p;
}

AuditProblem AtAccount(std::string kind, std::string account,
                       std::string message) {
  AuditProblem p;
  p.kind = std::move(kind);
  p.message = std::move(message);
  p.account = std::move(account);
  return p;
}

void AddProblem(Problems& problems, AuditProblem problem) {
  if (problems.size() < kMaxAuditProblems) {
    problems.push_back(std::move(problem));
  } else if (problems.size() == kMaxAuditProblems) {
    problems.push_back(
        {.kind = "truncated", .message = "… more problems not shown"});
  }
}

void AddProblem(Problems& problems, std::string message) {
  AddProblem(problems, AuditProblem{.message = std::move(message)});
}

void MergeProblems(Problems& into, const Problems& from,
                   std::string_view kind) {
  for (AuditProblem p : from) {
    if (p.kind.empty()) p.kind = std::string(kind);
    AddProblem(into, std::move(p));
  }
}

std::string ProblemLines(const Problems& problems) {
  std::string out;
  for (const AuditProblem& p : problems) {
    if (!out.empty()) out += "\n";
    out += p.message;
  }
  return out;
}

nlohmann::ordered_json ProblemJson(const AuditProblem& problem) {
  nlohmann::ordered_json where = nlohmann::ordered_json::object();
  if (problem.partition >= 0) {
    where["topic"] = problem.topic;
    where["partition"] = problem.partition;
    where["offset"] = problem.offset;
  }
  if (!problem.account.empty()) where["account"] = problem.account;
  if (!problem.stream.empty()) where["stream"] = problem.stream;
  nlohmann::ordered_json out;
  out["kind"] = problem.kind;
  out["message"] = problem.message;
  out["where"] = std::move(where);
  return out;
}

nlohmann::ordered_json ProblemsJson(const Problems& problems) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const AuditProblem& p : problems) out.push_back(ProblemJson(p));
  return out;
}

}  // namespace banca::audit
