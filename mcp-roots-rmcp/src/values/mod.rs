//! The bottom layer: plain values and conversions that know no call, no
//! session and no round. A refusal as a tool result (`denial`), how a body
//! stops (`stop`), a client's roots answer and the one conversion to a root
//! list (`answer`), why a call has no root (`empty`), the wire shapes of
//! rmcp's roots API (`legacy`; sending `roots/list` is the session's), and the
//! checks of an elicitation answer (`validate`, `format`).

pub(crate) mod answer;
pub(crate) mod denial;
pub(crate) mod empty;
pub(crate) mod format;
pub(crate) mod legacy;
pub(crate) mod needs;
pub(crate) mod stop;
pub(crate) mod validate;
