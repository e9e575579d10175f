// A real `banca serve` child process for fault tests: started with its own
// flags, found by the port it prints, and stopped by a signal of the test's
// choosing.
#ifndef BANCA_TESTS_INTEGRATION_SERVE_CHILD_H_
#define BANCA_TESTS_INTEGRATION_SERVE_CHILD_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "banca/v1/wallet.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/integration/test_keys.h"

namespace banca::testing {

struct ServeChild {
  pid_t pid = -1;
  int stdout_fd = -1;
  int port = 0;
};

// Starts `banca serve --data-dir=DIR` plus `flags` and returns at once
// (port 0: WaitForServing learns it). On loopback it serves --plaintext
// unless `flags` choose TLS.
inline ServeChild LaunchServeChild(const std::string& dir,
                                   const std::vector<std::string>& flags = {}) {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  std::vector<std::string> args = {BANCA_BINARY, "serve", "--data-dir=" + dir,
                                   "--grpc-address=127.0.0.1",
                                   "--metrics-port=0"};
  bool ported = false;  // a port of the test's choosing (FreePort)
  for (const std::string& f : flags) {
    ported = ported || f.rfind("--grpc-port=", 0) == 0;
  }
  if (!ported) args.push_back("--grpc-port=0");
  args.insert(args.end(), flags.begin(), flags.end());
  bool keyed = false;
  bool tls = false;
  for (const std::string& f : flags) {
    keyed = keyed || f.rfind("--token-", 0) == 0 || f == "--insecure-dev";
    tls = tls || f.rfind("--tls-", 0) == 0 || f == "--plaintext";
  }
  if (!keyed) args.push_back("--token-key-file=" + WriteTestKeyFile(dir));
  if (!tls) args.push_back("--plaintext");
  const std::string err_path = dir + "/serve.stderr";
  ServeChild child;
  child.pid = fork();
  if (child.pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (err >= 0) dup2(err, STDERR_FILENO);
    close(pipe_fds[0]);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(BANCA_BINARY, argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  child.stdout_fd = pipe_fds[0];
  return child;
}

// Waits up to a minute for a launched child's "serving" line; port stays
// 0 if it never came.
inline void WaitForServing(ServeChild& child, const std::string& dir) {
  const std::string err_path = dir + "/serve.stderr";
  std::string line;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (line.find('\n') == std::string::npos && absl::Now() < deadline) {
    pollfd pfd{child.stdout_fd, POLLIN, 0};
    if (poll(&pfd, 1, 200) <= 0) continue;
    char buf[512];
    const ssize_t n = read(child.stdout_fd, buf, sizeof(buf));
    if (n <= 0) break;
    line.append(buf, n);
  }
  std::smatch m;
  static const std::regex kPort("\"grpc_port\":([0-9]+)");
  if (std::regex_search(line, m, kPort)) child.port = std::stoi(m[1]);
  EXPECT_GT(child.port, 0) << "server did not start: " << line << " (see "
                           << err_path << ")";
}

// LaunchServeChild, then WaitForServing.
inline ServeChild StartServeChild(const std::string& dir,
                                  const std::vector<std::string>& flags = {}) {
  ServeChild child = LaunchServeChild(dir, flags);
  WaitForServing(child, dir);
  return child;
}

// A port free on 127.0.0.1 now, for a child that must know its port before
// it starts (--advertise-address).
inline int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

// Sends `sig` and reaps the child; SIGTERM must end in a clean exit 0.
inline void StopServeChild(ServeChild& child, int sig) {
  kill(child.pid, sig);
  int status = 0;
  waitpid(child.pid, &status, 0);
  close(child.stdout_fd);
  if (sig == SIGTERM) {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "server did not stop cleanly";
  }
}

// True (and reaped) when the child has exited on its own.
inline bool ServeChildExited(ServeChild& child) {
  int status = 0;
  return waitpid(child.pid, &status, WNOHANG) == child.pid;
}

// The last partitions a `banca serve` child logged as assigned to it
// (`message`: "wallet partitions assigned", "table partitions assigned"),
// or nullopt before any. `group`, when given, must appear on the line.
inline std::optional<std::string> AssignedPartitions(
    const std::string& child_dir, const std::string& message,
    const std::string& group = "") {
  std::ifstream err(child_dir + "/serve.stderr");
  std::string line;
  std::optional<std::string> last;
  while (std::getline(err, line)) {
    const size_t at = line.find("\"partitions\":[");
    if (line.find(message) == std::string::npos || at == std::string::npos ||
        line.find(group) == std::string::npos) {
      continue;
    }
    const size_t begin = at + 14;
    last = line.substr(begin, line.find(']', begin) - begin);
  }
  return last;
}

// A stub acting as the back office (BackOfficeTokens) with the test key.
inline std::unique_ptr<v1::WalletService::Stub> ConnectWallet(int port) {
  return v1::WalletService::NewStub(edge::AuthorizedChannel(
      absl::StrCat("127.0.0.1:", port),
      *edge::BackOfficeTokens(TestSigningKey(), "test")));
}

}  // namespace banca::testing

#endif  // BANCA_TESTS_INTEGRATION_SERVE_CHILD_H_
