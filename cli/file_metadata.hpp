// Who may read a file, carried over to the file that replaces it (rekey in place): its owner
// and group, and its extended attributes, the POSIX ACL (system.posix_acl_access) and user.*
// among them. The mode is the caller's to set last (OutputFile::commit), since setting an ACL
// rewrites the group bits.
#pragma once

#include <sys/types.h>

#include <string>

namespace warp::cli {

// Gives the file open at `to` the owner, group and extended attributes of the file open at
// `from` (`name`, for messages), and removes the attributes `to` has that `from` does not (a
// default ACL its directory gave it). Throws a usage error with a hint, and changes nothing it
// could not, when that is not allowed: another owner (only root can give a file away), a group
// the caller is not in, an attribute the caller may not set. A security.* attribute (an
// SELinux label, which the kernel sets by its own policy) that cannot be copied is not an
// error: a warning names it.
void copy_ownership_and_attributes(int from, int to, const std::string& name);

}  // namespace warp::cli
