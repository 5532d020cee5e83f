//! Output files, written the way coreutils writes them, and the signals that end a run.
//!
//! - `-`, `/dev/stdout` and every other link to this process's descriptor 1 is standard output:
//!   written in place, so a shell's `>> log.txt` keeps what `log.txt` held.
//! - A FIFO, a device (`/dev/null`, a terminal) or a link through `/proc/<pid>/fd` to anything else
//!   is written in place: opened without truncating (appending when it is a regular file).
//! - A regular file (through any symbolic links), or a new one, appears whole or not at all. It is
//!   refused before any work when the real user may not write it (as `access(2)` says), even
//!   though the folder would allow replacing it; and when the folder would not let it be put in
//!   place (no write permission there, or a sticky folder such as `/tmp` where neither the file
//!   nor the folder is the user's), though the file itself may be writable: the message names
//!   the shell's `> FILE`, which writes it in place. The bytes go to an unnamed file in the target's
//!   folder (`O_TMPFILE`): a process killed by any signal, SIGKILL included, leaves nothing. When
//!   complete and synced it is linked into place: straight to the target's name when the target
//!   does not exist, else to a temporary name renamed over the target (a link cannot replace a
//!   file; a rename can, atomically). Where `O_TMPFILE` or `/proc` is missing, a named temporary
//!   file `.NAME.PID.tmp` beside the target takes its place; it is removed on every error and on
//!   SIGINT, SIGTERM and SIGHUP. A replaced file keeps its permissions (and owner, where allowed).
//!
//! Why nothing is left behind: every named temporary file is created, renamed and removed with
//! [`TEMPORARY`] locked, and listed there while it exists; the signal handler removes what the
//! list holds before exiting, under the same lock. The unnamed file has no name to leave. The
//! one window a SIGKILL can hit is between the link to a temporary name and the rename over an
//! existing target (two system calls).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use nimcount::Error;

use crate::common::{self, Failure, Result, usage};

/// The named temporary files that exist now, removed by the signal handler.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set, under the lock of [`TEMPORARY`], once an output file is in place: the run has done its
/// work, and a signal that comes after it ends the process with status 0 (the file in place
/// and the exit status agree).
static COMMITTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn temporary() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY.lock().unwrap_or_else(|e| e.into_inner())
}

/// On SIGINT, SIGTERM or SIGHUP: removes the named temporary files and exits with 128 + the
/// signal (130, 143, 129), or quietly with the failure code once an error has been reported
/// (a process of a distributed run ended by `mpirun` after another failed).
pub fn handle_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let names = temporary();
            if COMMITTED.load(std::sync::atomic::Ordering::SeqCst) {
                std::process::exit(0);
            }
            for path in names.iter() {
                let _ = std::fs::remove_file(path);
            }
            if common::REPORTED.load(std::sync::atomic::Ordering::SeqCst) {
                std::process::exit(i32::from(common::EXIT_FAILURE));
            }
            let what = match signal {
                SIGINT => "interrupted",
                SIGTERM => "terminated",
                _ => "hung up",
            };
            common::stderr_line(format_args!("error: {what}"));
            std::process::exit(128 + signal);
        }
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
    /// `-`, or a link to this process's descriptor 1.
    Stdout,
    /// Not a regular file, or reached through a descriptor link: opened where it is, never
    /// truncated or replaced.
    InPlace { path: PathBuf, append: bool },
    /// A regular file (the real one, through symbolic links), or a new one.
    Replace { path: PathBuf, existing: Option<Metadata> },
}

impl Output {
    /// Resolves `path` (see the module documentation); a directory, a missing folder or a file
    /// the real user may not write is refused by the path as given.
    pub fn resolve(path: &Path) -> Result<Output> {
        let given = nimcount::error::quote(&path.display().to_string());
        if path.as_os_str() == "-" {
            return Ok(Output { given, target: Target::Stdout });
        }
        let refuse = |reason: &str| usage(format!("cannot write '{given}': {reason}"));
        let io_error = |e: io::Error| Failure::Library(Error::io(&given, e));
        let (real, descriptor) = follow_links(path).map_err(io_error)?;
        let target = match (descriptor, std::fs::metadata(&real)) {
            (Some(Descriptor::Stdout), _) => Target::Stdout,
            (_, Ok(m)) if m.is_dir() => return Err(refuse("it is a directory")),
            (Some(Descriptor::Other), Ok(m)) => Target::InPlace { path: real, append: m.is_file() },
            (None, Ok(m)) if m.is_file() => {
                if let Err(e) = rustix::fs::access(&real, rustix::fs::Access::WRITE_OK) {
                    return Err(match e {
                        rustix::io::Errno::ACCESS | rustix::io::Errno::PERM => refuse("permission denied"),
                        rustix::io::Errno::ROFS => refuse("read-only file system"),
                        other => io_error(other.into()),
                    });
                }
                // The real file, so that the temporary file lies beside it.
                let real = std::fs::canonicalize(&real).map_err(io_error)?;
                if let Some(reason) = not_replaceable(&real, Some(&m)) {
                    return Err(refuse(&reason));
                }
                Target::Replace { path: real, existing: Some(m) }
            }
            (_, Ok(_)) => Target::InPlace { path: real, append: false },
            (_, Err(e)) if e.kind() == io::ErrorKind::NotFound => {
                let dir = directory_of(&real);
                if !dir.is_dir() {
                    return Err(refuse(&format!(
                        "directory '{}' does not exist",
                        nimcount::error::quote(&dir.display().to_string())
                    )));
                }
                if let Some(reason) = not_replaceable(&real, None) {
                    return Err(refuse(&reason));
                }
                Target::Replace { path: real, existing: None }
            }
            (_, Err(e)) => return Err(io_error(e)),
        };
        Ok(Output { given, target })
    }

    /// Writes the output: in place for standard output, FIFOs, devices and descriptor links;
    /// for a file, whole or not at all. Errors name the path as given.
    pub fn write(&self, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
        let io_error = |e: io::Error| Failure::Library(Error::io(&self.given, e));
        match &self.target {
            Target::Stdout => {
                let mut out = common::stdout();
                // A failed write names standard output, whatever path led to it (`-`, `/dev/fd/1`).
                write(&mut out).map_err(|e| match e {
                    Failure::Library(Error::Io { source, .. }) => common::stdout_error(source),
                    other => other,
                })?;
                out.flush().map_err(common::stdout_error)
            }
            Target::InPlace { path, append } => {
                let file = OpenOptions::new().write(true).append(*append).open(path).map_err(io_error)?;
                let mut out = BufWriter::with_capacity(1 << 20, file);
                write(&mut out)?;
                out.flush().map_err(io_error)
            }
            Target::Replace { path, existing } => {
                let staged = Staged::create(path, existing.as_ref()).map_err(io_error)?;
                let mut out = BufWriter::with_capacity(1 << 20, &staged.file);
                write(&mut out)?;
                out.flush().map_err(io_error)?;
                drop(out);
                staged.file.sync_all().map_err(io_error)?;
                staged.commit(path, existing.is_none()).map_err(io_error)
            }
        }
    }

    /// For writers that fill one file from several processes: the regular file this output
    /// replaces; refused for standard output, FIFOs and devices.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn regular_file(&self) -> Result<&Path> {
        match &self.target {
            Target::Replace { path, .. } => Ok(path),
            _ => Err(usage(format!("cannot write '{}' in slices: it is not a regular file", self.given))),
        }
    }

    /// The shared temporary file of a multi-process writer: every process opens this name, which
    /// the lead process created with [`share`](Self::share) under the same `id`.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn shared_name(&self, id: u32) -> nimcount::Result<PathBuf> {
        Ok(temporary_name(self.replaced()?.0, id))
    }

    /// The lead process of a multi-process writer creates the named temporary file, `bytes`
    /// long, that every process writes its slice into (an unnamed file cannot be opened by
    /// another process); [`Shared::commit`] puts it in place, dropping it removes it.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn share(&self, id: u32, bytes: u64) -> nimcount::Result<Shared> {
        let (path, existing) = self.replaced()?;
        let staged = Staged::named(path, id, existing).map_err(|e| Error::io(&self.given, e))?;
        staged.file.set_len(bytes).map_err(|e| Error::io(&self.given, e))?;
        Ok(Shared { staged, target: path.to_path_buf(), given: self.given.clone() })
    }

    /// The regular file replaced, and its metadata when it exists.
    fn replaced(&self) -> nimcount::Result<(&Path, Option<&Metadata>)> {
        match &self.target {
            Target::Replace { path, existing } => Ok((path, existing.as_ref())),
            _ => Err(Error::io(&self.given, io::Error::other("not a regular file"))),
        }
    }
}

/// A named temporary file filled by several processes (see [`Output::share`]), removed when
/// dropped uncommitted.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub struct Shared {
    staged: Staged,
    target: PathBuf,
    given: String,
}

#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
impl Shared {
    /// Once every slice is on disk: renames the file over the target.
    pub fn commit(self) -> nimcount::Result<()> {
        self.staged.commit(&self.target, false).map_err(|e| Error::io(&self.given, e))
    }
}

/// Where the bytes go until they are complete: an unnamed file, or a named one that is listed in
/// [`TEMPORARY`] and removed when dropped uncommitted.
struct Staged {
    file: File,
    name: Option<PathBuf>,
}

impl Staged {
    /// An unnamed file in `target`'s folder where the system makes one, else a named one; with
    /// the permissions (and, where allowed, the owner) of the file it replaces.
    fn create(target: &Path, existing: Option<&Metadata>) -> io::Result<Staged> {
        match unnamed_file(&directory_of(target)) {
            Some(file) => {
                let staged = Staged { file, name: None };
                keep_permissions(&staged.file, existing)?;
                Ok(staged)
            }
            None => Staged::named(target, std::process::id(), existing),
        }
    }

    /// A named temporary file beside `target`, listed in [`TEMPORARY`] as it is created.
    fn named(target: &Path, id: u32, existing: Option<&Metadata>) -> io::Result<Staged> {
        let name = temporary_name(target, id);
        let file = {
            let mut names = temporary();
            let file = OpenOptions::new().write(true).create_new(true).open(&name)?;
            names.push(name.clone());
            file
        };
        let staged = Staged { file, name: Some(name) };
        keep_permissions(&staged.file, existing)?;
        Ok(staged)
    }

    /// Puts the complete file in place at `target` (`fresh`: the target did not exist when
    /// resolved, so a link straight to its name is tried first).
    fn commit(mut self, target: &Path, fresh: bool) -> io::Result<()> {
        use rustix::fs::{AtFlags, CWD, linkat};
        let mut names = temporary();
        let name = match self.name.take() {
            Some(name) => name,
            None => {
                let descriptor = format!("/proc/self/fd/{}", self.file.as_raw_fd());
                if fresh {
                    match linkat(CWD, descriptor.as_str(), CWD, target, AtFlags::SYMLINK_FOLLOW) {
                        Ok(()) => {
                            COMMITTED.store(true, std::sync::atomic::Ordering::SeqCst);
                            return Ok(());
                        }
                        // Created meanwhile: replaced below like any existing file.
                        Err(rustix::io::Errno::EXIST) => {}
                        Err(e) => return Err(e.into()),
                    }
                }
                let name = temporary_name(target, std::process::id());
                linkat(CWD, descriptor.as_str(), CWD, &name, AtFlags::SYMLINK_FOLLOW)?;
                names.push(name.clone());
                name
            }
        };
        let renamed = std::fs::rename(&name, target);
        match renamed {
            Ok(()) => COMMITTED.store(true, std::sync::atomic::Ordering::SeqCst),
            Err(_) => {
                let _ = std::fs::remove_file(&name);
            }
        }
        names.retain(|p| *p != name);
        renamed
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(name) = self.name.take() {
            let mut names = temporary();
            let _ = std::fs::remove_file(&name);
            names.retain(|p| *p != name);
        }
    }
}

/// Why this process could not put a complete file in place at `target` (`existing`: its
/// metadata when it exists), found before any work: its folder must let the user create files
/// (write and search permission, as `access(2)` says), and a sticky folder (`/tmp`) lets only
/// the owner of a file or of the folder rename over it. `None` when it can. Such a file may
/// still be writable in place (`> FILE` in a shell), which the message says: nimcount writes a
/// regular file whole or not at all, never truncated and half-written.
fn not_replaceable(target: &Path, existing: Option<&Metadata>) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let dir = directory_of(target);
    let folder = nimcount::error::quote(&dir.display().to_string());
    let redirect = match existing {
        Some(_) => format!(
            "; to write it in place, name standard output ('-') and redirect it ('> {}')",
            nimcount::error::quote(&target.display().to_string())
        ),
        None => String::new(),
    };
    let access = rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK;
    if rustix::fs::access(&dir, access).is_err() {
        return Some(format!(
            "permission denied: the folder '{folder}' does not let this user create files{redirect}"
        ));
    }
    let (Some(file), Ok(dir_meta)) = (existing, std::fs::metadata(&dir)) else { return None };
    let user = rustix::process::geteuid().as_raw();
    if dir_meta.mode() & 0o1000 != 0 && user != 0 && user != file.uid() && user != dir_meta.uid() {
        return Some(format!(
            "permission denied: the folder '{folder}' is sticky, and only the owner of the file (or of the \
             folder) may replace it{redirect}"
        ));
    }
    None
}

/// An unnamed file in `dir` (Linux `O_TMPFILE`), or `None` where the file system or kernel has
/// none, or `/proc/self/fd` (through which it is linked into place) is missing.
fn unnamed_file(dir: &Path) -> Option<File> {
    use rustix::fs::{Mode, OFlags};
    if !Path::new("/proc/self/fd").is_dir() {
        return None;
    }
    // The mode of a new file, less the umask, as for any created file.
    let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
    rustix::fs::open(dir, flags, Mode::from_raw_mode(0o666)).ok().map(File::from)
}

/// The replaced file's permissions and, where allowed, owner (only root may give a file away;
/// anyone else keeps the new file as theirs).
fn keep_permissions(file: &File, existing: Option<&Metadata>) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if let Some(m) = existing {
        file.set_permissions(m.permissions())?;
        let _ = std::os::unix::fs::fchown(file, Some(m.uid()), Some(m.gid()));
    }
    Ok(())
}

/// `.NAME.ID.tmp` beside `target`.
fn temporary_name(target: &Path, id: u32) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    directory_of(target).join(format!(".{name}.{id}.tmp"))
}

/// The directory a path lies in (`.` for a bare file name).
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A link into `/proc/<pid>/fd` (`/dev/stdout`, `/dev/fd/3`): an open descriptor, whose file
/// must be written through that descriptor's position, not replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Descriptor {
    /// This process's descriptor 1.
    Stdout,
    /// Any other.
    Other,
}

/// Follows symbolic links from `path` (at most 40) to what is written: the last path, and the
/// descriptor when a link into `/proc/<pid>/fd` was met (not followed further: it stands for an
/// open file, not a name). A dangling link gives the path it points to, created on writing.
fn follow_links(path: &Path) -> io::Result<(PathBuf, Option<Descriptor>)> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        if let Some(descriptor) = descriptor_link(&current) {
            return Ok((current, Some(descriptor)));
        }
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = if link.is_absolute() { link } else { directory_of(&current).join(link) };
            }
            _ => return Ok((current, None)),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Whether `path` names an entry of `/proc/<pid>/fd` or `/proc/<pid>/task/<tid>/fd` (reached
/// through `/dev/fd`, `/proc/self` or any other link to its folder).
fn descriptor_link(path: &Path) -> Option<Descriptor> {
    let fd: u32 = path.file_name()?.to_str()?.parse().ok()?;
    let folder = std::fs::canonicalize(directory_of(path)).ok()?;
    let parts: Vec<&str> = folder.iter().filter_map(|p| p.to_str()).collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let pid = match parts.as_slice() {
        ["/", "proc", pid, "fd"] if number(pid) => *pid,
        ["/", "proc", pid, "task", tid, "fd"] if number(pid) && number(tid) => *pid,
        _ => return None,
    };
    let own = pid.parse::<u32>().is_ok_and(|p| p == std::process::id());
    Some(if own && fd == 1 { Descriptor::Stdout } else { Descriptor::Other })
}

/// Writes `path` all at once or not at all (see [`Output::write`]).
pub fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    Output::resolve(path)?.write(write)
}

/// A file kept line by line as work finishes (`survey --resume`): a header line that names
/// the work, then one line per finished part. Each line is appended whole with one `write`
/// while the signal handler's lock is held, so SIGINT, SIGTERM and SIGHUP leave only whole
/// lines; a last line cut by anything else (a full disk, SIGKILL) is dropped on reopening and
/// its part done again.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens or creates `path` for `header`, returning the lines kept after the header. A file
    /// whose header is another is refused: it holds other work.
    pub fn open(path: &Path, header: &str) -> Result<(Journal, Vec<String>)> {
        let fail = |e: io::Error| Failure::Library(Error::io(path, e));
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(fail)?;
        if !file.metadata().map_err(fail)?.is_file() {
            return Err(usage(format!(
                "{}: not a regular file",
                nimcount::message::quote(&path.display().to_string())
            )));
        }
        let mut text = Vec::new();
        io::Read::read_to_end(&mut file, &mut text).map_err(fail)?;
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let kept = std::str::from_utf8(&text[..whole]).map_err(|_| {
            Failure::Library(Error::Malformed {
                path: path.display().to_string(),
                line: 0,
                reason: "not a text file of survey lines".into(),
            })
        })?;
        let mut lines = kept.lines();
        match lines.next() {
            None if text.is_empty() => {}
            Some(first) if first == header => {}
            _ => {
                return Err(Failure::Library(Error::Malformed {
                    path: path.display().to_string(),
                    line: 1,
                    reason: "it keeps another survey (other patterns or limits), or something else".into(),
                }));
            }
        }
        // Only now, the file known to be this survey's: drop a last line cut short.
        if whole < text.len() {
            file.set_len(whole as u64).map_err(fail)?;
        }
        let journal = Journal { file, path: path.to_path_buf() };
        if text.is_empty() {
            journal.append(header)?;
        }
        Ok((journal, lines.map(str::to_string).collect()))
    }

    /// Appends `line` and a newline, whole.
    pub fn append(&self, line: &str) -> Result<()> {
        let bytes = format!("{line}\n");
        let _held = temporary();
        (&self.file).write_all(bytes.as_bytes()).map_err(|e| Failure::Library(Error::io(&self.path, e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_links_are_recognised_through_dev_fd_and_proc_self() {
        assert_eq!(descriptor_link(Path::new("/proc/self/fd/1")), Some(Descriptor::Stdout));
        assert_eq!(descriptor_link(Path::new("/dev/fd/1")), Some(Descriptor::Stdout));
        assert_eq!(descriptor_link(Path::new("/proc/self/fd/2")), Some(Descriptor::Other));
        let (_, seen) = follow_links(Path::new("/dev/stdout")).unwrap();
        assert_eq!(seen, Some(Descriptor::Stdout));
        assert_eq!(descriptor_link(Path::new("/proc/self/fdinfo/1")), None);
        assert_eq!(descriptor_link(Path::new("/tmp/1")), None);
        assert_eq!(descriptor_link(Path::new("/proc/self/fd/x")), None);
    }

    #[test]
    fn a_new_file_and_a_replaced_file_appear_whole_with_the_old_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        write_atomically(&path, |out| out.write_all(b"one").map_err(|e| Error::io("x", e).into())).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, |out| out.write_all(b"two").map_err(|e| Error::io("x", e).into())).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        // A failed write leaves the old file and nothing else.
        let failed = write_atomically(&path, |out| {
            out.write_all(b"half").map_err(|e| Error::io("x", e))?;
            Err(usage("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["out.txt"]);
        assert!(temporary().iter().all(|p| !p.starts_with(dir.path())));
    }

    #[test]
    fn a_shared_file_is_renamed_into_place_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("slices.bin");
        let output = Output::resolve(&path).unwrap();
        let shared = output.share(7, 16).unwrap();
        let name = output.shared_name(7).unwrap();
        assert_eq!(std::fs::metadata(&name).unwrap().len(), 16);
        assert!(temporary().contains(&name));
        drop(shared);
        assert!(!name.exists() && !path.exists());
        let shared = output.share(7, 4).unwrap();
        std::fs::write(&name, b"abcd").unwrap();
        shared.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"abcd");
        assert!(!name.exists());
        assert!(!temporary().contains(&name));
    }
}
