//! A `tracing` subscriber that records each event as one line of a text
//! log: `LEVEL target: field=value ...`, string values written raw and `%`
//! fields through their `Display`, as a plain text log writes them.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// The recorded lines; clones share them.
#[derive(Clone, Default)]
pub(crate) struct Capture(Arc<Mutex<Vec<String>>>);

impl Capture {
    /// The lines recorded so far.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.0.lock().expect("lines").clone()
    }
}

struct Line<'a>(&'a mut String);

impl Visit for Line<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = write!(self.0, " {}={value}", field.name());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let mut line = format!("{} {}:", meta.level(), meta.target());
        event.record(&mut Line(&mut line));
        self.0.lock().expect("lines").push(line);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}
