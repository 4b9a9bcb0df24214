#!/usr/bin/env bash
# Makes the release tarball, dist/warpcrypt-VERSION.tar.gz: a `git archive` of HEAD with every
# path under warpcrypt-VERSION/, VERSION being the one project() declares in CMakeLists.txt.
# It is what the PKGBUILD builds from. It builds on its own (nothing outside it is needed to
# build warpcrypt and its tests); the committed test vectors (tests/vectors) come with
# it, so the PKGBUILD's check() runs the vector suites too.
#
# Usage: scripts/release-tarball.sh [--worktree] [--out DIR]
#   --worktree  archive the working tree as it is (tracked files, and untracked ones git does
#               not ignore) instead of HEAD: to try packaging changes before committing them
#   --out DIR   write the tarball to DIR instead of dist/
# Prints the tarball's path on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

worktree=false
out_dir=dist
while [ $# -gt 0 ]; do
  case $1 in
    --worktree) worktree=true ;;
    --out) out_dir=${2:?--out needs a directory}; shift ;;
    *) echo "usage: $0 [--worktree] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done

version=$(sed -nE 's/^project\(warpcrypt VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' CMakeLists.txt)
if [ -z "$version" ]; then
  echo "warpcrypt: error: no 'project(warpcrypt VERSION x.y.z' line in CMakeLists.txt" >&2
  exit 1
fi
name=warpcrypt-$version
mkdir -p "$out_dir"
tarball=$(realpath "$out_dir")/$name.tar.gz

if ! $worktree; then
  git archive --format=tar.gz --prefix="$name/" -o "$tarball" HEAD
else
  # The same shape as git archive: sorted paths, one owner, the last commit's time, so the
  # same tree gives the same bytes. Files deleted but not yet committed are left out.
  git ls-files -z --cached --others --exclude-standard | sort -z -u |
    while IFS= read -r -d '' path; do [ -e "$path" ] && printf '%s\0' "$path"; done |
    tar --create --null --files-from=- --sort=name --owner=0 --group=0 --numeric-owner \
        --mtime="@$(git log -1 --format=%ct)" --transform="s,^,$name/," |
    gzip -n >"$tarball"
fi
echo "$tarball"
