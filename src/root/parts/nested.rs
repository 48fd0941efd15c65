//! The served directories a root physically contains
//! ([semantics 5](crate::semantics#5-containment-and-the-choice-of-root)):
//! the outermost root judges a path, and each other served directory
//! beneath it adds one more layer to that judgement at its place, so the
//! strictest answer wins. An inner read-only directory makes everything
//! at and beneath its place read-only; an inner directory's own layers
//! (its server layer, anchored where the operator anchored it, and the
//! set's own patterns, relative to it) judge the rest of the path below
//! its place.
//!
//! A root without such a directory carries no [`Nested`] at all: its
//! judgement is the same loop over its own layers as before.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use crate::parse::lexical::{fold, pieces};
use crate::root::parts::{Layer, Verdict, same_layers};
use crate::sys::Folding;

/// One served directory beneath a root: where it lies and what it adds.
#[derive(Debug, Clone)]
pub(crate) struct Nested {
    /// Its place below the outer root: physical names, folded as the
    /// outer root's volume compares them.
    place: Vec<Box<str>>,
    /// Whether it is served read-only (while the outer root is not).
    read_only: bool,
    /// Its own layers, judging the path below its place.
    layers: Vec<Layer>,
    /// How its volume compares names.
    folding: Folding,
    /// Its resolved path, for reporting.
    path: Arc<Path>,
}

impl Nested {
    /// The directory at `place` (a physical path below the outer root,
    /// `/`-separated, as the outer root's volume `outer` compares names),
    /// read-only or not, with its own `layers`, resolved at `path`. `None`
    /// when it adds nothing.
    pub(crate) fn new(
        path: &Path,
        place: &str,
        outer: Folding,
        read_only: bool,
        layers: Vec<Layer>,
        folding: Folding,
    ) -> Option<Self> {
        if !read_only && layers.is_empty() {
            return None;
        }
        let place = pieces(place)
            .filter(|c| !matches!(*c, "" | "."))
            .map(|c| fold(c, outer).into())
            .collect();
        Some(Self {
            place,
            read_only,
            layers,
            folding,
            path: path.into(),
        })
    }

    /// What this directory says of `rel` (below the outer root, `..`
    /// going back, every prefix passed through counted), the outer root's
    /// volume comparing names as `outer`.
    pub(crate) fn judge<'a>(&'a self, rel: &str, outer: Folding) -> Verdict<'a> {
        let (below, touched) = self.below(rel, outer);
        if !touched {
            return Verdict::Shared;
        }
        let mut read_only = None;
        for layer in &self.layers {
            let (hidden, ro) = layer.judge(below.iter().copied(), self.folding);
            if let Some(pattern) = hidden {
                return Verdict::Hidden(pattern);
            }
            read_only = read_only.or(ro);
        }
        match read_only {
            Some(pattern) => Verdict::ReadOnly(pattern),
            None if self.read_only => Verdict::ReadOnlyDir,
            None => Verdict::Shared,
        }
    }

    /// What a rename of `rel` (below the outer root) would carry along of
    /// this directory: all of it when `rel` holds its place (refused when
    /// it is read-only, or when one of its layers can match something
    /// beneath it), else what its layers can match beneath the rest of
    /// `rel` below its place.
    pub(crate) fn beneath<'a>(&'a self, rel: &str, outer: Folding) -> Verdict<'a> {
        let names: Vec<Cow<'_, str>> = normalized(rel, outer);
        let holds = names.len() < self.place.len()
            && names.iter().zip(&self.place).all(|(a, b)| **a == **b);
        let inside = names.len() >= self.place.len()
            && self.place.iter().zip(&names).all(|(a, b)| **a == **b);
        if holds && self.read_only {
            return Verdict::ReadOnlyDir;
        }
        if !holds && !inside {
            return Verdict::Shared;
        }
        let rest: Vec<&str> = match inside {
            true => names[self.place.len()..].iter().map(|c| &**c).collect(),
            false => Vec::new(),
        };
        let mut read_only = None;
        for layer in &self.layers {
            match layer.beneath(rest.iter().copied(), self.folding) {
                Some((true, pattern)) => return Verdict::Hidden(pattern),
                Some((false, pattern)) => read_only = read_only.or(Some(pattern)),
                None => {}
            }
        }
        match read_only {
            Some(pattern) => Verdict::ReadOnly(pattern),
            None if inside && self.read_only => Verdict::ReadOnlyDir,
            None => Verdict::Shared,
        }
    }

    /// Whether the entry `name` of the directory `dir` (a physical path
    /// below the outer root) lies below this directory's place and is
    /// hidden by one of its layers.
    pub(crate) fn hides_entry(&self, dir: &str, name: &str, outer: Folding) -> bool {
        if self.layers.is_empty() {
            return false;
        }
        let mut names = pieces(dir).filter(|c| !matches!(*c, "" | "."));
        for place in &self.place {
            match names.next() {
                Some(c) if *fold(c, outer) == **place => {}
                // The entry is the place itself or lies elsewhere: the
                // directory's layers never hide their own root.
                _ => return false,
            }
        }
        let rest: Vec<&str> = names.collect();
        let rest = rest.join("/");
        self.layers
            .iter()
            .any(|layer| layer.hides_entry(&rest, name, self.folding))
    }

    /// This layer, given to a root at `below` (physical names below the
    /// directory that holds this layer, folded as it compares names): its
    /// place moved up by `below` when the root holds it, or the whole root
    /// covered when the root lies at or beneath its place (its patterns then
    /// judge the root's paths from where the root lies in it). `Ok(None)`
    /// when the two are apart.
    ///
    /// # Errors
    ///
    /// The hide pattern of this layer that hides the root itself.
    pub(crate) fn rebased(&self, below: &[Box<str>]) -> Result<Option<Self>, Box<str>> {
        let common = self.place.iter().zip(below).take_while(|(a, b)| a == b);
        let common = common.count();
        if common < self.place.len().min(below.len()) {
            return Ok(None);
        }
        if below.len() <= self.place.len() {
            return Ok(Some(Self {
                place: self.place[below.len()..].to_vec(),
                ..self.clone()
            }));
        }
        let rest: Vec<&str> = below[self.place.len()..].iter().map(|c| &**c).collect();
        let layers = self
            .layers
            .iter()
            .map(|layer| layer.moved_down(&rest.join("/"), self.folding))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Self {
            place: Vec::new(),
            layers,
            ..self.clone()
        }))
    }

    /// Its resolved path when it is served read-only inside the root.
    pub(crate) fn read_only_path(&self) -> Option<&Path> {
        self.read_only.then_some(&*self.path)
    }

    /// The same place, flag and layers.
    pub(crate) fn same_as(&self, other: &Nested) -> bool {
        self.place == other.place
            && self.read_only == other.read_only
            && self.folding == other.folding
            && same_layers(&self.layers, &other.layers)
    }

    /// The components of `rel` relative to this directory's place, in the
    /// order a walk of `rel` from the outer root passes them (`..` when it
    /// goes back up while below the place), and whether the walk ever
    /// stood at or below the place.
    fn below<'a>(&self, rel: &'a str, outer: Folding) -> (Vec<&'a str>, bool) {
        let mut stack: Vec<Cow<'a, str>> = Vec::new();
        let mut out = Vec::new();
        let mut touched = false;
        let at_or_below = |stack: &[Cow<'_, str>]| {
            stack.len() >= self.place.len() && self.place.iter().zip(stack).all(|(a, b)| **a == **b)
        };
        for component in pieces(rel) {
            match component {
                "" | "." => {}
                ".." => {
                    if stack.len() > self.place.len() && at_or_below(&stack) {
                        out.push("..");
                    }
                    stack.pop();
                }
                name => {
                    stack.push(fold(name, outer));
                    if at_or_below(&stack) {
                        touched = true;
                        if stack.len() > self.place.len() {
                            out.push(name);
                        }
                    }
                }
            }
        }
        (out, touched || self.place.is_empty())
    }
}

/// The folded names of `rel` after its `..` went back.
fn normalized(rel: &str, outer: Folding) -> Vec<Cow<'_, str>> {
    let mut names = Vec::new();
    for component in pieces(rel) {
        match component {
            "" | "." => {}
            ".." => {
                names.pop();
            }
            name => names.push(fold(name, outer)),
        }
    }
    names
}
