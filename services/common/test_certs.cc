#include "services/common/test_certs.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace banca::testing {
namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "test_certs: %s failed\n", what);
    std::abort();
  }
}

EVP_PKEY* NewKey() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  Check(key != nullptr, "EVP_EC_gen");
  return key;
}

std::string ToPem(int (*write)(BIO*, void*), void* object) {
  BIO* bio = BIO_new(BIO_s_mem());
  Check(write(bio, object) == 1, "PEM write");
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(size));
  BIO_free(bio);
  return pem;
}

int WriteCert(BIO* bio, void* x) {
  return PEM_write_bio_X509(bio, static_cast<X509*>(x));
}

int WriteKey(BIO* bio, void* key) {
  return PEM_write_bio_PrivateKey(bio, static_cast<EVP_PKEY*>(key), nullptr,
                                  nullptr, 0, nullptr, nullptr);
}

void AddExtension(X509* x, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, x, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  Check(ext != nullptr, "X509V3_EXT_conf_nid");
  Check(X509_add_ext(x, ext, -1) == 1, "X509_add_ext");
  X509_EXTENSION_free(ext);
}

// A certificate for `key` named `name`, signed by `issuer_key` as
// `issuer` (nullptr: itself).
X509* NewCertificate(const std::string& name, EVP_PKEY* key, X509* issuer,
                     EVP_PKEY* issuer_key, absl::Duration from,
                     absl::Duration until) {
  static std::atomic<long> serial{1};
  X509* x = X509_new();
  Check(x != nullptr, "X509_new");
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), serial++);
  X509_gmtime_adj(X509_getm_notBefore(x), absl::ToInt64Seconds(from));
  X509_gmtime_adj(X509_getm_notAfter(x), absl::ToInt64Seconds(until));
  X509_set_pubkey(x, key);
  X509_NAME_add_entry_by_txt(
      X509_get_subject_name(x), "CN", MBSTRING_ASC,
      reinterpret_cast<const unsigned char*>(name.c_str()), -1, -1, 0);
  X509* signer = issuer != nullptr ? issuer : x;
  X509_set_issuer_name(x, X509_get_subject_name(signer));
  AddExtension(x, signer, NID_subject_key_identifier, "hash");
  if (issuer == nullptr) {
    AddExtension(x, signer, NID_basic_constraints, "critical,CA:TRUE");
    AddExtension(x, signer, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    AddExtension(x, signer, NID_authority_key_identifier, "keyid:always");
    AddExtension(x, signer, NID_basic_constraints, "critical,CA:FALSE");
    AddExtension(x, signer, NID_key_usage, "critical,digitalSignature");
    AddExtension(x, signer, NID_ext_key_usage, "serverAuth,clientAuth");
    AddExtension(x, signer, NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");
  }
  Check(X509_sign(x, issuer_key, EVP_sha256()) > 0, "X509_sign");
  return x;
}

}  // namespace

struct TestCa::Key {
  ~Key() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
};

TestCa::TestCa(const std::string& name) : key_(std::make_unique<Key>()) {
  key_->key = NewKey();
  key_->cert = NewCertificate(name, key_->key, nullptr, key_->key,
                              -absl::Hours(1), absl::Hours(24 * 30));
  self_ = {ToPem(&WriteCert, key_->cert), ToPem(&WriteKey, key_->key)};
}

TestCa::~TestCa() = default;

TestIdentity TestCa::Issue(const std::string& name, absl::Duration from,
                           absl::Duration until) const {
  EVP_PKEY* key = NewKey();
  X509* cert = NewCertificate(name, key, key_->cert, key_->key, from, until);
  TestIdentity identity{ToPem(&WriteCert, cert), ToPem(&WriteKey, key)};
  X509_free(cert);
  EVP_PKEY_free(key);
  return identity;
}

void WriteFileAtomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    Check(static_cast<bool>(out), "writing a test certificate file");
  }
  Check(std::rename(tmp.c_str(), path.c_str()) == 0, "rename");
}

}  // namespace banca::testing
