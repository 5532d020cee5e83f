//! What every subcommand shares: error reporting, exit codes, standard output, inputs, a few
//! argument parsers and progress bars. Imports no other module of the binary.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimcount::Error;
use nimcount::error::Seconds;
use nimcount::fwht::Backend;
use nimcount::grundy::MoreValues;
use nimcount::input::Input;
use nimcount::num_bigint::BigUint;
use nimcount::number;
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

/// The most characters of an error line: every control character in it is escaped, and a
/// longer line is cut (messages shorten the inputs they echo; this only stops a runaway).
const MESSAGE_CHARS: usize = 1000;

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
            stderr_line(format_args!("{} (try --help)", nimcount::message::one_line(&line, MESSAGE_CHARS)));
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Turns a subcommand's result into the process exit code, printing the error on one line.
/// Writes one line to standard error; a closed or full standard error is ignored (`eprintln!`
/// would panic there, and the exit status still tells what happened).
pub fn stderr_line(line: impl std::fmt::Display) {
    use std::io::Write as _;
    let _ = writeln!(io::stderr(), "{line}");
}

pub fn exit_code(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that closed the pipe early (`| head`): the output is not complete, and the
        // exit status says so, as for any other failed write.
        Err(Failure::Library(Error::Io { source, .. })) if source.kind() == io::ErrorKind::BrokenPipe => {
            stderr_line(format_args!(
                "error: standard output was closed before the output was complete (broken pipe)"
            ));
            REPORTED.store(true, Ordering::SeqCst);
            ExitCode::from(EXIT_FAILURE)
        }
        Err(Failure::Reported) => ExitCode::from(EXIT_FAILURE),
        Err(err) => {
            stderr_line(format_args!(
                "error: {}",
                nimcount::message::one_line(&err.to_string(), MESSAGE_CHARS)
            ));
            REPORTED.store(true, Ordering::SeqCst);
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Whether descriptor 1 was closed when the process started (`>&-`). Recorded before `main`:
/// the Rust runtime then opens `/dev/null` in its place, where every write would succeed.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Run by the loader before `main` (and before the runtime replaces a closed descriptor).
extern "C" fn record_closed_stdout() {
    use std::os::fd::AsFd;
    STDOUT_CLOSED.store(io::stdout().as_fd().try_clone_to_owned().is_err(), Ordering::SeqCst);
}

// SAFETY: an entry of `.init_array` is called once by the dynamic loader, before `main`, with
// no arguments, as `extern "C" fn()`; `record_closed_stdout` has that signature, reads one
// descriptor (a `dup` that fails with EBADF when it is closed) and stores one flag.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_CLOSED_STDOUT: extern "C" fn() = record_closed_stdout;

/// Standard output, failing every write with EBADF when it was closed at start.
pub struct Stdout(io::StdoutLock<'static>);

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if STDOUT_CLOSED.load(Ordering::Relaxed) && !buf.is_empty() {
            return Err(rustix::io::Errno::BADF.into());
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Buffered standard output; write errors map to [`Error::Io`] on `<stdout>` via [`stdout_error`].
pub fn stdout() -> BufWriter<Stdout> {
    BufWriter::new(Stdout(io::stdout().lock()))
}

/// A library error, with `--max-heap` named when more computed Grundy values would lift it (the
/// library decides whether they would: [`Error::more_values`]).
pub fn values_failure(err: Error) -> Failure {
    match err.more_values() {
        Some(MoreValues::Lift(values)) => usage(format!("{err}; --max-heap {values} computes them anyway")),
        Some(MoreValues::Search) => usage(format!("{err}; --max-heap N computes more values")),
        Some(MoreValues::BeyondMemory) => usage(format!("{err}; that does not fit in memory")),
        _ => err.into(),
    }
}

/// Wraps a failure to write standard output.
pub fn stdout_error(source: io::Error) -> Failure {
    Failure::Library(Error::Io { path: "<stdout>".into(), source })
}

/// The most bytes read from a stream (standard input, a pipe, a device) when `--max-input` is
/// not given: a stream has no size to check before reading, and an endless one (`/dev/zero`)
/// must stop long before it exhausts memory.
pub const DEFAULT_STREAM_LIMIT: u64 = 512 << 20;

/// The stream limit: `--max-input` when given, else [`DEFAULT_STREAM_LIMIT`].
pub fn stream_limit(flag: Option<&str>) -> Result<u64> {
    match flag {
        None => Ok(DEFAULT_STREAM_LIMIT),
        Some(text) => match nimcount::number::parse_u64(text)? {
            0 => Err(usage("--max-input 0: a stream limit must be at least one byte")),
            n => Ok(n),
        },
    }
}

/// `LO..=HI`, each side a number of any size.
pub fn parse_sizes(text: &str) -> Result<(BigUint, BigUint)> {
    if !text.contains("..=") {
        return Err(usage(format!(
            "--sizes '{}' must be LO..=HI, for example 1..=10^12",
            nimcount::error::quote(text)
        )));
    }
    let (lo, hi) = number::parse_range(text)?;
    if lo > hi {
        return Err(usage(format!(
            "--sizes {}: empty range, {} is above {}",
            nimcount::error::quote(text),
            number::short(&lo),
            number::short(&hi)
        )));
    }
    Ok((lo, hi))
}

/// `count` and a noun, singular for 1.
pub fn plural(count: impl std::fmt::Display, singular: &str, plural: &str) -> String {
    let count = count.to_string();
    format!("{count} {}", if count == "1" { singular } else { plural })
}

/// Opens an input file (`-`: standard input), with the stream limit of `--max-input`.
pub fn open_input(path: &Path, max_input: Option<&str>) -> Result<Input<'static>> {
    Ok(Input::open(path, stream_limit(max_input)?)?)
}

/// Translates library errors about inputs into messages that name the flag to use.
pub fn input_failure(err: Error, format_flag: bool) -> Failure {
    match err {
        Error::InputTooLarge { path, what, limit } if !what.starts_with("grew") => {
            usage(format!("{path}: {what}; the limit is {limit} (--max-input raises it for streams)"))
        }
        Error::LooksLikeText { path, .. } if format_flag => {
            usage(format!("{path}: looks like text; use --format text"))
        }
        other => other.into(),
    }
}

/// Set once this process has printed its error line.
pub static REPORTED: AtomicBool = AtomicBool::new(false);

/// A progress bar on standard error, drawn only when standard error is a terminal; with
/// [`lines`](TerminalProgress::lines), a line every few seconds when it is not.
pub struct TerminalProgress {
    bar: Mutex<Option<ProgressBar>>,
    lines: Option<Mutex<Lines>>,
}

/// The state of the line-by-line report.
struct Lines {
    what: String,
    total: u64,
    position: u64,
    message: String,
    started: Instant,
    last: Instant,
}

/// Seconds between two lines of the line-by-line report.
const LINE_EVERY: Duration = Duration::from_secs(5);

impl TerminalProgress {
    /// A progress reporter that draws nothing until a stage starts.
    pub fn new() -> Self {
        TerminalProgress { bar: Mutex::new(None), lines: None }
    }

    /// As [`new`](Self::new), and when `verbose` and standard error is not a terminal, a line
    /// on standard error every few seconds of a stage.
    pub fn lines(verbose: bool) -> Self {
        let lines = (verbose && !io::stderr().is_terminal()).then(|| {
            let now = Instant::now();
            Mutex::new(Lines {
                what: String::new(),
                total: 0,
                position: 0,
                message: String::new(),
                started: now,
                last: now,
            })
        });
        TerminalProgress { bar: Mutex::new(None), lines }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn line(&self, update: impl FnOnce(&mut Lines)) {
        let Some(lines) = &self.lines else { return };
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        update(&mut lines);
        if lines.last.elapsed() >= LINE_EVERY {
            lines.last = Instant::now();
            stderr_line(format_args!("{}", lines.render()));
        }
    }
}

impl Lines {
    /// `period search: 42% of the estimate, 12 s, eta 16 s; 1234 values, …`
    fn render(&self) -> String {
        let elapsed = self.started.elapsed().as_secs_f64();
        let mut line = format!("{}: {:.0} s", self.what, elapsed);
        if self.total > 0 {
            let fraction = (self.position as f64 / self.total as f64).min(1.0);
            line.push_str(&format!(", {:.0}%", 100.0 * fraction));
            if fraction > 0.0 && fraction < 1.0 {
                let eta = elapsed * (1.0 - fraction) / fraction;
                line.push_str(&format!(", eta {}", Seconds(eta).to_string().trim_start_matches("about ")));
            }
        }
        if !self.message.is_empty() {
            line.push_str("; ");
            line.push_str(&self.message);
        }
        line
    }
}

/// The columns a bar needs to show a message of about 50 characters beside it (the bar itself
/// takes about 70).
const WIDE_TERMINAL: u16 = 120;

/// The width of the terminal on standard error, if it is one.
fn terminal_columns() -> Option<u16> {
    rustix::termios::tcgetwinsize(std::io::stderr()).ok().map(|w| w.ws_col).filter(|&c| c > 0)
}

impl TerminalProgress {
    /// Replaces the label of the bar being drawn, if any.
    pub fn set_message(&self, message: String) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_prefix(message);
        }
    }
}

impl Progress for TerminalProgress {
    fn start(&self, what: &str, total: u64) {
        let bar = if total > 0 {
            // The message on a line of its own where the bar leaves it too little room.
            let template = if terminal_columns().is_some_and(|c| c < WIDE_TERMINAL) {
                "{prefix:>14} [{bar:30}] {percent:>3}% {elapsed_precise} eta {eta}\n    {wide_msg}"
            } else {
                "{prefix:>14} [{bar:30}] {percent:>3}% {elapsed_precise} eta {eta} {wide_msg}"
            };
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template(template).expect("static template").progress_chars("=> "),
            )
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{prefix:>14} {spinner} {elapsed_precise} {wide_msg}")
                    .expect("static template"),
            )
        };
        bar.set_prefix(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(200));
        if let Some(old) = self.bar().replace(bar) {
            old.finish_and_clear();
        }
        self.line(|lines| {
            if !lines.what.is_empty() {
                stderr_line(format_args!("{} (done)", lines.render()));
            }
            *lines = Lines {
                what: what.to_string(),
                total,
                position: 0,
                message: String::new(),
                started: Instant::now(),
                last: Instant::now(),
            }
        });
    }

    fn set_position(&self, done: u64) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_position(done);
        }
        self.line(|lines| lines.position = done);
    }

    fn set_total(&self, total: u64) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_length(total);
        }
        self.line(|lines| lines.total = total);
    }

    fn message(&self, text: &str) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_message(text.to_string());
        }
        self.line(|lines| lines.message = text.to_string());
    }

    fn finish(&self) {
        if let Some(bar) = self.bar().take() {
            bar.finish_and_clear();
        }
        // The last figures of a stage, once.
        if let Some(lines) = &self.lines {
            let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
            if !lines.what.is_empty() {
                stderr_line(format_args!("{} (done)", lines.render()));
                lines.what.clear();
            }
        }
    }
}

impl Drop for TerminalProgress {
    fn drop(&mut self) {
        self.finish();
    }
}
