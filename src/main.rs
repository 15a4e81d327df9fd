//! The `gridpath` binary: the command line, and the desktop editor when run without a command.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
