// `warpcrypt rekey`: open a warp or age file with any key it accepts, add and remove key slots
// or stanzas, and write the new header before the payload bytes, unchanged (formats::rekey).
// The result replaces the file atomically, or goes to -o.
#include <fcntl.h>
#include <sys/stat.h>

#include <memory>
#include <utility>

#include "cli/commands/common.hpp"
#include "cli/commands/opening.hpp"
#include "cli/fd_io.hpp"
#include "cli/keys.hpp"
#include "cli/output_file.hpp"
#include "cli/paths.hpp"
#include "cli/place.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

struct RekeyArgs {
    std::string input;
    std::optional<std::string> output;
    bool force = false;
    OpenArgs open;
    KeyOptions add;  // the new slots: --add-key, --add-recipient(s-file), --add-passphrase(-file)
    NewPassphraseKdf kdf;
    std::vector<unsigned> remove;  // --remove-slot, numbered from 1 as info numbers them
    Verbosity verbosity;
};

bool adds_anything(const KeyOptions& add) {
    return !add.key_files.empty() || !add.recipients.empty() || !add.recipients_files.empty() ||
           add.prompt || !add.passphrase_file.empty();
}

std::string numbers_text(const std::vector<unsigned>& numbers) {
    std::string text;
    for (unsigned n : numbers) text += (text.empty() ? "" : ", ") + std::to_string(n);
    return text;
}

void run(const RekeyArgs& args) {
    args.verbosity.check();
    if (!adds_anything(args.add) && args.remove.empty())
        usage_error("nothing to change: rekey adds or removes key slots (age files: stanzas)",
                    "give --add-key, --add-recipient, --add-recipients-file, --add-passphrase "
                    "or --remove-slot N (as `warpcrypt info` numbers the slots or stanzas)");
    if (args.kdf.given() && !args.add.prompt && args.add.passphrase_file.empty())
        usage_error("--kdf-memory and --kdf-passes apply to a new passphrase, and none is added",
                    "drop them, or add --add-passphrase / --add-passphrase-file");
    const bool in_place = !args.output.has_value();
    if (in_place && is_stdio(args.input))
        usage_error("rekey of stdin needs -o: there is no file to replace",
                    "name the file, or give -o");
    BackendRequest backend = check_open_args(args.open, is_stdio(args.input));
    if (adds_anything(args.add)) check_key_options(args.add, KeyPurpose::encrypt, is_stdio(args.input));

    // In place, the file's directory is resolved once: the input is opened in it, and the new
    // file takes the old one's name there only once it is complete (rename), so an interrupted
    // rekey leaves the original as it was.
    std::optional<Place> own;
    if (in_place) {
        own.emplace(Place::resolve(args.input, Place::LastLink::keep));
        // The new file takes the name by rename, which would replace a symbolic link itself
        // and leave the file it points to as it was.
        if (const std::optional<struct stat> st = own->status(); st && S_ISLNK(st->st_mode))
            usage_error(args.input + " is a symbolic link, and rekey would replace the link, not "
                                     "the file it points to",
                        "rekey the file itself, or give -o");
    }
    InputFile input = own ? InputFile(*own, O_NOFOLLOW) : InputFile(args.input);
    if (in_place && !input.is_regular())
        usage_error(input.name() + " is not a regular file, so it cannot be replaced",
                    "give -o for the rekeyed copy");
    OutputTarget output = in_place ? OutputTarget::replacing(*own, input.status())
                                   : OutputTarget::named(*args.output);
    const OutputChecks output_checks{
        .force = in_place || args.force, .refuse_terminal = true, .named = true};
    check_output(output, in_place ? nullptr : &input, output_checks);
    OutputFile out(std::move(output), output_checks);
    // In place, the rekeyed file is still the user's file: the same owner, group, mode, ACL and
    // extended attributes, or a refusal now, before any work.
    if (in_place) out.keep_access_of(input.fd(), input.name());

    formats::Options options = decrypt_options(args.open, std::move(backend), input);
    for (unsigned n : args.remove) options.remove.push_back(n - 1);
    if (adds_anything(args.add)) {
        options.recipients = gather_secrets(args.add, KeyPurpose::encrypt, args.kdf.params(), input);
        refuse_mixed_recipients(options.recipients);
    }

    FdSource source(input.fd(), input.name());
    const formats::Result result = run_naming_errors(
        input.name(), "`warpcrypt info " + input.name() + "` lists the key slots or stanzas",
        [&] { return formats::rekey(source, out.sink(), options); });
    out.commit();
    // After the commit: whether a classic recipient may be added depends on the kept entries
    // too (no mix), which only the format knows; a refused rekey prints its error alone.
    warn_of_classic_recipients(args.add, options.recipients);
    const std::string entry(formats::entry_word(result.format));
    if (args.verbosity.verbose)
        print_note(input.name() + ": " + opened_note(result) +
                   (args.remove.empty() ? "" : ", removed " + entry + "(s) " + numbers_text(args.remove)) +
                   ", added " + std::to_string(options.recipients.size()) + "; " +
                   std::to_string(result.entries_after) + " " + entry + "(s) now, payload (" +
                   std::to_string(result.payload_bytes) + " bytes) copied unchanged; wrote " +
                   out.name());
}

}  // namespace

Command add_rekey_command(CLI::App& parent) {
    auto args = std::make_shared<RekeyArgs>();
    CLI::App* cmd = parent.add_subcommand(
        "rekey", "Add or remove key slots (age files: stanzas) without re-encrypting the file");
    cmd->add_option("INPUT", args->input, "The warp or age file (replaced unless -o is given)")
        ->type_name("PATH");
    cmd->add_option("-o,--output", args->output,
                    "Write the rekeyed file here instead of replacing INPUT; - for stdout")
        ->type_name("PATH");
    cmd->add_flag("-f,--force", args->force, "Overwrite an existing output file (with -o)");
    add_opening_keys(*cmd, args->open);
    args->add.recipient_option = "--add-recipient";
    const char* group = "New key slots";
    cmd->add_option("--add-key", args->add.key_files, "Add a slot for this key file; repeatable")
        ->type_name("PATH")
        ->allow_extra_args(false)
        ->group(group);
    cmd->add_option("--add-recipient", args->add.recipients,
                    "Add a slot for this age recipient: post-quantum (age1pq1...) or classic "
                    "X25519 (age1..., with a warning); repeatable")
        ->type_name("RECIPIENT")
        ->allow_extra_args(false)
        ->group(group);
    cmd->add_option("--add-recipients-file", args->add.recipients_files,
                    "Add a slot for each recipient in PATH (- for stdin); repeatable")
        ->type_name("PATH")
        ->allow_extra_args(false)
        ->group(group);
    cmd->add_flag("--no-pq-warning", args->add.no_pq_warning,
                  std::string("No warning for classic X25519 recipients (also: ") +
                      kNoPqWarningEnv + "=1)")
        ->group(group);
    cmd->add_flag("--add-passphrase", args->add.prompt,
                  "Add a passphrase slot, asking for the passphrase on the terminal (twice)")
        ->group(group);
    cmd->add_option("--add-passphrase-file", args->add.passphrase_file,
                    "Add a passphrase slot with the first line of PATH")
        ->type_name("PATH")
        ->group(group);
    add_new_passphrase_kdf(*cmd, args->kdf);
    cmd->add_option("--remove-slot", args->remove,
                    "Remove key slot (age files: stanza) N, as `warpcrypt info` numbers them; "
                    "repeatable")
        ->type_name("N")
        ->allow_extra_args(false)
        ->check(CLI::Range(1u, static_cast<unsigned>(formats::max_recipients(formats::Format::age))))
        ->group(group);
    add_verbosity(*cmd, args->verbosity);
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
