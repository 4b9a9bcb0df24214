#!/usr/bin/env bash
# Checks the man page (docs/man/warpcrypt.1) against the binary and the sources:
#   lint groff|mandoc   the formatter renders it without a single warning;
#   content             every command of `warpcrypt --help` has a subsection under COMMANDS
#                       naming each option of its `--help`; every long option the page names
#                       exists; the version in .TH is the binary's; every exit code of the
#                       --help footer is under EXIT STATUS; every WARPCRYPT_* variable the
#                       sources read is under ENVIRONMENT.
# Usage: man_page_check.sh lint groff|mandoc MAN_PAGE
#        man_page_check.sh content WARPCRYPT_BINARY MAN_PAGE SOURCE_DIR
set -euo pipefail

if [[ $1 == lint ]]; then
    page=$2
    case $2 in
        groff) page=$3; messages=$(groff -man -Tutf8 -ww -z "$page" 2>&1) ;;
        mandoc) page=$3; messages=$(mandoc -Tlint -W style "$page" 2>&1) || true ;;
        *) echo "usage: $0 lint groff|mandoc MAN_PAGE" >&2; exit 2 ;;
    esac
    if [[ -n $messages ]]; then
        printf '%s\n' "$messages" >&2
        echo "FAIL: $2 warns about $page" >&2
        exit 1
    fi
    echo "$2: $page renders without warnings"
    exit 0
fi

[[ $1 == content ]] || { echo "usage: see the top of $0" >&2; exit 2; }
bin=$2
page=$3
sources=$4
# shellcheck source=tests/cli/help_words.sh
source "$(dirname "$0")/help_words.sh"

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# The page as words: "\-" is a hyphen, "\fB" and friends change fonts, "\e" is a backslash.
text=$(sed -E 's/\\-/-/g; s/\\f[BIRP]//g; s/\\f\[[A-Z]*\]//g; s/\\e/\\/g' "$page")

# The lines of a section (.SH NAME) or of a subsection (.SS NAME) up to the next one.
section() {  # .SH|.SS NAME
    awk -v request="$1" -v name="$2" '
        $1 == ".SH" || ($1 == ".SS" && request == ".SS") {
            line = $0; sub(/^\.S[HS] +/, "", line); gsub(/"/, "", line)
            inside = ($1 == request && line == name); next
        }
        inside' <<<"$text"
}

# Whether WORD appears as a whole word (an option: not inside a longer option or word).
mentions() {  # TEXT WORD
    grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" <<<"$1"
}

commands=$(help_commands "$bin")
all_options=$(help_options "$bin")
commands_section=$(section .SH COMMANDS)
for command in $commands; do
    block=$(awk -v name="$command" '$1 == ".SS" { inside = ($2 == name); next } inside' \
        <<<"$commands_section")
    if [[ -z $block ]]; then
        fail "no '.SS $command' under COMMANDS"
        continue
    fi
    for option in $(help_options "$bin" "$command"); do
        all_options+=$'\n'$option
        mentions "$block" "$option" || fail "COMMANDS/$command does not mention $option"
    done
done
for option in $(help_options "$bin"); do
    mentions "$text" "$option" || fail "the page does not mention $option"
done

# Long options the page names but no --help lists (removed or misspelt).
for option in $(grep -oE -- '(^|[^A-Za-z0-9-])--[a-z][a-z0-9-]*' <<<"$text" | grep -oE -- '--[a-z0-9-]+' | sort -u); do
    grep -qx -- "$option" <<<"$all_options" || fail "the page names $option, which no --help lists"
done

version=$("$bin" --version | head -n 1 | awk '{ print $2 }')
grep -qE "^\.TH WARPCRYPT 1 [0-9-]+ \"warpcrypt $version\"" "$page" ||
    fail ".TH does not say \"warpcrypt $version\" (warpcrypt --version)"

exit_status=$(section .SH "EXIT STATUS")
for code in $("$bin" --help | grep -oE '[0-9]+ [a-z]' | awk '{ print $1 }'); do
    grep -qx "\.B $code" <<<"$exit_status" || fail "EXIT STATUS does not list $code"
done

environment=$(section .SH ENVIRONMENT)
for variable in $(grep -rhoE '"WARPCRYPT_[A-Z0-9_]+"' "$sources/cli" "$sources/engine" \
                      "$sources/formats" --include='*.cpp' --include='*.hpp' | tr -d '"' | sort -u); do
    grep -qx "\.B $variable" <<<"$environment" || fail "ENVIRONMENT does not list $variable"
done

if ((failures > 0)); then
    echo "man page: $failures failure(s)" >&2
    exit 1
fi
echo "man page: $(wc -w <<<"$commands") commands and their options, exit codes and environment match"
