#!/usr/bin/env bash
# Checks one shell's completion of warpcrypt (completions/) against the binary itself, so the
# two cannot drift apart:
#   - the file passes the shell's own syntax check;
#   - the commands offered after `warpcrypt ` are exactly those `warpcrypt --help` lists;
#   - the options offered for each command (and at the top level) are exactly those its
#     `--help` lists, short and long;
#   - --backend offers exactly the registry's backends (`warpcrypt backends --json`), their
#     families and `auto` (bench: `all`); every --cipher value offered is one the binary
#     accepts (encrypt: every cipher its --help names, and `auto`);
#   - file names are offered for INPUT exactly where a command takes one, and after -o.
# bash and fish are asked what they complete, as a user's shell would be; zsh's completion
# functions are run with _arguments and _describe replaced by stubs that print the specs
# they are given (driving zsh's completion system itself needs a terminal).
#
# Usage: completions_check.sh bash|zsh|fish WARPCRYPT_BINARY COMPLETIONS_DIR
set -euo pipefail

shell=$1
bin=$(realpath "$2")
dir=$(realpath "$3")
# shellcheck source=tests/cli/help_words.sh
source "$(dirname "$0")/help_words.sh"

case $shell in
    bash) file=$dir/warpcrypt.bash ;;
    zsh) file=$dir/_warpcrypt ;;
    fish) file=$dir/warpcrypt.fish ;;
    *) echo "usage: $0 bash|zsh|fish WARPCRYPT_BINARY COMPLETIONS_DIR" >&2; exit 2 ;;
esac

failures=0
fail() {
    echo "FAIL ($shell): $*" >&2
    failures=$((failures + 1))
}

# File names are offered in a scratch directory holding one known file.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
touch "$scratch/probe-file.txt"
cd "$scratch"

# --- asking each shell --------------------------------------------------------------------

# bash and fish: the candidates for the last of WORDS on the line `warpcrypt WORDS...`.
offered() {
    case $shell in
        bash)
            bash --norc --noprofile -c '
                source "$1"; shift
                COMP_WORDS=(warpcrypt "$@"); COMP_CWORD=$#
                _warpcrypt
                printf "%s\n" "${COMPREPLY[@]}"' _ "$file" "$@" ;;
        fish)
            local line=warpcrypt word
            for word in "$@"; do line+=" $word"; done
            fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$file" "$line" | cut -f1 ;;
    esac
}

# zsh: the specs that the completion function for COMMAND (or the top level) hands to
# _arguments, one a line (brace expansion already done by zsh).
zsh_specs() {
    zsh -f -c '
        compdef() { : }
        _arguments() { printf "%s\n" "$@" }
        source "$1"
        if [[ -n $2 ]]; then _warpcrypt_$2; else _warpcrypt; fi' _ "$file" "${1:-}"
}

# The option names in zsh specs: "(-o --output)-o+[...]:..." -> -o. Only specs with a
# description ("[") are options; _arguments' own flags (-s, -S, -C) have none.
zsh_option_names() {
    grep -F '[' | sed -E 's/^\([^)]*\)//; s/^\*//' | grep -oE '^--?[A-Za-z0-9][A-Za-z0-9-]*' || true
}

# What a shell offers, whatever the shell.
options_of() {  # COMMAND, or nothing for the top level
    if [[ $shell == zsh ]]; then
        zsh_specs "${1:-}" | zsh_option_names
    else
        offered ${1:+"$1"} - | grep -E '^-' || true
    fi
}

commands_offered() {
    if [[ $shell == zsh ]]; then
        # _describe gets the name of an array of "name:description"; _arguments -C would set
        # $state (a local of _warpcrypt) to "command" for the first word.
        zsh -f -c '
            compdef() { : }
            _arguments() { state=command }
            _describe() { local name=${@[-1]}; printf "%s\n" ${(P)name} }
            source "$1"
            _warpcrypt' _ "$file" | cut -d: -f1
    else
        offered "" | grep -vE '^-' || true
    fi
}

values_of() {  # COMMAND OPTION
    if [[ $shell == zsh ]]; then
        # "--backend=[...]:backend:(auto x86 ...)" or ":backend:_values -s , backend all x86 ..."
        local action
        action=$(zsh_specs "$1" | grep -E "^(\([^)]*\))?$2=" | sed -E 's/^[^]]*\]:[^:]*://')
        case $action in
            \(*\)) action=${action#(}; printf '%s\n' ${action%)} ;;
            _values*) printf '%s\n' $action | tail -n +5 ;;  # after "_values -s , NAME"
        esac
    else
        offered "$1" "$2" ""
    fi
}

offers_files() {  # COMMAND [OPTION]: whether file names are offered for INPUT or the option
    if [[ $shell == zsh ]]; then
        local pattern='^1::.*:_files$'
        [[ $# -eq 2 ]] && pattern="^(\([^)]*\))?$2[+=]?\[.*:_files$"
        zsh_specs "$1" | grep -qE "$pattern"
    else
        offered "$@" "" | grep -qx probe-file.txt
    fi
}

# --- the checks ---------------------------------------------------------------------------

same_set() {  # WHAT EXPECTED ACTUAL (newline-separated words)
    local missing extra
    missing=$(comm -23 <(sort -u <<<"$2") <(sort -u <<<"$3") | tr '\n' ' ')
    extra=$(comm -13 <(sort -u <<<"$2") <(sort -u <<<"$3") | tr '\n' ' ')
    [[ -z $missing ]] || fail "$1: missing $missing"
    [[ -z $extra ]] || fail "$1: offers what --help does not list: $extra"
}

case $shell in
    bash) bash -n "$file" ;;
    zsh) zsh -n "$file" ;;
    fish) fish --no-execute "$file" ;;
esac || fail "syntax check of $file"

commands=$(help_commands "$bin")
[[ -n $commands ]] || fail "no commands parsed from warpcrypt --help"
same_set "commands" "$commands" "$(commands_offered)"
same_set "top-level options" "$(help_options "$bin")" "$(options_of)"

for command in $commands; do
    same_set "$command options" "$(help_options "$bin" "$command")" "$(options_of "$command")"
    if help_takes_input "$bin" "$command"; then
        offers_files "$command" || fail "$command: no file names offered for INPUT"
    elif [[ $shell != zsh ]]; then  # zsh: the spec list shows it; bash, fish: nothing offered
        ! offers_files "$command" || fail "$command takes no INPUT but file names are offered"
    fi
    if help_options "$bin" "$command" | grep -qx -- --output; then
        offers_files "$command" --output || fail "$command --output: no file names offered"
    fi
done

# Backends: the registry's names, their families (the part before '-') and auto / all.
names=$("$bin" backends --json | grep -oE '"name": *"[^"]+"' | sed -E 's/.*"([^"]+)"$/\1/')
[[ -n $names ]] || fail "no backend names parsed from warpcrypt backends --json"
families=$(grep -F -- - <<<"$names" | cut -d- -f1 | sort -u)
for command in encrypt decrypt verify; do
    same_set "$command --backend values" "$(printf '%s\n' auto $names $families)" \
        "$(values_of "$command" --backend)"
done
same_set "bench --backend values" "$(printf '%s\n' all $names $families)" \
    "$(values_of bench --backend)"

# Ciphers: everything encrypt's --help names is offered, and every value offered works.
key="$scratch/check.key"
"$bin" keygen -o "$key" >/dev/null
named=$("$bin" encrypt --help | grep -E '^  --cipher ' | grep -oE '[a-z0-9]+(-[a-z0-9]+)+' | sort -u)
# `auto` (the default: the engine picks by hardware) is a value too, but not a cipher to measure.
choices=$named
"$bin" encrypt --help | grep -E '^  --cipher ' | grep -qw auto && choices=$(printf 'auto\n%s' "$named")
same_set "encrypt --cipher values" "$choices" "$(values_of encrypt --cipher)"
for cipher in $(values_of encrypt --cipher); do
    "$bin" encrypt --cipher "$cipher" -k "$key" </dev/null >/dev/null ||
        fail "encrypt --cipher $cipher (offered) is refused"
done
bench_ciphers=$(values_of bench --cipher)
grep -qx all <<<"$bench_ciphers" || fail "bench --cipher: all is not offered"
for cipher in $named; do
    grep -qx -- "$cipher" <<<"$bench_ciphers" || fail "bench --cipher: $cipher is not offered"
done
for cipher in $bench_ciphers; do
    "$bin" bench --backend scalar --cipher "$cipher" --sizes 16 --seconds 0.001 >/dev/null ||
        fail "bench --cipher $cipher (offered) is refused"
done

if ((failures > 0)); then
    echo "$shell completion: $failures failure(s)" >&2
    exit 1
fi
echo "$shell completion: $(wc -w <<<"$commands") commands, their options, backends and ciphers match warpcrypt --help"
