//! The original server's formats, in one place: what makes an answer look
//! like `@modelcontextprotocol/server-filesystem`'s, kept apart from what
//! the tools do. Each module is a plain function of values (no session, no
//! call): a tool's path argument as the original spells it (`paths`), its
//! result shapes and output schemas (`reply`), its input schemas
//! (`schemas`), its glob matching (`glob`),
//! its name order (`collate`), sizes (`size`) and dates (`time`).

pub(crate) mod collate;
pub(crate) mod glob;
pub(crate) mod paths;
pub(crate) mod reply;
pub(crate) mod schemas;
pub(crate) mod size;
pub(crate) mod time;
