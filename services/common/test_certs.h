// Certificates for the transport-security tests, made in memory with
// OpenSSL's libcrypto: a CA, server and client certificates it issues
// (valid, expired, or for 127.0.0.1 and localhost), written as PEM files.
// For tests only.
#ifndef BANCA_SERVICES_COMMON_TEST_CERTS_H_
#define BANCA_SERVICES_COMMON_TEST_CERTS_H_

#include <memory>
#include <string>

#include "absl/time/time.h"

namespace banca::testing {

// A certificate and its private key, both PEM.
struct TestIdentity {
  std::string cert_pem;
  std::string key_pem;
};

class TestCa {
 public:
  // A self-signed CA named `name` (its own P-256 key).
  explicit TestCa(const std::string& name);
  ~TestCa();
  TestCa(const TestCa&) = delete;
  TestCa& operator=(const TestCa&) = delete;

  const std::string& cert_pem() const { return self_.cert_pem; }

  // A certificate for `name`, usable by a server (names 127.0.0.1 and
  // localhost) and by a client, valid from now + `from` to now + `until`
  // (negative: in the past).
  TestIdentity Issue(const std::string& name,
                     absl::Duration from = -absl::Hours(1),
                     absl::Duration until = absl::Hours(24)) const;

 private:
  struct Key;
  std::unique_ptr<Key> key_;
  TestIdentity self_;
};

// Writes `text` to `path` through a temporary file and a rename, so a
// reader never sees half of it. Dies on failure.
void WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace banca::testing

#endif  // BANCA_SERVICES_COMMON_TEST_CERTS_H_
