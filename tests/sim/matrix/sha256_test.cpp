#include <gtest/gtest.h>

#include <string>

#include "sim/matrix/sha256.h"

namespace ascendsim {
namespace {

// Test vectors from FIPS 180-4's examples (NIST CSRC "SHA256.pdf").
TEST(Sha256, EmptyInputHasTheStandardDigest) {
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, OneBlockMessageAbc) {
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessageWhosePaddingSpillsIntoASecondBlock) {
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, MillionLetterA) {
    EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, UnreadableFileNamesThePathAndTheReason) {
    try {
        sha256OfFile("/nonexistent/ascendsim/file");
        FAIL() << "expected an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/ascendsim/file: No such file or directory"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace ascendsim
