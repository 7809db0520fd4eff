//! The units of `net rate` and `net loss`, read and written as `tc` spells
//! them: rates in bits per second with SI prefixes (`500kbit`, `10mbit`,
//! `1gbit`; `kbps`, `mbps` are bytes per second), sizes in bytes with
//! binary prefixes (`256kb` is 262144 bytes, `4mb` 4 MiB; a bare number is
//! bytes), and a loss as a percentage (`5%`, `0.5%`, `5` alike).

/// Parts per million in 100 %.
const PPM: f64 = 1_000_000.0;

/// A plain decimal number (`10`, `0.5`): no sign, exponent, `inf` or `nan`.
fn decimal(text: &str) -> Option<f64> {
    let ok = !text.is_empty()
        && text.chars().all(|c| c.is_ascii_digit() || c == '.')
        && text.chars().filter(|c| *c == '.').count() <= 1
        && text.chars().any(|c| c.is_ascii_digit());
    ok.then(|| text.parse().ok()).flatten()
}

/// Splits `10mbit` into `10` and `mbit`.
fn split(text: &str) -> (&str, &str) {
    let at = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    text.split_at(at)
}

/// A whole number from `n × scale`, if it is one at least 1 and in range.
fn scaled(n: f64, scale: f64) -> Option<u64> {
    let v = (n * scale).round();
    (v >= 1.0 && v < u64::MAX as f64).then_some(v as u64)
}

/// `10mbit` as bits per second; `None` for anything else, or 0.
pub fn rate_bps(text: &str) -> Option<u64> {
    let lower = text.to_ascii_lowercase();
    let (n, unit) = split(&lower);
    let scale = match unit {
        "bit" => 1.0,
        "kbit" => 1e3,
        "mbit" => 1e6,
        "gbit" => 1e9,
        "tbit" => 1e12,
        "bps" => 8.0,
        "kbps" => 8e3,
        "mbps" => 8e6,
        "gbps" => 8e9,
        _ => return None,
    };
    scaled(decimal(n)?, scale)
}

/// `4mb` as bytes; `None` for anything else, or 0.
pub fn size_bytes(text: &str) -> Option<u64> {
    let lower = text.to_ascii_lowercase();
    let (n, unit) = split(&lower);
    let scale = match unit {
        "" | "b" => 1.0,
        "k" | "kb" => 1024.0,
        "m" | "mb" => 1024.0 * 1024.0,
        "g" | "gb" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    scaled(decimal(n)?, scale)
}

/// `5%` (or `5`) as parts per million, from 0 to 100 %.
pub fn loss_ppm(text: &str) -> Option<u32> {
    let n = decimal(text.strip_suffix('%').unwrap_or(text))?;
    (n <= 100.0).then(|| (n * PPM / 100.0).round() as u32)
}

/// Bits per second as `tc` prints a rate (`10mbit`, `1.5gbit`, `800bit`).
pub fn rate_text(bps: u64) -> String {
    let units = [(1e12, "tbit"), (1e9, "gbit"), (1e6, "mbit"), (1e3, "kbit")];
    for (scale, unit) in units {
        if bps as f64 >= scale {
            return format!("{}{unit}", trim(bps as f64 / scale));
        }
    }
    format!("{bps}bit")
}

/// Bytes as a size (`4mb`, `256kb`, `1500b`).
pub fn size_text(bytes: u64) -> String {
    let units = [(1u64 << 30, "gb"), (1 << 20, "mb"), (1 << 10, "kb")];
    for (scale, unit) in units {
        if bytes >= scale && bytes.is_multiple_of(scale) {
            return format!("{}{unit}", bytes / scale);
        }
    }
    format!("{bytes}b")
}

/// Parts per million as a percentage (`5%`, `0.5%`).
pub fn loss_text(ppm: u32) -> String {
    format!("{}%", trim(f64::from(ppm) * 100.0 / PPM))
}

/// A number with at most four decimals and no trailing zeros.
fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_sizes_and_losses_read_as_tc_reads_them() {
        assert_eq!(rate_bps("10mbit"), Some(10_000_000));
        assert_eq!(rate_bps("1gbit"), Some(1_000_000_000));
        assert_eq!(rate_bps("500kbit"), Some(500_000));
        assert_eq!(rate_bps("1.5Mbit"), Some(1_500_000));
        assert_eq!(rate_bps("1mbps"), Some(8_000_000));
        for bad in [
            "", "10", "0mbit", "-1mbit", "10 mbit", "1e3kbit", "infmbit", "mbit", "1..2mbit",
        ] {
            assert_eq!(rate_bps(bad), None, "{bad}");
        }
        assert_eq!(size_bytes("4mb"), Some(4 << 20));
        assert_eq!(size_bytes("256kb"), Some(256 << 10));
        assert_eq!(size_bytes("1500"), Some(1500));
        assert_eq!(size_bytes("0"), None);
        assert_eq!(size_bytes("4mbit"), None);
        assert_eq!(loss_ppm("5%"), Some(50_000));
        assert_eq!(loss_ppm("0.5%"), Some(5_000));
        assert_eq!(loss_ppm("100%"), Some(1_000_000));
        assert_eq!(loss_ppm("0"), Some(0));
        assert_eq!(loss_ppm("101%"), None);
        assert_eq!(loss_ppm("-1%"), None);
        assert_eq!(loss_ppm("5%%"), None);
    }

    #[test]
    fn they_print_back_as_written() {
        assert_eq!(rate_text(10_000_000), "10mbit");
        assert_eq!(rate_text(1_500_000_000), "1.5gbit");
        assert_eq!(rate_text(500_000), "500kbit");
        assert_eq!(rate_text(800), "800bit");
        assert_eq!(size_text(4 << 20), "4mb");
        assert_eq!(size_text(256 << 10), "256kb");
        assert_eq!(size_text(1500), "1500b");
        assert_eq!(size_text(1536 << 10), "1536kb");
        assert_eq!(loss_text(50_000), "5%");
        assert_eq!(loss_text(5_000), "0.5%");
    }
}
