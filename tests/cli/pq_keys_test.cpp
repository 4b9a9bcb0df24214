// Post-quantum keys (ML-KEM-768 + X25519, age 1.4's default) through the real binary, in both
// formats: keygen writes them by default, every option that takes a recipient or an identity
// takes them (a 1959-character recipient wherever lines are read), a classic X25519 recipient
// gets a warning and never sits beside a post-quantum one, rekey moves a file over, info says
// which entries are post-quantum. (Interop with a second implementation written from the
// specification, and crafted stanzas, are tests/interop/.)
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr std::string_view kWarning = "classic key";

class PqKeys : public CliTest {
protected:
    Identity make_pq_identity(std::string_view name) const {
        Identity identity{path(name), ""};
        const Outcome made = run({"keygen", "--identity", "-o", identity.file.string()});
        EXPECT_EQ(made.exit_code, 0) << describe(made);
        const Outcome recipient = run({"keygen", "-y", identity.file.string()});
        EXPECT_EQ(recipient.exit_code, 0) << describe(recipient);
        identity.recipient = recipient.out.substr(0, recipient.out.find('\n'));
        return identity;
    }

    // Decrypts `file` with the identity files and returns the outcome (stdout: the plaintext).
    Outcome decrypt(const fs::path& file, const std::vector<fs::path>& identities) const {
        std::vector<std::string> a = {"decrypt", file.string(), "-o", "-"};
        for (const fs::path& id : identities) a.insert(a.end(), {"-i", id.string()});
        return run(a);
    }
};

TEST_F(PqKeys, KeygenIdentityIsPostQuantumByDefault) {
    const fs::path file = path("me.txt");
    const Outcome outcome = run({"keygen", "--identity", "-o", file.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    // As age-keygen 1.4 writes it: "# created:", "# public key: age1pq1...", the identity.
    const std::vector<std::string> lines = lines_of(read_file(file));
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_TRUE(lines[0].starts_with("# created: 20") && lines[0].ends_with("Z")) << lines[0];
    ASSERT_TRUE(lines[1].starts_with("# public key: age1pq1")) << lines[1];
    const std::string recipient = lines[1].substr(std::string("# public key: ").size());
    EXPECT_EQ(recipient.size(), 1959u);
    EXPECT_TRUE(lines[2].starts_with("AGE-SECRET-KEY-PQ-1"));
    EXPECT_EQ(lines[2].size(), 77u);  // "AGE-SECRET-KEY-PQ-1", 52 data characters, 6 checksum
    EXPECT_NE(outcome.err.find("public key: " + recipient), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.err.find("AGE-SECRET-KEY"), std::string::npos);
    const Outcome y = run({"keygen", "-y", file.string()});
    EXPECT_EQ(y.out, recipient + "\n");
}

TEST_F(PqKeys, AnIdentityFileMayHoldBothKindsAndOpensFilesOfBoth) {
    const Identity pq = make_pq_identity("pq.id");
    const Identity classic = make_identity("classic.id");
    const fs::path both =
        make_secret_file("both.id", "# two kinds\n" + read_file(classic.file) + "\n" + read_file(pq.file));
    const Outcome y = run({"keygen", "-y", both.string()});
    EXPECT_EQ(y.out, classic.recipient + "\n" + pq.recipient + "\n") << describe(y);
    const fs::path plain = make_file("plain", pattern(1000));
    for (const std::string format : {"warp", "age"}) {
        for (const Identity* to : {&pq, &classic}) {
            SCOPED_TRACE(format + " to " + to->recipient.substr(0, 7));
            const fs::path sealed = path("sealed." + format);
            fs::remove(sealed);
            ASSERT_EQ(run({"encrypt", plain.string(), "--format", format, "-r", to->recipient,
                           "-o", sealed.string(), "--no-pq-warning"})
                          .exit_code,
                      0);
            const Outcome opened = decrypt(sealed, {both});
            EXPECT_EQ(opened.exit_code, 0) << describe(opened);
            EXPECT_EQ(opened.out, pattern(1000));
        }
    }
}

TEST_F(PqKeys, BothFormatsRoundTripAtEverySizeBinaryAndArmored) {
    const Identity me = make_pq_identity("me.id");
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65535},
                                   std::size_t{65536}, std::size_t{65537},
                                   std::size_t{3 * 1024 * 1024 + 17}}) {
        const fs::path plain = make_file("plain", pattern(size, size));
        for (const std::vector<std::string>& format :
             {std::vector<std::string>{"--format", "warp"}, {"--format", "age"},
              {"--format", "age", "--armor"}}) {
            SCOPED_TRACE(std::to_string(size) + " " + format.back());
            const fs::path sealed = path("sealed");
            fs::remove(sealed);
            const Outcome made =
                run(args({{"encrypt", plain.string(), "-r", me.recipient, "-o", sealed.string()}, format}));
            ASSERT_EQ(made.exit_code, 0) << describe(made);
            EXPECT_EQ(made.err, "") << "no warning for a post-quantum recipient";
            const Outcome opened = decrypt(sealed, {me.file});
            EXPECT_EQ(opened.exit_code, 0) << describe(opened);
            EXPECT_TRUE(opened.out == pattern(size, size));
        }
    }
}

TEST_F(PqKeys, SeveralRecipientsEachOpenAndAWrongIdentityIsExit3WritingNothing) {
    const Identity a = make_pq_identity("a.id"), b = make_pq_identity("b.id"),
                   c = make_pq_identity("c.id"), stranger = make_pq_identity("x.id");
    const fs::path recipients = make_file("recipients", "# b and c\n" + b.recipient + "\n\n" + c.recipient + "\n");
    const fs::path plain = make_file("plain", pattern(70000));
    for (const std::string format : {"warp", "age"}) {
        SCOPED_TRACE(format);
        const fs::path sealed = path("sealed." + format);
        const Outcome made = run({"encrypt", plain.string(), "--format", format, "-r", a.recipient,
                                  "-R", recipients.string(), "-o", sealed.string()});
        ASSERT_EQ(made.exit_code, 0) << describe(made);
        for (const Identity* id : {&a, &b, &c}) EXPECT_EQ(decrypt(sealed, {id->file}).out, pattern(70000));
        const fs::path out = path("out");
        const Outcome wrong = run({"decrypt", sealed.string(), "-i", stranger.file.string(), "-o", out.string()});
        EXPECT_EQ(wrong.exit_code, 3) << describe(wrong);
        EXPECT_FALSE(fs::exists(out));
        EXPECT_NE(wrong.err.find("wrong key"), std::string::npos) << wrong.err;
    }
    // An identity of the other kind only: the message names the kind the file wants.
    const Identity classic = make_identity("classic.id");
    const Outcome other_kind = decrypt(path("sealed.warp"), {classic.file});
    EXPECT_EQ(other_kind.exit_code, 3);
    EXPECT_NE(other_kind.err.find("the file has 3 mlkem768x25519 slots, and no post-quantum "
                                  "identity was given"),
              std::string::npos)
        << other_kind.err;
}

TEST_F(PqKeys, AClassicRecipientWarnsUnlessSilenced) {
    const Identity classic = make_identity("classic.id");
    const fs::path plain = make_file("plain", "x");
    for (const std::string format : {"warp", "age"}) {
        SCOPED_TRACE(format);
        const fs::path sealed = path("sealed");
        fs::remove(sealed);
        const Outcome warned = run({"encrypt", plain.string(), "--format", format, "-r",
                                    classic.recipient, "-o", sealed.string()});
        ASSERT_EQ(warned.exit_code, 0) << describe(warned);
        EXPECT_NE(warned.err.find(kWarning), std::string::npos) << warned.err;
        EXPECT_NE(warned.err.find("quantum computers"), std::string::npos) << warned.err;
        EXPECT_NE(warned.err.find("--no-pq-warning"), std::string::npos) << warned.err;
        EXPECT_EQ(std::count(warned.err.begin(), warned.err.end(), '\n'), 1) << "one line";
        fs::remove(sealed);
        const Outcome flag = run({"encrypt", plain.string(), "--format", format, "-r",
                                  classic.recipient, "--no-pq-warning", "-o", sealed.string()});
        EXPECT_EQ(flag.exit_code, 0);
        EXPECT_EQ(flag.err, "");
        fs::remove(sealed);
        Command command;
        command.args = {"encrypt", plain.string(), "--format", format, "-r", classic.recipient,
                        "-o", sealed.string()};
        command.env["WARPCRYPT_NO_PQ_WARNING"] = "1";
        const Outcome env = run(command);
        EXPECT_EQ(env.exit_code, 0);
        EXPECT_EQ(env.err, "");
    }
}

TEST_F(PqKeys, ClassicAndPostQuantumRecipientsAreNeverMixed) {
    const Identity pq = make_pq_identity("pq.id");
    const Identity classic = make_identity("classic.id");
    const fs::path plain = make_file("plain", "x");
    const fs::path classic_file = make_file("classic.txt", classic.recipient + "\n");
    for (const std::string format : {"warp", "age"}) {
        for (const std::vector<std::string>& given :
             {std::vector<std::string>{"-r", pq.recipient, "-r", classic.recipient},
              {"-r", pq.recipient, "-R", classic_file.string()}}) {
            SCOPED_TRACE(format + " " + given[2]);
            const fs::path out = path("out");
            const Outcome refused = run(args({{"encrypt", plain.string(), "--format", format,
                                               "--no-pq-warning", "-o", out.string()}, given}));
            EXPECT_EQ(refused.exit_code, 2) << describe(refused);
            EXPECT_NE(refused.err.find("takes no classic X25519 recipient"), std::string::npos)
                << refused.err;
            EXPECT_FALSE(fs::exists(out));
        }
    }
    // A key file (warp) beside a post-quantum recipient is fine: symmetric.
    const fs::path key = make_key("k.key");
    EXPECT_EQ(run({"encrypt", plain.string(), "-r", pq.recipient, "-k", key.string(), "-o",
                   path("ok.warp").string()})
                  .exit_code,
              0);
}

TEST_F(PqKeys, RekeyMovesAFileFromClassicToPostQuantum) {
    const Identity pq = make_pq_identity("pq.id");
    const Identity classic = make_identity("classic.id");
    const fs::path plain = make_file("plain", pattern(100000));
    for (const std::string format : {"warp", "age"}) {
        SCOPED_TRACE(format);
        const fs::path file = path("file." + format);
        ASSERT_EQ(run({"encrypt", plain.string(), "--format", format, "-r", classic.recipient,
                       "--no-pq-warning", "-o", file.string()})
                      .exit_code,
                  0);
        const std::string before = read_file(file);
        // Adding beside the X25519 entry is refused, and the file is left as it was.
        const Outcome refused = run({"rekey", file.string(), "-i", classic.file.string(),
                                     "--add-recipient", pq.recipient});
        EXPECT_EQ(refused.exit_code, 2) << describe(refused);
        EXPECT_NE(refused.err.find("takes no classic X25519 recipient"), std::string::npos) << refused.err;
        EXPECT_EQ(read_file(file), before);
        // Added and removed in one step: the file is post-quantum.
        const Outcome moved = run({"rekey", file.string(), "-i", classic.file.string(),
                                   "--add-recipient", pq.recipient, "--remove-slot", "1"});
        ASSERT_EQ(moved.exit_code, 0) << describe(moved);
        EXPECT_EQ(decrypt(file, {pq.file}).out, pattern(100000));
        EXPECT_EQ(decrypt(file, {classic.file}).exit_code, 3);
        const Outcome info = run({"info", file.string()});
        EXPECT_NE(info.out.find("1: mlkem768x25519, post-quantum"), std::string::npos) << info.out;
    }
}

TEST_F(PqKeys, RekeyKeepsTheSlotsOfAFileThatAlreadyMixesAndAddsNoPublicKeyToIt) {
    // SPEC 4.7 (review 3, item 9): a warp file that mixes X25519 and post-quantum slots,
    // written by another tool, keeps them byte for byte through a rekey, which may add key
    // files and passphrases but no public key while the file still mixes. It refused even a
    // key file before.
    const Identity pq = make_pq_identity("pq.id");
    const Identity classic = make_identity("classic.id");
    const Identity other_pq = make_pq_identity("other-pq.id");
    const fs::path both = make_file("both.txt", classic.recipient + "\n" + pq.recipient + "\n");
    const fs::path plain = make_file("plain", pattern(70000));
    const fs::path file = path("mixed.warp");
    ASSERT_EQ(run_tool(std::string(WARPCRYPT_CRAFT_MIXED_WARP) + " " + both.string() + " " +
                       file.string() + " < " + plain.string())
                  .status,
              0);
    const Outcome listed = run({"info", file.string()});
    ASSERT_NE(listed.out.find("slot 1: x25519"), std::string::npos) << listed.out;
    ASSERT_NE(listed.out.find("slot 2: mlkem768x25519"), std::string::npos) << listed.out;
    const std::string mixed = read_file(file);
    const Container before = parse_container(mixed);

    // A key file is added; the two slots stay as they were.
    const fs::path key = make_key("k.key");
    const Outcome added = run({"rekey", file.string(), "-i", pq.file.string(), "--add-key",
                               key.string()});
    ASSERT_EQ(added.exit_code, 0) << describe(added);
    auto slots_of = [&](const std::string& bytes) {
        return bytes.substr(before.slot_offset(0),
                            before.payload_nonce_offset() - before.slot_offset(0));
    };
    EXPECT_EQ(slots_of(read_file(file)), slots_of(mixed)) << "the kept slots changed";
    for (const fs::path& opener : {classic.file, pq.file})
        EXPECT_EQ(decrypt(file, {opener}).out, pattern(70000));
    EXPECT_EQ(run({"decrypt", file.string(), "-k", key.string(), "-o", "-"}).out, pattern(70000));

    // No public key is added while the file mixes, of either kind; the file stays as it was.
    const std::string kept = read_file(file);
    for (const std::string& recipient : {make_identity("c2.id").recipient, other_pq.recipient}) {
        const Outcome refused = run({"rekey", file.string(), "-i", pq.file.string(),
                                     "--add-recipient", recipient, "--no-pq-warning"});
        EXPECT_EQ(refused.exit_code, 2) << describe(refused);
        EXPECT_NE(refused.err.find("takes no classic X25519 recipient"), std::string::npos)
            << refused.err;
        EXPECT_EQ(read_file(file), kept);
    }
    // Moving it: the X25519 slot removed as the post-quantum one is added.
    const Outcome moved = run({"rekey", file.string(), "-i", pq.file.string(), "--remove-slot",
                               "1", "--add-recipient", other_pq.recipient});
    ASSERT_EQ(moved.exit_code, 0) << describe(moved);
    EXPECT_EQ(decrypt(file, {classic.file}).exit_code, 3);
    EXPECT_EQ(decrypt(file, {other_pq.file}).out, pattern(70000));
}

TEST_F(PqKeys, InfoSaysWhichEntriesArePostQuantum) {
    const Identity pq = make_pq_identity("pq.id");
    const Identity classic = make_identity("classic.id");
    const fs::path key = make_key("k.key");
    const fs::path plain = make_file("plain", "x");
    const fs::path pq_warp = path("pq.warp"), classic_age = path("classic.age");
    ASSERT_EQ(run({"encrypt", plain.string(), "-r", pq.recipient, "-k", key.string(), "-o",
                   pq_warp.string()})
                  .exit_code,
              0);
    ASSERT_EQ(run({"encrypt", plain.string(), "--format", "age", "-r", classic.recipient,
                   "--no-pq-warning", "-o", classic_age.string()})
                  .exit_code,
              0);
    const Outcome warp_text = run({"info", pq_warp.string()});
    // Key files come first (encrypt takes -k before -r).
    EXPECT_NE(warp_text.out.find("slot 1: key-file\n"), std::string::npos) << warp_text.out;
    EXPECT_NE(warp_text.out.find("slot 2: mlkem768x25519, post-quantum"), std::string::npos)
        << warp_text.out;
    const auto warp_json = nlohmann::json::parse(run({"info", "--json", pq_warp.string()}).out);
    EXPECT_EQ(warp_json["slots"][1]["type"], "mlkem768x25519");
    EXPECT_EQ(warp_json["slots"][0]["post_quantum"], true);
    EXPECT_EQ(warp_json["slots"][1]["post_quantum"], true);
    const Outcome age_text = run({"info", classic_age.string()});
    EXPECT_NE(age_text.out.find("stanza 1: X25519, classic: not post-quantum"), std::string::npos)
        << age_text.out;
    const auto age_json = nlohmann::json::parse(run({"info", "--json", classic_age.string()}).out);
    EXPECT_EQ(age_json["stanzas"][0]["post_quantum"], false);
}

TEST_F(PqKeys, ALongRecipientWorksWhereverLinesAreRead) {
    // 1959 characters: as an argument, in a recipients file (with CR LF), on stdin, and for
    // rekey's options; the stanza line it makes is 1512 bytes.
    const Identity pq = make_pq_identity("pq.id");
    ASSERT_EQ(pq.recipient.size(), 1959u);
    const fs::path plain = make_file("plain", "data");
    const fs::path crlf = make_file("crlf.txt", "  " + pq.recipient + " \r\n");
    const fs::path from_arg = path("a.age"), from_file = path("f.age"), from_stdin = path("s.age");
    ASSERT_EQ(run({"encrypt", plain.string(), "--format", "age", "-r", pq.recipient, "-o",
                   from_arg.string()}).exit_code, 0);
    const Outcome file_run = run({"encrypt", plain.string(), "--format", "age", "-R", crlf.string(),
                                  "-o", from_file.string()});
    ASSERT_EQ(file_run.exit_code, 0) << describe(file_run);
    Command command;
    command.args = {"encrypt", plain.string(), "--format", "age", "-R", "-", "-o", from_stdin.string()};
    command.stdin_bytes = pq.recipient + "\n";
    ASSERT_EQ(run(command).exit_code, 0);
    for (const fs::path& f : {from_arg, from_file, from_stdin}) {
        const std::vector<std::string> lines = lines_of(read_file(f));
        ASSERT_GE(lines.size(), 2u);
        EXPECT_TRUE(lines[1].starts_with("-> mlkem768x25519 "));
        EXPECT_EQ(lines[1].size(), 1512u);
        EXPECT_EQ(decrypt(f, {pq.file}).out, "data");
    }
    const fs::path key = make_key("k.key");
    const fs::path warp = path("k.warp");
    ASSERT_EQ(run({"encrypt", plain.string(), "-k", key.string(), "-o", warp.string()}).exit_code, 0);
    ASSERT_EQ(run({"rekey", warp.string(), "-k", key.string(), "--add-recipients-file", crlf.string()}).exit_code, 0);
    EXPECT_EQ(decrypt(warp, {pq.file}).out, "data");
}

TEST_F(PqKeys, AgesMostStanzasOfPostQuantumRecipientsFitOneRecipientsFile) {
    // 1024 recipients of 1959 characters: a 2 MiB recipients file, a 1.6 MB age header.
    const Identity pq = make_pq_identity("pq.id");
    std::string lines;
    for (int i = 0; i < 1024; ++i) lines += pq.recipient + "\n";
    const fs::path recipients = make_file("many.txt", lines);
    const fs::path sealed = path("many.age");
    const Outcome made = run({"encrypt", make_file("p", "x").string(), "--format", "age", "-R",
                              recipients.string(), "-o", sealed.string()});
    ASSERT_EQ(made.exit_code, 0) << describe(made);
    EXPECT_EQ(decrypt(sealed, {pq.file}).out, "x");
}

TEST_F(PqKeys, ASecretGivenAsARecipientIsNotEchoed) {
    const Identity pq = make_pq_identity("pq.id");
    const std::string secret = lines_of(read_file(pq.file))[2];
    const Outcome outcome = run({"encrypt", make_file("p", "x").string(), "-r", secret, "-o",
                                 path("out").string()});
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_EQ(outcome.err.find(secret.substr(19, 20)), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(path("out")));
}

}  // namespace
}  // namespace warp::clitest
