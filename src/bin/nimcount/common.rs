//! What every subcommand shares: error reporting, exit codes, stdout, progress bars and
//! all-or-nothing output files.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimcount::Error;
use nimcount::fwht::Backend;
use nimcount::progress::Progress;

/// Why a command failed: the library refused or failed, or the command line makes no sense.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// An error from the library, printed as it is.
    #[error(transparent)]
    Library(#[from] Error),
    /// A command-line mistake the library cannot see (flags that do not go together).
    #[error("{0}")]
    Usage(String),
    /// A failure already printed (by a process of a distributed run, before MPI stopped).
    #[error("(reported)")]
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    Reported,
}

/// The result of a subcommand.
pub type Result<T, E = Failure> = std::result::Result<T, E>;

/// A command-line mistake.
pub fn usage(message: impl Into<String>) -> Failure {
    Failure::Usage(message.into())
}

/// The environment variable that forces a backend for every transform and power: `scalar`,
/// `avx2` or `avx512`.
pub const BACKEND_VARIABLE: &str = "NIMCOUNT_BACKEND";

/// The backend to use: `flag` when given, else the one [`BACKEND_VARIABLE`] names, else the widest
/// this CPU runs. An unknown or unavailable name is an error, never a silent fallback.
pub fn backend(flag: Option<Backend>) -> Result<Backend> {
    let chosen = match (flag, std::env::var(BACKEND_VARIABLE)) {
        (Some(b), _) => b,
        (None, Ok(name)) => name.parse::<Backend>().map_err(|_| {
            usage(format!(
                "{BACKEND_VARIABLE}={} names no backend (choose scalar, avx2 or avx512)",
                nimcount::error::quote(&name)
            ))
        })?,
        (None, Err(_)) => Backend::best(),
    };
    chosen.available().map_err(|_| match flag {
        Some(_) => Failure::Library(Error::BackendUnavailable { backend: chosen.name() }),
        None => usage(format!("{BACKEND_VARIABLE}={chosen} names a backend this CPU does not run")),
    })
}

/// Exit code for every refused input or failed run; 0 is success.
pub const EXIT_FAILURE: u8 = 2;

/// Prints a command-line usage error on one line (help and version requests print in full).
pub fn report_usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(EXIT_FAILURE)
        }
        _ => {
            // clap lists missing arguments on the lines after a heading ending in ':'; keep them
            // on the one line.
            let rendered = err.render().to_string();
            let mut lines = rendered.lines();
            let mut line = lines.next().unwrap_or("error: invalid arguments").to_string();
            if line.ends_with(':') {
                let items: Vec<&str> = lines.take_while(|l| l.starts_with(' ')).map(str::trim).collect();
                line = format!("{line} {}", items.join(", "));
            }
            eprintln!("{line} (try --help)");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Turns a subcommand's result into the process exit code, printing the error on one line.
pub fn exit_code(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that closed the pipe early (`| head`) got what it wanted.
        Err(Failure::Library(Error::Io { source, .. })) if source.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(Failure::Reported) => ExitCode::from(EXIT_FAILURE),
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Buffered standard output; write errors map to [`Error::Io`] on `<stdout>` via [`stdout_error`].
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::new(io::stdout().lock())
}

/// Wraps a failure to write standard output.
pub fn stdout_error(source: io::Error) -> Failure {
    Failure::Library(Error::Io { path: "<stdout>".into(), source })
}

/// Writes `path` all at once or not at all: the content goes to a temporary file in the same
/// directory, which is renamed over `path` only after `write` succeeded and the data was flushed.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut BufWriter<File>) -> Result<()>) -> Result<()> {
    let temp = temporary_path(path, std::process::id())?;
    let result = (|| {
        let file = File::create(&temp).map_err(|e| Error::io(&temp, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| Error::io(&temp, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&temp, e))?;
        std::fs::rename(&temp, path).map_err(|e| Failure::Library(Error::io(path, e)))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// The temporary file beside `path` that process `pid` writes before renaming it over `path`.
pub fn temporary_path(path: &Path, pid: u32) -> Result<PathBuf> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| Error::io(path, io::Error::other("not a file name")))?;
    Ok(dir.join(format!(".{}.{pid}.tmp", name.to_string_lossy())))
}

/// A progress bar on standard error, drawn only when standard error is a terminal.
pub struct TerminalProgress {
    bar: Mutex<Option<ProgressBar>>,
}

impl TerminalProgress {
    /// A progress reporter that draws nothing until a stage starts.
    pub fn new() -> Self {
        TerminalProgress { bar: Mutex::new(None) }
    }
}

impl TerminalProgress {
    /// Replaces the message of the bar being drawn, if any.
    pub fn set_message(&self, message: String) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            bar.set_message(message);
        }
    }
}

impl Progress for TerminalProgress {
    fn start(&self, what: &str, total: u64) {
        let bar = if total > 0 {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template(
                    "{msg:>12} [{bar:40}] {percent:>3}% {elapsed_precise} eta {eta}",
                )
                .expect("static template")
                .progress_chars("=> "),
            )
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{msg:>12} {spinner} {elapsed_precise}")
                    .expect("static template"),
            )
        };
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(200));
        if let Some(old) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).replace(bar) {
            old.finish_and_clear();
        }
    }

    fn set_position(&self, done: u64) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            bar.set_position(done);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for TerminalProgress {
    fn drop(&mut self) {
        self.finish();
    }
}
