// An output that appears complete or not at all.
//
// A file target is written to a temporary file in the target's directory (so the final rename
// stays on one file system) and renamed over the target by commit(), after fsync. If commit()
// is never reached (an error, an exception) the destructor unlinks the temporary file; on
// SIGINT/SIGTERM the handler in interrupt.cpp does. An existing target is untouched until the
// rename. Two exceptions, written in place: stdout ("-") and an existing non-regular file
// such as /dev/null or a FIFO, which cannot be replaced by rename.
#pragma once

#include <string>

#include "cli/fd_io.hpp"

namespace warp::cli {

enum class FileMode {
    normal,  // 0666 & ~umask, like any file a tool creates
    secret,  // 0600: key files
};

// Whether commit() may replace a file that exists under the target's name. check_output
// (paths.hpp) refuses an existing target without --force, but another run can create one
// while this one works; `refuse` makes the final rename fail then (exit 2, as the check would)
// instead of silently replacing that run's output.
enum class Overwrite { refuse, allow };

class OutputFile {
public:
    // Checks (paths.hpp) must have run before: this creates files.
    OutputFile(const std::string& path, FileMode mode, Overwrite overwrite);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    ByteSink& sink() noexcept { return sink_; }
    const std::string& name() const noexcept { return name_; }
    bool is_stdout() const noexcept { return fd_ == 1; }

    // Flushes, syncs and renames the temporary file over the target. Throws Error(io), or
    // Error(usage) when the target appeared meanwhile and overwriting is refused.
    void commit();

private:
    void remove_temporary() noexcept;

    std::string name_;        // the target, for messages
    std::string temporary_;   // empty when written in place
    Overwrite overwrite_;
    int fd_ = -1;
    bool committed_ = false;
    FdSink sink_;
};

}  // namespace warp::cli
