//! What every subcommand shares: error reporting, exit codes, stdout, progress bars and
//! all-or-nothing output files.

use std::fs::OpenOptions;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimcount::Error;
use nimcount::error::Seconds;
use nimcount::fwht::Backend;
use nimcount::input::Input;
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
            eprintln!("{} (try --help)", nimcount::message::one_line(&line, MESSAGE_CHARS));
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
            eprintln!("error: {}", nimcount::message::one_line(&err.to_string(), MESSAGE_CHARS));
            REPORTED.store(true, std::sync::atomic::Ordering::SeqCst);
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

/// The temporary files being written, removed by the interrupt handler. Creating, renaming and
/// removing one happens with the lock held, so an interrupt never leaves one behind.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set once this process has printed its error line.
pub static REPORTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Removes unfinished output files and exits with 130 on Ctrl-C, SIGTERM or SIGHUP (quietly,
/// with the failure code, once an error has been reported).
pub fn handle_interrupts() {
    let _ = ctrlc::set_handler(|| {
        let temporary = TEMPORARY.lock().unwrap_or_else(|e| e.into_inner());
        for path in temporary.iter() {
            let _ = std::fs::remove_file(path);
        }
        // A process that already reported its error (ended by `mpirun` after another process
        // failed) leaves with that error alone.
        if REPORTED.load(std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_FAILURE));
        }
        eprintln!("error: interrupted");
        std::process::exit(130);
    });
}

/// An output file as the user named it, and where its bytes really go, resolved before any
/// work is done.
#[derive(Debug)]
pub struct Output {
    /// The path as given, for messages.
    given: String,
    target: Target,
}

#[derive(Debug)]
enum Target {
    /// `-`: standard output.
    Stdout,
    /// Something that is not a regular file (a FIFO, a terminal, `/dev/null`): written directly,
    /// never replaced.
    Direct(PathBuf),
    /// A regular file (through any symbolic links), or a new one: a temporary file in its
    /// directory, renamed over it when complete.
    Replace { path: PathBuf, existing: Option<std::fs::Metadata> },
}

impl Output {
    /// Resolves `path`: `-` is standard output; symbolic links are followed, so the file they
    /// point to is written and the links stay; a FIFO or a device is written directly; a missing
    /// directory or a directory as the path is refused.
    pub fn resolve(path: &Path) -> Result<Output> {
        let given = nimcount::error::quote(&path.display().to_string());
        if path.as_os_str() == "-" {
            return Ok(Output { given, target: Target::Stdout });
        }
        let refuse = |reason: String| usage(format!("cannot write '{given}': {reason}"));
        let target = match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => return Err(refuse("it is a directory".into())),
            Ok(m) if m.is_file() => {
                // The real file, so that the temporary file lies beside it.
                let real = std::fs::canonicalize(path).map_err(|e| Error::io(&given, e))?;
                Target::Replace { path: real, existing: Some(m) }
            }
            Ok(_) => Target::Direct(path.to_path_buf()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let real = dangling_target(path).map_err(|e| Error::io(&given, e))?;
                let dir = directory_of(&real);
                if !dir.is_dir() {
                    return Err(refuse(format!(
                        "directory '{}' does not exist",
                        nimcount::message::path(dir)
                    )));
                }
                Target::Replace { path: real, existing: None }
            }
            Err(e) => return Err(Error::io(&given, e).into()),
        };
        Ok(Output { given, target })
    }

    /// Writes the output: streamed to standard output, a FIFO or a device; for a file, whole
    /// or not at all (temporary file, fsync, rename), with the existing file's permissions and,
    /// where allowed, its owner. The temporary file is removed on every error and on an
    /// interrupt; errors name the path as given.
    pub fn write(&self, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
        let io_error = |e: io::Error| Failure::Library(Error::io(&self.given, e));
        match &self.target {
            Target::Stdout => {
                let mut out = stdout();
                write(&mut out)?;
                out.flush().map_err(stdout_error)
            }
            Target::Direct(path) => {
                let file = OpenOptions::new().write(true).open(path).map_err(io_error)?;
                let mut out = BufWriter::with_capacity(1 << 20, file);
                write(&mut out)?;
                out.flush().map_err(io_error)
            }
            Target::Replace { path, existing } => self.replace(path, existing.as_ref(), write),
        }
    }

    fn replace(
        &self,
        path: &Path,
        existing: Option<&std::fs::Metadata>,
        write: impl FnOnce(&mut dyn Write) -> Result<()>,
    ) -> Result<()> {
        let io_error = |e: io::Error| Failure::Library(Error::io(&self.given, e));
        let name = path.file_name().ok_or_else(|| io_error(io::Error::other("not a file name")))?;
        let temp = directory_of(path).join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
        let file = {
            let mut temporary = TEMPORARY.lock().unwrap_or_else(|e| e.into_inner());
            let file = OpenOptions::new().write(true).create_new(true).open(&temp).map_err(io_error)?;
            temporary.push(temp.clone());
            file
        };
        let result = (|| {
            if let Some(m) = existing {
                file.set_permissions(m.permissions()).map_err(io_error)?;
                #[cfg(unix)]
                {
                    use std::os::unix::fs::MetadataExt;
                    // Only root may give a file away; anyone else keeps the file as theirs.
                    let _ = std::os::unix::fs::fchown(&file, Some(m.uid()), Some(m.gid()));
                }
            }
            let mut out = BufWriter::with_capacity(1 << 20, &file);
            write(&mut out)?;
            out.flush().map_err(io_error)?;
            drop(out);
            file.sync_all().map_err(io_error)
        })();
        let mut temporary = TEMPORARY.lock().unwrap_or_else(|e| e.into_inner());
        let result = result.and_then(|()| std::fs::rename(&temp, path).map_err(io_error));
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        temporary.retain(|p| *p != temp);
        result
    }
}

/// The directory a path lies in (`.` for a bare file name).
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where a path that does not exist would be created: through symbolic links (a dangling
/// link is written through, creating its target), at most 40 of them.
fn dangling_target(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = if link.is_absolute() { link } else { directory_of(&current).join(link) };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Writes `path` all at once or not at all (see [`Output::write`]).
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    Output::resolve(path)?.write(write)
}

/// The regular file that `path` names (through symbolic links; a new one if missing), for
/// writers that replace it through a temporary file of their own; refused for standard output,
/// FIFOs and devices (a distributed run writes slices at offsets).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub fn replaced_file(path: &Path) -> Result<PathBuf> {
    let output = Output::resolve(path)?;
    match output.target {
        Target::Replace { path, .. } => Ok(path),
        _ => Err(usage(format!("cannot write '{}' in slices: it is not a regular file", output.given))),
    }
}

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
            eprintln!("{}", lines.render());
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
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template(
                    "{prefix:>14} [{bar:30}] {percent:>3}% {elapsed_precise} eta {eta} {wide_msg}",
                )
                .expect("static template")
                .progress_chars("=> "),
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
                eprintln!("{} (done)", lines.render());
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
                eprintln!("{} (done)", lines.render());
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
