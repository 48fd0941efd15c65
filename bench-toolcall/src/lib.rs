//! What the measuring programs of this package share.

/// The number after `name` on the command line `args`, or `default` when
/// it is absent or not a number.
pub fn flag(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
