#ifndef LAYOUTD_CCRYPTO_SHIM_H
#define LAYOUTD_CCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian libssl-dev; at run time libssl3, which ships
// libcrypto.so.3), for SHA-256 only.
//
// The SHA256_Init/Update/Final functions are deprecated in OpenSSL 3.0 in favour of
// EVP_Digest*, but present in every 3.x release. They are used because their state is a
// plain struct (SHA256_CTX, 112 bytes, held inline by the caller: hashing allocates
// nothing) and they call the assembly block function directly, without the EVP
// provider lookup that EVP_DigestInit_ex does per message. The deprecation attributes
// are suppressed so that Swift does not warn at every call.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#endif
