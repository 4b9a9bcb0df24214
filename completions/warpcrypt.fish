# fish completion for warpcrypt. Installed as share/fish/vendor_completions.d/warpcrypt.fish.
# tests/cli/completions_check.sh checks it against every `warpcrypt CMD --help`.

# Backend names are listed here rather than asked of `warpcrypt backends`, which would open
# the GPU on a CUDA build: a completion must answer at once. The check keeps this list equal
# to the registry's (`warpcrypt backends --json`), plus `auto` and the family names.
set -l backends x86 x86-avx512 x86-vaes x86-aesni x86-avx2 arm arm-crypto arm-sve2 arm-neon cuda scalar
set -l commands encrypt decrypt verify info rekey keygen backends bench

# No file names unless an option or a command's INPUT asks for them.
complete -c warpcrypt -f

# The top level: the commands, --version, and --help everywhere.
set -l top "not __fish_seen_subcommand_from $commands"
complete -c warpcrypt -n $top -a encrypt -d 'Encrypt a file (or stdin) to a .warp file'
complete -c warpcrypt -n $top -a decrypt -d 'Decrypt a .warp file (or stdin)'
complete -c warpcrypt -n $top -a verify -d 'Check that a .warp file is intact and opens'
complete -c warpcrypt -n $top -a info -d "Show a .warp file's header (no key needed)"
complete -c warpcrypt -n $top -a rekey -d 'Add or remove key slots without re-encrypting'
complete -c warpcrypt -n $top -a keygen -d 'Create a key file or an age identity'
complete -c warpcrypt -n $top -a backends -d 'List the backends and what auto picks'
complete -c warpcrypt -n $top -a bench -d 'Measure the throughput of each backend'
complete -c warpcrypt -n $top -l version -d 'Print the version and build features'
complete -c warpcrypt -s h -l help -d 'Print the help and exit'

# INPUT: a file, or - for stdin.
complete -c warpcrypt -n "__fish_seen_subcommand_from encrypt decrypt verify info rekey" -F

# -o/--output and -f/--force (keygen has its own words for them, below).
set -l writers "__fish_seen_subcommand_from encrypt decrypt"
complete -c warpcrypt -n $writers -s o -l output -r -F -d 'Output file; - for stdout'
complete -c warpcrypt -n $writers -s f -l force -d 'Overwrite an existing output file'

# Keys and messages: encrypt, decrypt, verify, rekey; backend and threads: not rekey.
set -l keyed "__fish_seen_subcommand_from encrypt decrypt verify rekey"
set -l openers "__fish_seen_subcommand_from encrypt decrypt verify"
complete -c warpcrypt -n $keyed -s k -l key-file -r -F -d 'Key file (from warpcrypt keygen); repeatable'
complete -c warpcrypt -n $keyed -s p -l passphrase -d 'Ask for a passphrase on the terminal'
complete -c warpcrypt -n $keyed -l passphrase-file -r -F -d 'Read the passphrase from the first line of PATH'
complete -c warpcrypt -n $keyed -l passphrase-fd -x -d 'Read the passphrase from the first line of descriptor N'
complete -c warpcrypt -n $openers -l backend -x -a "auto $backends" -d 'Backend: auto or a name from warpcrypt backends'
complete -c warpcrypt -n $openers -l threads -x -d 'Threads that seal or open chunks'
complete -c warpcrypt -n $keyed -l progress -d 'Always show the progress bar'
complete -c warpcrypt -n $keyed -s q -l quiet -d 'Print nothing but errors'
complete -c warpcrypt -n $keyed -s v -l verbose -d 'Say what is done (backend, key slot)'

set -l encrypt "__fish_seen_subcommand_from encrypt"
complete -c warpcrypt -n $encrypt -s r -l recipient -x -d 'Encrypt to an age recipient (age1pq1... or age1...); repeatable'
complete -c warpcrypt -n "__fish_seen_subcommand_from encrypt rekey" -l no-pq-warning -d 'No warning for classic X25519 recipients'
complete -c warpcrypt -n $encrypt -s R -l recipients-file -r -F -d 'Encrypt to the recipients in PATH (- for stdin); repeatable'
complete -c warpcrypt -n "__fish_seen_subcommand_from decrypt verify rekey" -s i -l identity -r -F -d 'Identity file (warpcrypt keygen --identity or age-keygen); repeatable'
complete -c warpcrypt -n "__fish_seen_subcommand_from decrypt verify rekey" -l identity-passphrase-file -r -F -d 'The passphrase of passphrase-protected identity files'
complete -c warpcrypt -n "__fish_seen_subcommand_from decrypt verify rekey" -s j -x -d "Open with the age plugin NAME's default identity"
complete -c warpcrypt -n $encrypt -s j -x -d "Encrypt to the age plugin NAME's default identity"

set -l rekey "__fish_seen_subcommand_from rekey"
complete -c warpcrypt -n $rekey -s o -l output -r -F -d 'Write the rekeyed file here instead of replacing INPUT'
complete -c warpcrypt -n $rekey -s f -l force -d 'Overwrite an existing output file (with -o)'
complete -c warpcrypt -n $rekey -l add-key -r -F -d 'Add a slot for this key file; repeatable'
complete -c warpcrypt -n $rekey -l add-recipient -x -d 'Add a slot for this age recipient (age1pq1... or age1...); repeatable'
complete -c warpcrypt -n $rekey -l add-recipients-file -r -F -d 'Add a slot for each recipient in PATH; repeatable'
complete -c warpcrypt -n $rekey -l add-passphrase -d 'Add a passphrase slot, asking on the terminal'
complete -c warpcrypt -n $rekey -l add-passphrase-file -r -F -d 'Add a passphrase slot with the first line of PATH'
complete -c warpcrypt -n $rekey -l remove-slot -x -d 'Remove key slot N, as warpcrypt info numbers them; repeatable'
complete -c warpcrypt -n $rekey -l kdf-memory -x -d 'New passphrase KDF memory in MiB (default 256)'
complete -c warpcrypt -n $rekey -l kdf-passes -x -d 'New passphrase KDF passes (default 3)'

complete -c warpcrypt -n $encrypt -l cipher -x -a 'auto aes-256-gcm chacha20-poly1305' -d Cipher
complete -c warpcrypt -n $encrypt -l format -x -a 'warp age' -d 'File format: warp (default) or age'
complete -c warpcrypt -n $encrypt -s a -l armor -d "With --format age: write age's ASCII armor"
complete -c warpcrypt -n $encrypt -l kdf-memory -x -d 'Passphrase KDF memory in MiB (default 256)'
complete -c warpcrypt -n $encrypt -l kdf-passes -x -d 'Passphrase KDF passes (default 3)'

set -l readers "__fish_seen_subcommand_from decrypt verify rekey"
complete -c warpcrypt -n $readers -l kdf-max-memory -x -d 'Refuse passphrase slots asking for more KDF memory, in MiB'
complete -c warpcrypt -n $readers -l kdf-max-work -x -d 'Refuse passphrase KDF work over MiB x passes, summed (default 3072)'
complete -c warpcrypt -n "__fish_seen_subcommand_from decrypt" -l offset -x -d 'Decrypt from this plaintext byte (seekable input)'
complete -c warpcrypt -n "__fish_seen_subcommand_from decrypt" -l length -x -d 'Decrypt this many plaintext bytes (seekable input)'

set -l keygen "__fish_seen_subcommand_from keygen"
complete -c warpcrypt -n $keygen -s o -l output -r -F -d 'File to create (mode 0600); - for stdout'
complete -c warpcrypt -n $keygen -s f -l force -d 'Overwrite an existing file'
complete -c warpcrypt -n $keygen -l identity -d 'Create an age identity file (post-quantum) instead of a key file'
complete -c warpcrypt -n $keygen -l x25519 -d 'With --identity: a classic X25519 identity, not post-quantum'
complete -c warpcrypt -n $keygen -s y -r -F -d 'Print the recipients of the identities in a file'

complete -c warpcrypt -n "__fish_seen_subcommand_from info backends bench" -l json -d 'Print JSON'
complete -c warpcrypt -n "__fish_seen_subcommand_from backends" -l size -x -d "Message size for auto's choice (default 1MiB)"

set -l bench "__fish_seen_subcommand_from bench"
complete -c warpcrypt -n $bench -l backend -x -a "all $backends" -d 'Backends to measure, comma-separated'
complete -c warpcrypt -n $bench -l cipher -x -a 'all aes-ecb aes-128-gcm aes-192-gcm aes-256-gcm chacha20-poly1305 aes-128-ecb aes-192-ecb aes-256-ecb' -d 'Ciphers to measure, comma-separated'
complete -c warpcrypt -n $bench -l sizes -x -d 'Message sizes, comma-separated (16 to 1G, K/M suffixes)'
complete -c warpcrypt -n $bench -l seconds -x -d 'Measured CPU time per cell (default 0.2)'
complete -c warpcrypt -n $bench -l calibrate -d 'Measure this machine for the cost model of auto'
