//! The fifth layer: where a call's roots come from. One session's roots,
//! kept in sync with the client (`roots`: `SessionRoots`, `roots/list`
//! after `initialize` and on `list_changed`, sent by `list`), a request's own roots on
//! 2026-07-28 (`input_required`: the roots input request, its answer
//! applied to the policy, and the form input requests), and what a process
//! that serves one client remembers of it across those requests
//! (`process`), and what a session remembers of the grant questions it
//! asked the user (`asking`: the "no"s, the rate, the questions in flight). Above the rounds and the questions it carries, below the
//! tool bodies that use it.

pub(crate) mod asking;
pub(crate) mod input_required;
pub(crate) mod list;
pub(crate) mod process;
pub(crate) mod roots;
