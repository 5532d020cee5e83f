//! What every subcommand shares: error reporting, exit codes, stdout, progress bars and
//! all-or-nothing output files.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nimcount::error::Seconds;
use nimcount::progress::Progress;
use nimcount::{Error, Result};

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
        Err(Error::Io { source, .. }) if source.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
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
pub fn stdout_error(source: io::Error) -> Error {
    Error::Io { path: "<stdout>".into(), source }
}

/// Writes `path` all at once or not at all: the content goes to a temporary file in the same
/// directory, which is renamed over `path` only after `write` succeeded and the data was flushed.
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut BufWriter<File>) -> Result<()>) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| Error::io(path, io::Error::other("not a file name")))?;
    let temp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let file = File::create(&temp).map_err(|e| Error::io(&temp, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| Error::io(&temp, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&temp, e))?;
        std::fs::rename(&temp, path).map_err(|e| Error::io(path, e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
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
