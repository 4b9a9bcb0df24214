# shellcheck shell=bash
# What `warpcrypt --help` and `warpcrypt CMD --help` list, one word a line: the truth that
# the man page and the shell completions are checked against (man_page_check.sh,
# completions_check.sh). Sourced, not run. CLI11 indents every option line by two spaces:
#   "  -k,--key-file PATH ...      Key file ..."  ->  -k  --key-file

# The subcommands, from the "Subcommands:" section of the top-level help.
help_commands() {
    "$1" --help | awk '/^Subcommands:/ { inside = 1; next }
                       inside && /^  [a-z]/ { print $1; next }
                       inside && !/^ / { inside = 0 }'
}

# The options of one subcommand (or of the top level without CMD): short and long names.
help_options() {
    local bin=$1
    shift
    "$bin" "$@" --help | awk '/^  -[^ ]/ { n = split($1, names, ","); for (i = 1; i <= n; i++) print names[i] }'
}

# Whether a subcommand takes the INPUT positional.
help_takes_input() {
    local text
    text=$("$1" "$2" --help) || return 2
    [[ $'\n'$text == *$'\n  INPUT '* ]]
}
