// An output that appears complete or not at all, only where the user meant it, and readable by
// no one else while it fills.
//
// Every step goes through the directory descriptor of the output's place (place.hpp), resolved
// once before anything is created, and never through the path again: the new file, what has
// the target's name, linkat and renameat2, the directory's fsync, the clean-up.
//
// A new file (the target does not exist, or --force replaces a regular file) is written where
// no other name points at it, and linked into place by commit() after fsync:
// - an unnamed file (openat(dir, ".", O_TMPFILE)) in the target's directory, given its name by
//   linkat(2) only then: nothing is left behind even after SIGKILL or a power loss. Used
//   wherever the file system supports it (ext4, XFS, btrfs, tmpfs, ...) and /proc is mounted;
// - elsewhere (NFS, most FUSE file systems, old kernels), a hidden temporary file beside the
//   target, `.NAME.warpcrypt-XXXXXX`, removed by the destructor and by the signal handler
//   (interrupt.cpp), and left behind only by SIGKILL or a crash.
// Either is mode 0600 while it fills, so another user cannot read the plaintext. The mode the
// user expects (0666 & ~umask; 0600 for a key; never wider than the file --force replaces) is
// set just before the file gets its name. An existing target is untouched until then.
//
// Written in place instead: stdout ("-") and the descriptors /dev/stdout, /dev/stderr,
// /dev/fd/N and /proc/self/fd/N name (paths.hpp, named_descriptor), and an existing FIFO or
// device the user named with -o that belongs to them or to root (check_in_place_target),
// opened with O_NOFOLLOW and O_NONBLOCK (a FIFO nobody reads is an error, not a hang) and
// judged by fstat on what was opened, not by what was looked at before.
//
// A symbolic link named as the output was followed to the file it leads to when the place was
// resolved (links of the user's own or root's only), and that file is the target: a link is
// never replaced by a regular file.
#pragma once

#include <sys/types.h>

#include <string>

#include "cli/fd_io.hpp"
#include "cli/paths.hpp"

namespace warp::cli {

enum class OutputMethod {
    standard_output,  // "-"
    in_place,         // an existing FIFO or device
    unnamed_file,     // O_TMPFILE, linked into place
    named_temporary,  // a hidden temporary file, renamed into place
};

// WARPCRYPT_TEMPORARY_FILE=named makes new files use the hidden temporary file even where
// O_TMPFILE works: for a file system that claims O_TMPFILE support and then fails, and for
// the tests of that path.
inline constexpr const char* kTemporaryFileEnv = "WARPCRYPT_TEMPORARY_FILE";

class OutputFile {
public:
    // check_output (paths.hpp) must have run before, with the same target and checks: this
    // creates files. --force (checks.force) lets commit() replace a file that exists under the
    // target's name; a target that `replaces` a file (rekey in place) is replaced only while
    // that file still has the name.
    OutputFile(OutputTarget target, const OutputChecks& checks);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    ByteSink& sink() noexcept { return sink_; }
    const std::string& name() const noexcept { return target_.shown; }  // as given, for messages
    OutputMethod method() const noexcept { return method_; }

    // A new file that replaces `original` (rekey in place) gets its owner, group, extended
    // attributes (its ACL) now, and its mode at commit(): whoever could read the file still
    // can, and nobody else. Throws Error(usage) when that is not allowed
    // (copy_ownership_and_attributes); nothing has a name yet, so the original is untouched.
    void keep_access_of(int original, const std::string& original_name);

    // Flushes, syncs, sets the final mode and gives the file its name. Throws Error(io), or
    // Error(usage) when the target appeared meanwhile and --force was not given, or when the
    // file rekey replaces is no longer there under its name.
    void commit();

    // What the constructor opened (output_file.cpp).
    struct Opened {
        int fd = -1;
        OutputMethod method = OutputMethod::standard_output;
        std::string temporary;  // named_temporary only: its name in the target's directory
        mode_t final_mode = 0600;
    };

private:
    OutputFile(OutputTarget&& target, const OutputChecks& checks, Opened opened);
    void remove_temporary() noexcept;
    void link_unnamed_file();
    void move_into_place();
    int directory() const { return target_.place->directory(); }

    OutputTarget target_;    // where it goes; target_.place for a file
    std::string temporary_;  // the named temporary file's name, while it exists
    OutputMethod method_;
    bool replace_;           // --force
    mode_t final_mode_;
    int fd_;
    bool owns_fd_;
    bool committed_ = false;
    FdSink sink_;
};

}  // namespace warp::cli
