//! Names for a quotient's elements: generators, normal forms and relations.
//!
//! The generators are the elements of the heaps `1, 2, …` that are not products of earlier
//! heaps' elements, named `a, b, c, …` in order (`g27, g28, …` past `z`). Each element is written
//! as its least word in the graded lexicographic order (fewest letters first, then the word with
//! more of the earlier generators). The words that are not normal forms are closed upward (if
//! `w = v` with `v < w` then `wu = vu` with `vu < wu`), so the relations `w = NF(w)` for the
//! minimal such words present the monoid: every word rewrites to its normal form.

use std::collections::{BTreeSet, HashMap};

use super::Quotient;

/// A presentation of a quotient (see the module [`present`](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    /// Each generator: its name and the first heap whose element it is.
    pub generators: Vec<(String, u64)>,
    /// The normal form of each element, as exponents of the generators.
    pub normal_forms: Vec<Vec<u32>>,
    /// The relations `w = v`, as exponents of the generators.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

impl Presentation {
    /// A word written out: `1`, `a`, `a^2 b`.
    pub fn word(&self, exponents: &[u32]) -> String {
        let parts: Vec<String> = exponents
            .iter()
            .zip(&self.generators)
            .filter(|(e, _)| **e > 0)
            .map(|(&e, (name, _))| if e == 1 { name.clone() } else { format!("{name}^{e}") })
            .collect();
        if parts.is_empty() { "1".into() } else { parts.join(" ") }
    }

    /// Element `a` by its normal form.
    pub fn element(&self, a: usize) -> String {
        self.word(&self.normal_forms[a])
    }
}

/// The `i`-th generator's name.
fn name(i: usize) -> String {
    match u8::try_from(i).ok().filter(|&i| i < 26) {
        Some(i) => char::from(b'a' + i).to_string(),
        None => format!("g{}", i + 1),
    }
}

/// The generators: (element, first heap), in heap order.
fn generators(q: &Quotient) -> Vec<(usize, u64)> {
    let mut reached: BTreeSet<usize> = BTreeSet::from([0]);
    let mut gens = Vec::new();
    for (h, &g) in q.phi.iter().enumerate() {
        let g = g as usize;
        if reached.contains(&g) {
            continue;
        }
        gens.push((g, h as u64));
        // The closure of what the generators so far reach.
        let mut frontier: Vec<usize> = reached.iter().copied().collect();
        while let Some(x) = frontier.pop() {
            for &(y, _) in &gens {
                let z = q.mul(x, y);
                if reached.insert(z) {
                    frontier.push(z);
                }
            }
        }
    }
    gens
}

/// Renumbers the elements: the identity 0, then in the order of their normal forms.
pub(super) fn relabel(q: &mut Quotient, identity: u32) {
    // Move the identity to 0 first, so that `generators` can start from it.
    let order = q.order;
    let mut perm: Vec<usize> = (0..order).collect();
    perm.swap(0, identity as usize);
    apply(q, &perm);
    let forms = normal_forms(q, &generators(q));
    let mut by_form: Vec<usize> = (0..order).collect();
    by_form.sort_by(|&a, &b| graded(&forms[a], &forms[b]));
    // by_form[new] = old; apply wants perm[old] = new.
    let mut perm = vec![0; order];
    for (new, &old) in by_form.iter().enumerate() {
        perm[old] = new;
    }
    apply(q, &perm);
}

/// Renames element `a` to `perm[a]` (`perm` a permutation).
fn apply(q: &mut Quotient, perm: &[usize]) {
    let n = q.order;
    let mut table = vec![0u32; n * n];
    let mut lost = vec![false; n];
    for a in 0..n {
        lost[perm[a]] = q.lost[a];
        for b in 0..n {
            table[perm[a] * n + perm[b]] = perm[q.table[a * n + b] as usize] as u32;
        }
    }
    q.table = table;
    q.lost = lost;
    q.phi.iter_mut().for_each(|g| *g = perm[*g as usize] as u32);
}

/// Graded lexicographic order: fewer letters first, then more of the earlier generators.
fn graded(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
    let total = |w: &[u32]| w.iter().map(|&e| u64::from(e)).sum::<u64>();
    total(a).cmp(&total(b)).then_with(|| b.cmp(a))
}

/// The least word of each element, found in graded lexicographic order.
fn normal_forms(q: &Quotient, gens: &[(usize, u64)]) -> Vec<Vec<u32>> {
    let r = gens.len();
    let mut forms: Vec<Option<Vec<u32>>> = vec![None; q.order];
    forms[0] = Some(vec![0; r]);
    let mut layer: Vec<(usize, Vec<u32>)> = vec![(0, vec![0; r])];
    while !layer.is_empty() {
        // Every word one letter longer than a normal form of the last layer, least first.
        let mut next: Vec<(usize, Vec<u32>)> = Vec::new();
        for (x, w) in &layer {
            for (i, &(g, _)) in gens.iter().enumerate() {
                let mut v = w.clone();
                v[i] += 1;
                next.push((q.mul(*x, g), v));
            }
        }
        next.sort_by(|a, b| graded(&a.1, &b.1));
        let mut fresh = Vec::new();
        for (x, v) in next {
            if forms[x].is_none() {
                forms[x] = Some(v.clone());
                fresh.push((x, v));
            }
        }
        layer = fresh;
    }
    forms.into_iter().map(|f| f.expect("the generators reach every element")).collect()
}

pub(super) fn present(q: &Quotient) -> Presentation {
    let gens = generators(q);
    let forms = normal_forms(q, &gens);
    let is_normal: HashMap<&[u32], usize> =
        forms.iter().enumerate().map(|(a, w)| (w.as_slice(), a)).collect();
    // Candidates: a normal form times one generator that is not a normal form; minimal when
    // every word one letter shorter inside it is normal.
    let mut relations: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    let mut seen: BTreeSet<Vec<u32>> = BTreeSet::new();
    for (a, w) in forms.iter().enumerate() {
        for (i, &(g, _)) in gens.iter().enumerate() {
            let mut v = w.clone();
            v[i] += 1;
            if is_normal.contains_key(v.as_slice()) || !seen.insert(v.clone()) {
                continue;
            }
            let minimal = (0..v.len()).filter(|&j| v[j] > 0).all(|j| {
                let mut u = v.clone();
                u[j] -= 1;
                is_normal.contains_key(u.as_slice())
            });
            if minimal {
                relations.push((v, forms[q.mul(a, g)].clone()));
            }
        }
    }
    relations.sort_by(|a, b| graded(&a.0, &b.0));
    let generators = gens.iter().enumerate().map(|(i, &(_, h))| (name(i), h)).collect();
    Presentation { generators, normal_forms: forms, relations }
}
