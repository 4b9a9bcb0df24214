#!/usr/bin/env bash
# CI step: builds the Arch Linux package as an Arch user would, with makepkg from the release
# tarball, and checks what it contains.
#   1. scripts/deps.sh package: makepkg, pacman, bsdtar, fakeroot, zstd, and the shells and
#      man-page linters that check() uses, from Debian's packages.
#   2. scripts/release-tarball.sh: dist/warpcrypt-VERSION.tar.gz (HEAD, or --worktree).
#   3. A scratch directory owned by an unprivileged user (makepkg refuses to run as root; CI
#      runs as root, so the user warpcrypt-build is created if missing), holding the tarball
#      and a copy of PKGBUILD with the tarball's real sha256 written in (updpkgsums' job).
#   4. makepkg --nodeps: on Debian, pacman knows no installed package, so the PKGBUILD's
#      depends cannot be checked or installed by makepkg; step 1 installed their Debian
#      equivalents. makepkg verifies the checksum, runs build(), check() (the "cli" tests) and
#      package(), and compresses as on Arch (PKGEXT=.pkg.tar.zst; Debian's makepkg.conf says
#      .pkg.tar.gz). Builds use 2 jobs (CMAKE_BUILD_PARALLEL_LEVEL) unless set otherwise.
#   5. The package's file list (bsdtar -tf) must equal packaging/expected-files.txt, and the
#      packaged binary, extracted, must run: --version, and a key-file round trip.
# The package and makepkg's log are kept in build/package/.
#
# Usage: scripts/test-package.sh [--worktree]
#   --worktree  package the working tree as it is rather than HEAD (to try uncommitted changes)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

tarball_args=()
case ${1:-} in
  --worktree) tarball_args+=(--worktree) ;;
  "") ;;
  *) echo "usage: $0 [--worktree]" >&2; exit 2 ;;
esac

started=$SECONDS
step() { echo "warpcrypt: package: $* ($((SECONDS - started)) s)"; }
die() { echo "warpcrypt: package: error: $*" >&2; exit 1; }

step "dependencies"
scripts/deps.sh package

out=$repo/build/package
rm -rf "$out"
mkdir -p "$out"
tarball=$(scripts/release-tarball.sh "${tarball_args[@]}" --out "$out")
version=$(basename "$tarball" .tar.gz)
version=${version#warpcrypt-}
pkgver=$(sed -nE 's/^pkgver=([^ #]+).*/\1/p' PKGBUILD)
[ "$pkgver" = "$version" ] ||
  die "PKGBUILD says pkgver=$pkgver but CMakeLists.txt's project() says $version"
step "tarball $(basename "$tarball"), $(du -k "$tarball" | cut -f1) KiB"

# makepkg runs as an unprivileged user: this one when it is not root, else warpcrypt-build.
run_as=()
if [ "$(id -u)" -eq 0 ]; then
  user=warpcrypt-build
  id -u "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
  run_as=(runuser -u "$user" --)
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/warpcrypt-package.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp "$tarball" "$scratch/"
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
sed -E "s/^sha256sums=.*/sha256sums=('$sum')/" PKGBUILD >"$scratch/PKGBUILD"
grep -qx "sha256sums=('$sum')" "$scratch/PKGBUILD" || die "no sha256sums= line in PKGBUILD"
[ ${#run_as[@]} -eq 0 ] || chown -R "$user": "$scratch"

step "makepkg (build, check, package)"
set +e
(cd "$scratch" && "${run_as[@]}" env PKGEXT=.pkg.tar.zst \
   CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
   makepkg --nodeps --noconfirm --cleanbuild) >"$out/makepkg.log" 2>&1
status=$?
set -e
if [ $status -ne 0 ]; then
  tail -n 60 "$out/makepkg.log" >&2
  die "makepkg failed (exit $status); the whole log is $out/makepkg.log"
fi
grep -E '^(==>|[0-9]+% tests passed|Total Test time)' "$out/makepkg.log" || true

package=$(find "$scratch" -maxdepth 1 -name "warpcrypt-$version-*.pkg.tar.zst" | head -n 1)
[ -n "$package" ] || die "makepkg made no warpcrypt-$version-*.pkg.tar.zst"
cp "$package" "$out/"
package=$out/$(basename "$package")
step "package $(basename "$package"), $(du -k "$package" | cut -f1) KiB"

# The file list: exactly the expected one (comments and blank lines aside).
bsdtar -tf "$package" | sort >"$out/files.txt"
if ! diff -u <(grep -vE '^(#|$)' packaging/expected-files.txt | sort) "$out/files.txt"; then
  die "the package's files (+) differ from packaging/expected-files.txt (-)"
fi
step "file list matches packaging/expected-files.txt ($(wc -l <"$out/files.txt") entries)"

# What the package installs works where it lands.
root=$scratch/root
mkdir -p "$root"
bsdtar -xf "$package" -C "$root"
"$root/usr/bin/warpcrypt" --version | head -n 2
key=$scratch/key
"$root/usr/bin/warpcrypt" keygen -o "$key"
head -c 1000000 /dev/urandom >"$scratch/plain"
"$root/usr/bin/warpcrypt" encrypt -k "$key" <"$scratch/plain" |
  "$root/usr/bin/warpcrypt" decrypt -k "$key" | cmp - "$scratch/plain" ||
  die "the packaged binary's round trip failed"
warnings=$(zcat "$root/usr/share/man/man1/warpcrypt.1.gz" | groff -man -Tutf8 -ww -z 2>&1)
[ -z "$warnings" ] || die "the packaged man page: $warnings"
step "OK: the packaged warpcrypt round-trips 1 MB and its man page renders"
