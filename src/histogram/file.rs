//! Histogram files: one `value count` pair a line, or `lo..=hi count` for a range of values.

use std::collections::BTreeMap;
use std::path::Path;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use super::{Histogram, MAX_LOG2_LEN, log2_len_for};
use crate::error::{Error, Result};
use crate::input::Input;
use crate::message::{quote, short};

/// Memory per byte of a histogram file once parsed, at most: a line `0 1` (4 bytes) becomes a
/// value, a big-integer count and a table entry, about 64 bytes.
const BYTES_PER_TEXT_BYTE: u64 = 16;

/// The largest array a file of one-value lines is read into (2^24 slots); a file whose values
/// reach further, or whose counts have more than [`ARRAY_MAX_LIMBS`] 32-bit limbs, is kept as
/// one-point ranges (see [`Histogram::read`]).
const ARRAY_MAX_LOG2_LEN: u32 = 24;

/// The most 32-bit limbs of a count in a file read into an array (counts below 2^128).
const ARRAY_MAX_LIMBS: u64 = 4;

impl Histogram {
    /// Reads a histogram file: one `value count` pair a line, `#` starts a comment, blank lines
    /// are ignored. Values are Grundy values (non-negative integers); counts may have any size
    /// and use the notations of [`crate::number::parse`] (`10^12`, `2^64`, `1_000`).
    ///
    /// A line `lo..=hi count` gives the count to every value from `lo` to `hi` (bounds of any
    /// size): a file with such lines is a [structured](Histogram::is_structured) histogram,
    /// counted without one slot per value. So is a file of one-value lines whose values reach
    /// 2^24 or whose counts reach 2^128: each line `v count` is then the range `v..=v count`, and
    /// a value such as `2^40` (or `2^1000`) costs no table of 2^40 slots.
    ///
    /// A line that does not parse, a range with `lo > hi`, or a value given twice (alone or in
    /// overlapping ranges) is an [`Error::Malformed`] naming the line.
    /// A file without any line is an [`Error::Malformed`] too (an empty histogram has no heap
    /// sizes to count, which is almost always a mistake). A byte-order mark and CRLF line ends
    /// are accepted; `-` is standard input.
    ///
    /// A first line `# SPEC, heap sizes LO..=HI: …`, the header `nimcount grundy --sizes LO..=HI
    /// --histogram` writes, states how many heap sizes the counts add up to (`HI − LO + 1`): a
    /// file whose counts disagree (cut at a line end, or edited) is an [`Error::Malformed`]
    /// naming line 1. Other comments state nothing.
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("nimcount-doc-{}.txt", std::process::id()));
    /// std::fs::write(&path, "0 5\n1 2^70\n")?;
    /// let h = nimcount::histogram::Histogram::read(&path)?;
    /// assert_eq!(h.count(1), nimcount::number::parse("2^70")?);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let limit = crate::memory::available().unwrap_or(u64::MAX) / BYTES_PER_TEXT_BYTE;
        Histogram::read_input(&mut Input::open(path.as_ref(), limit)?)
    }

    /// Reads a histogram file from `input` (a file of known size, refused before reading when
    /// its parsed lines could not fit in memory, or a stream read up to its limit; see
    /// [`Input`]). A binary stream stops at its first line that is not text.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// use nimcount::input::Input;
    /// let mut input = Input::from_reader("\u{feff}0 5\r\n1 2^70\r\n".as_bytes(), "pipe", 1 << 20);
    /// assert_eq!(Histogram::read_input(&mut input)?.total(), &nimcount::number::parse("2^70+5")?);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    ///
    /// A text whose last line has no line end is refused as cut short ([`Error::Malformed`]
    /// naming that line): a pipe closed in the middle of a line (`head -c`) must not be counted
    /// as a smaller histogram. Every file nimcount writes ends with a line end.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// use nimcount::input::Input;
    /// let err = Histogram::read_input(&mut Input::from_reader("0 5\n1 2".as_bytes(), "pipe", 1 << 20))
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "pipe, line 2: the last line has no line end: the input was cut short");
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn read_input(input: &mut Input<'_>) -> Result<Self> {
        if let Some(size) = input.size() {
            input.ensure_fits("its parsed lines", size.saturating_mul(BYTES_PER_TEXT_BYTE))?;
        }
        let text = input.read_text()?;
        if !text.is_empty() && !text.ends_with('\n') {
            return Err(Error::Malformed {
                path: input.name().to_string(),
                line: text.lines().count(),
                reason: "the last line has no line end: the input was cut short".into(),
            });
        }
        Histogram::parse(&text, input.name())
    }

    /// Parses the text of a histogram file (see [`read`](Self::read)); `path` names it in
    /// errors.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let h = Histogram::parse("# value count\n0 10^20\n3 7 # three\n\n", "example.txt")?;
    /// assert_eq!(h.count(3).to_string(), "7");
    /// let err = Histogram::parse("0 1\n0 2\n", "dup.txt").unwrap_err();
    /// assert_eq!(err.to_string(), "dup.txt, line 2: value 0 is already given on line 1");
    /// // Ranges: every value of 1..=2^100 once, and 0 twice.
    /// let h = Histogram::parse("1..=2^100 1\n0 2\n", "ranges.txt")?;
    /// assert_eq!(h.log2_len(), 101);
    /// let err = Histogram::parse("1..=10 1\n5..=20 1\n", "overlap.txt").unwrap_err();
    /// assert_eq!(err.to_string(), "overlap.txt, line 2: values 5..=20 overlap 1..=10 on line 1");
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Self> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let malformed =
            |line: usize, reason: String| Error::Malformed { path: path.to_string(), line, reason };
        let mut first_line = std::collections::HashMap::new();
        let mut pairs = Vec::new();
        let mut ranges: Vec<(BigUint, BigUint, BigUint, usize)> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let fields: Vec<&str> = content.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(malformed(
                    line,
                    format!("expected 'value count', found {} field(s): '{}'", fields.len(), quote(content)),
                ));
            }
            let count =
                crate::number::parse(fields[1]).map_err(|e| malformed(line, format!("bad count: {e}")))?;
            if let Some((lo, hi)) = fields[0].split_once("..=") {
                let bound = |text: &str| {
                    crate::number::parse(text)
                        .map_err(|e| malformed(line, format!("bad range of values: {e}")))
                };
                let (lo, hi) = (bound(lo)?, bound(hi)?);
                if lo > hi {
                    let (lo, hi) = (short(&lo), short(&hi));
                    return Err(malformed(
                        line,
                        format!("empty range of values {lo}..={hi}: {lo} is above {hi}"),
                    ));
                }
                ranges.push((lo, hi, count, line));
                continue;
            }
            let value = crate::number::parse(fields[0])
                .map_err(|e| malformed(line, format!("bad Grundy value: {e}")))?;
            let Some(value) = value.to_u64() else {
                // A value beyond a word: a one-point range.
                ranges.push((value.clone(), value, count, line));
                continue;
            };
            if let Some(previous) = first_line.insert(value, line) {
                return Err(malformed(line, format!("value {value} is already given on line {previous}")));
            }
            pairs.push((value, count));
        }
        if pairs.is_empty() && ranges.is_empty() {
            return Err(malformed(0, "no 'value count' line: the histogram is empty".into()));
        }
        let histogram = Histogram::from_lines(pairs, ranges, &first_line, path)?;
        match stated_sizes(text) {
            Some((lo, hi)) if lo <= hi && *histogram.total() != &hi - &lo + 1u8 => Err(malformed(
                1,
                format!(
                    "the header states heap sizes {}..={} ({} of them), but the counts add up to {}: \
                     the input was cut short or edited",
                    short(&lo),
                    short(&hi),
                    short(&(&hi - &lo + 1u8)),
                    short(histogram.total())
                ),
            )),
            _ => Ok(histogram),
        }
    }

    /// The histogram of the parsed lines: one-value `pairs` (each first given on the line
    /// `first_line` holds) and `ranges` `(lo, hi, count, line)`, refusing a value given twice.
    fn from_lines(
        pairs: Vec<(u64, BigUint)>,
        ranges: Vec<(BigUint, BigUint, BigUint, usize)>,
        first_line: &std::collections::HashMap<u64, usize>,
        path: &str,
    ) -> Result<Self> {
        let malformed =
            |line: usize, reason: String| Error::Malformed { path: path.to_string(), line, reason };
        if ranges.is_empty() && fits_an_array(&pairs) {
            return Histogram::from_counts(pairs);
        }
        // Ranges and single values together: no value may be given twice. Sorted by their first
        // values, two lines share a value exactly when some neighbours do.
        let mut all: Vec<(BigUint, BigUint, BigUint, usize)> = ranges;
        all.extend(pairs.into_iter().map(|(v, c)| (v.into(), v.into(), c, first_line[&v])));
        all.sort_by(|a, b| (&a.0, a.3).cmp(&(&b.0, b.3)));
        for pair in all.windows(2) {
            if pair[1].0 > pair[0].1 {
                continue;
            }
            let (earlier, later) =
                if pair[0].3 < pair[1].3 { (&pair[0], &pair[1]) } else { (&pair[1], &pair[0]) };
            let values = |lo: &BigUint, hi: &BigUint| {
                let (lo, hi) = (short(lo), short(hi));
                if lo == hi { lo } else { format!("{lo}..={hi}") }
            };
            let (single, text) = (later.0 == later.1, values(&later.0, &later.1));
            let noun = if single { "value" } else { "values" };
            let reason = if (&earlier.0, &earlier.1) == (&later.0, &later.1) {
                let verb = if single { "is" } else { "are" };
                format!("{noun} {text} {verb} already given on line {}", earlier.3)
            } else {
                let verb = if single { "overlaps" } else { "overlap" };
                format!("{noun} {text} {verb} {} on line {}", values(&earlier.0, &earlier.1), earlier.3)
            };
            return Err(malformed(later.3, reason));
        }
        Histogram::from_intervals(all.into_iter().map(|(lo, hi, count, _)| (lo, hi, count)))
    }

    /// A histogram from `(value, count)` pairs of any size, kept as a file of one-value lines
    /// is (see [`read`](Histogram::read)): an array when the values and counts fit one, else
    /// one-point ranges, so that a value such as 2^63 costs no table. Repeated values add up.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let top = nimcount::number::parse("2^63")?;
    /// let h = Histogram::from_points(vec![(top.clone(), 1u8.into()), (0u8.into(), 1u8.into())])?;
    /// assert!(h.is_structured());
    /// assert_eq!((h.log2_len(), h.total().to_string()), (64, "2".to_string()));
    /// assert!(!Histogram::from_points(vec![(5u8.into(), 2u8.into())])?.is_structured());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_points(points: Vec<(BigUint, BigUint)>) -> Result<Self> {
        let words: Option<Vec<(u64, BigUint)>> =
            points.iter().map(|(v, c)| v.to_u64().map(|v| (v, c.clone()))).collect();
        if let Some(pairs) = words
            && fits_an_array(&pairs)
        {
            return Histogram::from_counts(pairs);
        }
        Histogram::from_intervals(points.into_iter().map(|(v, c)| (v.clone(), v, c)))
    }

    /// The counts as runs `(lo, hi, count)`: every value in `lo..=hi` has `count`, the runs
    /// increasing and disjoint, zero counts left out, neighbouring runs with different counts.
    /// These are the lines of a file [`read`](Histogram::read) reads back (`lo..=hi count`, or
    /// `value count` when `lo = hi`). A structured histogram gives its runs without an array,
    /// for values of any size: intervals as they are, power-of-two progressions (the values of
    /// games with a power-of-two saltus) as long runs where all their residues have one count,
    /// and a run a value where they differ (at the ends of the range); only progressions whose
    /// residues differ over more than 2^20 values are first made an array
    /// ([`to_array`](Histogram::to_array), which may not fit).
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// // G(n) = n mod 3 over 1..=7: values 1, 2, 0, 1, 2, 0, 1.
    /// let h = Histogram::from_values(&[0, 1, 2, 0, 1, 2, 0, 1], 1, 7)?;
    /// let runs: Vec<String> = h.runs()?.iter().map(|(lo, hi, c)| format!("{lo}..={hi} {c}")).collect();
    /// assert_eq!(runs, ["0..=0 2", "1..=1 3", "2..=2 2"]);
    /// let nim = Histogram::from_intervals([(1u8.into(), 100u8.into(), 1u8.into())])?;
    /// assert_eq!(nim.runs()?, [(1u8.into(), 100u8.into(), 1u8.into())]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn runs(&self) -> Result<Vec<(BigUint, BigUint, BigUint)>> {
        let mut runs = Vec::new();
        self.for_each_run(|lo, hi, count| {
            runs.push((lo, hi, count));
            Ok::<(), Error>(())
        })?;
        Ok(runs)
    }

    /// The runs of [`runs`](Histogram::runs), one at a time and in the same order, without a
    /// list of them: a writer streams them out (their numbers may have millions of digits each,
    /// and the runs be many), holding one run besides the histogram's own data. The first
    /// error of `run` stops the walk.
    pub fn for_each_run<E: From<Error>>(
        &self,
        mut run: impl FnMut(BigUint, BigUint, BigUint) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        // The sweep of progressions: their ends as changes of a count per residue, by q.
        let sweep = match self.progressions() {
            Some((shift, progressions)) if shift <= MAX_RUN_SHIFT => {
                let mut changes: BTreeMap<BigUint, Vec<(usize, BigUint, BigUint)>> = BTreeMap::new();
                for p in progressions {
                    let r = p.residue as usize;
                    changes.entry(p.lo.clone()).or_default().push((r, p.weight.clone(), BigUint::zero()));
                    changes.entry(&p.hi + 1u32).or_default().push((r, BigUint::zero(), p.weight.clone()));
                }
                // A stretch of mixed counts beyond MAX_MIXED_VALUES values: the array's runs,
                // decided before any run is given.
                let mut counts = vec![BigUint::zero(); 1usize << shift];
                let mut at: Option<&BigUint> = None;
                for (q, events) in &changes {
                    if let Some(start) = at.take()
                        && counts.iter().any(|c| *c != counts[0])
                        && (q - start) << shift > BigUint::from(MAX_MIXED_VALUES)
                    {
                        return self.to_array()?.for_each_run(run);
                    }
                    for (r, up, down) in events {
                        counts[*r] = &counts[*r] + up - down;
                    }
                    at = Some(q);
                }
                Some((shift, changes))
            }
            Some(_) => return self.to_array()?.for_each_run(run),
            None => None,
        };
        // The run not yet given: the next one may extend it.
        let mut pending: Option<(BigUint, BigUint, BigUint)> = None;
        let mut push = |lo: BigUint, hi: BigUint, count: BigUint| -> std::result::Result<(), E> {
            match &mut pending {
                Some((_, last, c)) if *c == count && *last == &lo - 1u32 => *last = hi,
                _ if count.is_zero() => {}
                _ => {
                    if let Some((lo, hi, count)) = pending.replace((lo, hi, count)) {
                        run(lo, hi, count)?;
                    }
                }
            }
            Ok(())
        };
        match sweep {
            Some((shift, changes)) => {
                // A sweep over the ends of the progressions `residue + 2^shift · q`, in q: +weight
                // where one starts, −weight after it ends, a count per residue in between. Where
                // every residue has the same count, one run covers the whole stretch of values
                // (Lasker's Nim over 1..=10^30: its values are a few runs); elsewhere, a run per
                // value, for a stretch of at most MAX_MIXED_VALUES of them.
                let residues = 1usize << shift;
                let mut counts = vec![BigUint::zero(); residues];
                let mut at: Option<BigUint> = None;
                for (q, events) in changes {
                    if let Some(start) = at.take() {
                        let (first, last) = (&start << shift, (&q << shift) - 1u32);
                        if counts.iter().all(|c| *c == counts[0]) {
                            push(first, last, counts[0].clone())?;
                        } else {
                            let mut value = first;
                            while value <= last {
                                let r = (&value & BigUint::from(residues as u64 - 1))
                                    .to_usize()
                                    .expect("a residue");
                                push(value.clone(), value.clone(), counts[r].clone())?;
                                value += 1u32;
                            }
                        }
                    }
                    for (r, up, down) in events {
                        counts[r] = &counts[r] + up - down;
                    }
                    at = Some(q);
                }
            }
            None => {
                let mut counts = vec![BigUint::zero(); self.transform_len()];
                for term in self.terms() {
                    let mut own = vec![0u64; counts.len()];
                    term.for_each(|g, c| own[g] += u64::from(c));
                    for (total, c) in counts.iter_mut().zip(own) {
                        if c != 0 {
                            *total += term.weight() * c;
                        }
                    }
                }
                for (g, count) in counts.into_iter().enumerate() {
                    push(BigUint::from(g), BigUint::from(g), count)?;
                }
            }
        }
        if let Some((lo, hi, count)) = pending {
            run(lo, hi, count)?;
        }
        Ok(())
    }

    /// At least the bytes of the runs written as lines `value count` or `lo..=hi count`, found
    /// without writing them: for a structured histogram of intervals a bound from its intervals
    /// (every line starts where an interval starts or just after one ends, and its count is a
    /// sum of weights), nothing made or copied; for the others the lines' lengths, each
    /// number's digits from its bits (at most one more than it has).
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let h = Histogram::from_values(&[0, 1, 2, 0, 1, 2, 0, 1], 1, 7)?;
    /// assert!(h.runs_text_bytes()? >= "0 2\n1 3\n2 2\n".len() as u64);
    /// let nim = Histogram::from_intervals([(1u8.into(), 100u8.into(), 7u8.into())])?;
    /// assert!(nim.runs_text_bytes()? >= "1..=100 7\n".len() as u64);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn runs_text_bytes(&self) -> Result<u64> {
        let digits = |bits: u64| (bits as f64 * std::f64::consts::LOG10_2) as u64 + 1;
        if let Some((0, progressions)) = self.progressions() {
            // A count is a sum of at most 2^64 weights.
            let count = digits(progressions.iter().map(|p| p.weight.bits()).max().unwrap_or(0) + 64);
            return Ok(progressions
                .iter()
                .map(|p| 2 * (digits(p.lo.bits()) + digits(p.hi.bits() + 1) + count + 5))
                .fold(0, u64::saturating_add));
        }
        let mut bytes = 0u64;
        self.for_each_run(|lo, hi, count| {
            let range = if lo == hi { digits(lo.bits()) } else { digits(lo.bits()) + 3 + digits(hi.bits()) };
            bytes = bytes.saturating_add(range + 1 + digits(count.bits()) + 1);
            Ok::<(), Error>(())
        })?;
        Ok(bytes)
    }
}

/// The heap sizes `LO..=HI` the first line of `text` states, when it is the header of an export
/// (`# SPEC, heap sizes LO..=HI: …`).
fn stated_sizes(text: &str) -> Option<(BigUint, BigUint)> {
    let first = text.lines().next()?.strip_prefix('#')?;
    let (_, after) = first.rsplit_once(", heap sizes ")?;
    let (lo, hi) = after.split_once(':')?.0.split_once("..=")?;
    Some((crate::number::parse(lo).ok()?, crate::number::parse(hi).ok()?))
}

/// The largest shift of progressions whose runs are found without an array.
const MAX_RUN_SHIFT: u32 = 16;

/// The most values of a stretch whose residues have different counts written one run a value
/// without an array.
const MAX_MIXED_VALUES: u64 = 1 << 20;

/// Whether one-value lines are read into an array: values below 2^[`ARRAY_MAX_LOG2_LEN`] and
/// counts of at most [`ARRAY_MAX_LIMBS`] limbs (else they are kept as one-point ranges).
fn fits_an_array(pairs: &[(u64, BigUint)]) -> bool {
    let top = pairs.iter().filter(|(_, c)| c.bits() > 0).map(|&(v, _)| v).max();
    let limbs = pairs.iter().map(|(_, c)| c.bits().div_ceil(32)).max().unwrap_or(0);
    log2_len_for(top).is_ok_and(|log2| log2 <= ARRAY_MAX_LOG2_LEN.min(MAX_LOG2_LEN))
        && limbs <= ARRAY_MAX_LIMBS
}
