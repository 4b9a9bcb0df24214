// Where warpcrypt may choose a plaintext's name itself: `decrypt DIR/NAME.age` without -o writes
// DIR/NAME, which the user will later open as theirs. When someone else can change DIR's
// entries (or those of a folder above it), they can rename or replace NAME after the run, or
// the run before, and what the user opens may be theirs. So decrypt then writes nowhere unless
// -o names the output, as OpenSSH refuses key files in folders others can write (StrictModes).
//
// The rule, for DIR and every folder above it up to /: it belongs to the user or to root, and
// either it is sticky (like /tmp: only a file's owner may rename or remove it), or neither
// others nor a group with another member may write to it. A group-writable folder is accepted
// when its group has members and they are the user and root alone (a user's private group,
// Debian's user-group-modes rule for OpenSSH). Judged on the descriptors (place.hpp): DIR's,
// then "..", one level at a time.
#pragma once

#include "cli/place.hpp"

namespace warp::cli {

// Throws a usage error naming the folder and who can change it, with the hint to use -o.
void refuse_unsafe_directory(const Place& beside_input);

}  // namespace warp::cli
