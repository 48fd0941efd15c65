//! Sizes as the original prints them (`formatSize`): `0 B`, `512 B`,
//! `1.50 KB`, … up to TB, two decimals.

const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];

pub(crate) fn format_size(bytes: u64) -> String {
    if bytes == 0 {
        return "0 B".to_owned();
    }
    let b = bytes as f64;
    let i = (b.ln() / 1024f64.ln()).floor() as usize;
    if i == 0 {
        return format!("{bytes} B");
    }
    let unit = i.min(UNITS.len() - 1);
    // toFixed(2): the nearer of two hundredths, the larger on a tie.
    let hundredths = (b / 1024f64.powi(unit as i32) * 100.0).round() as u64;
    format!(
        "{}.{:02} {}",
        hundredths / 100,
        hundredths % 100,
        UNITS[unit]
    )
}

#[cfg(test)]
mod tests {
    use super::format_size;

    #[test]
    fn sizes() {
        for (n, want) in [
            (0, "0 B"),
            (1, "1 B"),
            (1023, "1023 B"),
            (1024, "1.00 KB"),
            (1536, "1.50 KB"),
            (1152, "1.13 KB"),
            (1024 * 1024, "1.00 MB"),
            (5 * 1024 * 1024 * 1024, "5.00 GB"),
            (3 << 50, "3072.00 TB"),
        ] {
            assert_eq!(format_size(n), want, "{n}");
        }
    }
}
