//! Work cut into parts, each part on a thread of its own: how a large
//! answer uses the machine's cores (a tree's text, a long string's escape).

/// The most threads one call's work uses.
pub(crate) const MAX_THREADS: usize = 4;

/// How many threads to use: one per core, at most [`MAX_THREADS`].
pub(crate) fn available() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_THREADS)
}

/// `f` of each part, in order: the first part on this thread, each other
/// on a thread of its own (none is started for a single part). A panic in
/// any part is this call's panic.
pub(crate) fn map<T: Sync, R: Send>(parts: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let Some((first, rest)) = parts.split_first() else {
        return Vec::new();
    };
    if rest.is_empty() {
        return vec![f(0, first)];
    }
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = rest
            .iter()
            .enumerate()
            .map(|(i, part)| scope.spawn(move || f(i + 1, part)))
            .collect();
        let mut out = Vec::with_capacity(parts.len());
        out.push(f(0, first));
        for handle in handles {
            out.push(
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_parts_order() {
        for n in [0, 1, 2, 3, 9] {
            let parts: Vec<usize> = (0..n).collect();
            let out = map(&parts, |i, &p| {
                assert_eq!(i, p);
                std::thread::current().id()
            });
            assert_eq!(out.len(), n);
            if n > 0 {
                assert_eq!(out[0], std::thread::current().id());
            }
        }
    }
}
