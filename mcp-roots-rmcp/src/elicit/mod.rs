//! The fourth layer: questions to the user on rmcp's own types, asked by
//! hand. Forms, their validated answers and typed outcomes (`elicitor`:
//! `Elicitor`, `Form`, `Outcome`, `ElicitError`), and URL mode with its
//! error and completion notification (`url`). Above the call (a question
//! belongs to one), below the session and the tool bodies that ask.

pub(crate) mod elicitor;
pub(crate) mod url;
