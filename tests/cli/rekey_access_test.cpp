// rekey in place keeps who may read the file: its owner, group, mode, POSIX ACL and extended
// attributes, or it refuses and leaves the file as it was. Root rekeying a user's file, and a
// user rekeying a file shared with a group through an ACL (the two users: shared_machine.hpp).
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/cli/shared_machine.hpp"

namespace warp::clitest {
namespace {

constexpr uid_t kReader = 61003;  // a third user, whom an ACL lets read

// A POSIX ACL as Linux stores it in system.posix_acl_access: version 2, then (tag, perm, id)
// entries, little-endian, sorted by tag.
std::string acl_bytes(std::initializer_list<std::tuple<std::uint16_t, std::uint16_t, std::uint32_t>>
                          entries) {
    std::string bytes;
    auto put = [&bytes](std::uint64_t value, int size) {
        for (int i = 0; i < size; ++i) bytes += static_cast<char>((value >> (8 * i)) & 0xff);
    };
    put(2, 4);
    for (const auto& [tag, perm, id] : entries) {
        put(tag, 2);
        put(perm, 2);
        put(id, 4);
    }
    return bytes;
}
constexpr std::uint16_t kUserObj = 0x01, kUser = 0x02, kGroupObj = 0x04, kMask = 0x10,
                        kOther = 0x20;
constexpr std::uint32_t kNoId = 0xffffffff;

std::optional<std::string> attribute(const fs::path& file, const char* name) {
    std::string value(4096, '\0');
    const ssize_t got = ::getxattr(file.c_str(), name, value.data(), value.size());
    if (got < 0) return std::nullopt;
    value.resize(static_cast<std::size_t>(got));
    return value;
}

struct stat status_of(const fs::path& file) {
    struct stat st {};
    EXPECT_EQ(::stat(file.c_str(), &st), 0);
    return st;
}

class RekeyAccess : public SharedMachine {
protected:
    void SetUp() override {
        SharedMachine::SetUp();
        if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
        sealed_ = victim_ciphertext("doc.warp", pattern(100000));
        other_key_ = home_ / "b.key";
        ASSERT_EQ(as_victim({"keygen", "-o", other_key_.string()}).exit_code, 0);
    }
    std::vector<std::string> add_other_key() const {
        return {"rekey", sealed_.string(), "-k", key_.string(), "--add-key", other_key_.string()};
    }
    bool victim_can_decrypt() const {
        return as_victim({"decrypt", sealed_.string(), "-k", key_.string(), "-o", "/dev/null"})
                   .exit_code == 0;
    }

    fs::path sealed_, other_key_;
};

TEST_F(RekeyAccess, RootRekeyingAUsersFileLeavesItTheirs) {
    ASSERT_EQ(::chmod(sealed_.c_str(), 0600), 0);
    // Root opens it with a copy of the key of its own (it refuses a key file another user
    // could replace, as anyone does).
    const fs::path roots_key = path("root.key"), roots_other = path("root-b.key");
    fs::copy_file(key_, roots_key);
    fs::copy_file(other_key_, roots_other);
    for (const fs::path& copy : {roots_key, roots_other})
        ASSERT_EQ(::chown(copy.c_str(), 0, 0), 0);
    const Outcome outcome = run({"rekey", sealed_.string(), "-k", roots_key.string(), "--add-key",
                                 roots_other.string()});  // as root
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    const struct stat after = status_of(sealed_);
    EXPECT_EQ(after.st_uid, kVictim);
    EXPECT_EQ(after.st_gid, kVictim);
    EXPECT_EQ(after.st_mode & 07777, 0600u);
    EXPECT_TRUE(victim_can_decrypt()) << "the owner lost their own file";
    EXPECT_EQ(as_victim({"decrypt", sealed_.string(), "-k", other_key_.string(), "-o",
                         "/dev/null"})
                  .exit_code,
              0)
        << "the added key does not open it";
}

TEST_F(RekeyAccess, TheOwnersRekeyKeepsGroupModeAclAndAttributes) {
    // user::rw-, user:61003:r--, group::---, mask::r--, other::---: one more reader, and the
    // group none, as `setfacl -m u:61003:r,g::-` leaves it.
    const std::string acl = acl_bytes({{kUserObj, 6, kNoId},
                                       {kUser, 4, kReader},
                                       {kGroupObj, 0, kNoId},
                                       {kMask, 4, kNoId},
                                       {kOther, 0, kNoId}});
    ASSERT_EQ(::setxattr(sealed_.c_str(), "system.posix_acl_access", acl.data(), acl.size(), 0), 0)
        << "the file system takes no ACL";
    const std::string note = "backup of 2026-12-03";
    ASSERT_EQ(::setxattr(sealed_.c_str(), "user.note", note.data(), note.size(), 0), 0);
    const struct stat before = status_of(sealed_);
    ASSERT_EQ(open_as(kReader, sealed_), 1);
    ASSERT_EQ(open_as(kAttacker, sealed_), 0);

    const Outcome outcome = as_victim(add_other_key());
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    const struct stat after = status_of(sealed_);
    EXPECT_NE(after.st_ino, before.st_ino) << "not a new file: the test proves nothing";
    EXPECT_EQ(after.st_uid, before.st_uid);
    EXPECT_EQ(after.st_gid, before.st_gid);
    EXPECT_EQ(after.st_mode & 07777, before.st_mode & 07777);
    EXPECT_EQ(attribute(sealed_, "system.posix_acl_access"), acl);
    EXPECT_EQ(attribute(sealed_, "user.note"), note);
    EXPECT_EQ(open_as(kReader, sealed_), 1) << "the ACL's reader lost access";
    EXPECT_EQ(open_as(kAttacker, sealed_), 0) << "someone else gained access";
    EXPECT_TRUE(victim_can_decrypt());
}

TEST_F(RekeyAccess, AGroupTheCallerIsNotInIsARefusalAndTheFileIsUntouched) {
    ASSERT_EQ(::chown(sealed_.c_str(), kVictim, 1002), 0);
    ASSERT_EQ(::chmod(sealed_.c_str(), 0640), 0);
    const std::string bytes = read_file(sealed_);
    const struct stat before = status_of(sealed_);
    const Outcome outcome = as_victim(add_other_key());
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("group (gid 1002), which you are not in"), std::string::npos)
        << outcome.err;
    EXPECT_NE(outcome.err.find("untouched"), std::string::npos) << outcome.err;
    const struct stat after = status_of(sealed_);
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(after.st_gid, 1002u);
    EXPECT_EQ(after.st_mode & 07777, 0640u);
    EXPECT_TRUE(read_file(sealed_) == bytes);
    EXPECT_EQ(list_dir(shared_), (std::vector<std::string>{"doc.warp"})) << "a leftover";
}

}  // namespace
}  // namespace warp::clitest
