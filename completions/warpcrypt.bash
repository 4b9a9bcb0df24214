# bash completion for warpcrypt. Installed as share/bash-completion/completions/warpcrypt.
# Plain bash (compgen), so it works without the bash-completion package's helpers too.
# tests/cli/completions_check.sh checks it against every `warpcrypt CMD --help`.

# Backend names are listed here rather than asked of `warpcrypt backends`, which would open
# the GPU on a CUDA build: a completion must answer at once. The check keeps this list equal
# to the registry's (`warpcrypt backends --json`), plus `auto` and the family names.
_warpcrypt_backends="auto x86 x86-avx512 x86-vaes x86-aesni x86-avx2 arm arm-crypto arm-sve2 arm-neon cuda scalar"
_warpcrypt_bench_backends="all x86 x86-avx512 x86-vaes x86-aesni x86-avx2 arm arm-crypto arm-sve2 arm-neon cuda scalar"
_warpcrypt_ciphers="auto aes-256-gcm chacha20-poly1305"
_warpcrypt_bench_ciphers="all aes-ecb aes-128-gcm aes-192-gcm aes-256-gcm chacha20-poly1305
    aes-128-ecb aes-192-ecb aes-256-ecb"

_warpcrypt_options() {
    local keys="-k --key-file -p --passphrase --passphrase-file --passphrase-fd"
    local messages="--progress -q --quiet -v --verbose"
    case $1 in
        encrypt) echo "-h --help -o --output -f --force --cipher --kdf-memory --kdf-passes
                       --backend --threads $messages $keys -r --recipient -R --recipients-file
                       --no-pq-warning -j --format -a --armor" ;;
        decrypt) echo "-h --help -o --output -f --force --kdf-max-memory --kdf-max-work --backend
                       --threads --offset --length $messages $keys -i --identity --identity-passphrase-file -j" ;;
        verify) echo "-h --help --kdf-max-memory --kdf-max-work --backend --threads $messages
                      $keys -i --identity --identity-passphrase-file -j" ;;
        rekey) echo "-h --help -o --output -f --force --kdf-max-memory --kdf-max-work $messages
                     $keys -i --identity --identity-passphrase-file -j --add-key --add-recipient --add-recipients-file
                     --add-passphrase --add-passphrase-file --kdf-memory --kdf-passes
                     --remove-slot --no-pq-warning" ;;
        info) echo "-h --help --json" ;;
        keygen) echo "-h --help -o --output -f --force --identity --x25519 -y" ;;
        backends) echo "-h --help --json --size" ;;
        bench) echo "-h --help --backend --cipher --sizes --seconds --json --calibrate" ;;
        *) echo "-h --help --version" ;;
    esac
}

_warpcrypt() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=""
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    # `--cipher=aes`: bash splits at '=' (COMP_WORDBREAKS), so the option is one word back.
    if [[ $cur == "=" ]]; then
        cur=""
    elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi

    # The subcommand: the first word after `warpcrypt` that is not an option (the top level's
    # options take no value).
    local command="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done

    COMPREPLY=()
    case $prev in
        -o | --output | -k | --key-file | --passphrase-file | -y | -R | --recipients-file | \
        -i | --identity | --add-key | --add-recipients-file | --add-passphrase-file)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return ;;
        --backend)
            local names=$_warpcrypt_backends
            [[ $command == bench ]] && names=$_warpcrypt_bench_backends
            mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur")
            return ;;
        --format)
            mapfile -t COMPREPLY < <(compgen -W "warp age" -- "$cur")
            return ;;
        --cipher)
            local names=$_warpcrypt_ciphers
            [[ $command == bench ]] && names=$_warpcrypt_bench_ciphers
            mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur")
            return ;;
        --kdf-memory | --kdf-passes | --kdf-max-memory | --kdf-max-work | --threads | \
        --passphrase-fd | -r | --recipient | --add-recipient | --remove-slot | \
        --offset | --length | --size | --sizes | --seconds)
            return ;;  # a number or a recipient: nothing to offer
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "$(_warpcrypt_options)" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "encrypt decrypt verify info rekey keygen backends bench" \
                                     -- "$cur")
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_warpcrypt_options "$command")" -- "$cur")
        return
    fi
    case $command in
        encrypt | decrypt | verify | info | rekey)  # INPUT
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    esac
}

complete -F _warpcrypt warpcrypt
