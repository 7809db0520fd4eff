//! etcdctl's pure text printers (spec §4.3, §4.4).
//!
//! This module owns the byte-exact text that etcdctl 3.4.23 produces for
//! values, independent of any cluster state:
//! * [`table`]: `-w table` output, as drawn by olekukonko/tablewriter at
//!   `a0225b3f23b5` (the revision etcd 3.4 pins);
//! * [`humanize_bytes`]: the `DB SIZE` / `TOTAL SIZE` cells (go-humanize
//!   `Bytes`);
//! * [`go_duration`]: Go's `time.Duration.String()`, as in `took = 1.45ms`.
//!
//! Deliberate deviations from tablewriter, all invisible in etcdctl's tables
//! (where every header is at least 2 and at most 18 characters, and every row
//! has one cell per header), chosen so that any input gives an aligned table:
//! * a header wider than 30 characters widens its column (tablewriter caps the
//!   width and then overflows the border);
//! * the blank lines under a short cell of a wrapped row are padded to the
//!   column width (tablewriter pads with two spaces, which overflows a column
//!   of width 0 or 1);
//! * a row shorter than the widest row is padded with empty cells, and
//!   columns beyond the header get blank titles (tablewriter prints a ragged
//!   row, or panics).

/// tablewriter's `MAX_ROW_WIDTH`: cells wider than this are word-wrapped.
const MAX_CELL_WIDTH: usize = 30;
/// tablewriter's `defaultPenalty` for a line longer than the limit.
const OVERLONG_PENALTY: i64 = 100_000;

/// olekukonko/tablewriter (a0225b3f23b5) as etcdctl uses it: SetHeader, Append rows, SetAlignment(ALIGN_RIGHT), Render. Returns the full text, every line ending in '\n'.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).fold(header.len(), usize::max);
    let mut widths: Vec<usize> = (0..columns)
        .map(|c| header.get(c).map_or(0, |h| display_width(h)))
        .collect();
    // Cells are laid out in Append order: each one wraps at the column
    // width known so far, as tablewriter's parseDimension does.
    let laid_out: Vec<Vec<Vec<String>>> = rows
        .iter()
        .map(|row| {
            widths
                .iter_mut()
                .enumerate()
                .map(|(c, width)| lay_out_cell(row.get(c).map_or("", String::as_str), width))
                .collect()
        })
        .collect();

    let border = border_line(&widths);
    let mut out = border.clone();
    if !header.is_empty() {
        out.push_str(&header_line(header, &widths));
        out.push_str(&border);
    }
    for row in &laid_out {
        out.push_str(&row_lines(row, &widths));
    }
    out.push_str(&border);
    out
}

/// go-humanize `Bytes()`, shared with the server's snapshot lines.
pub use crate::sim::etcd::snapshot_transfer::humanize_bytes;

pub use crate::sim::etcd::logfmt::go_duration;

/// tablewriter's `DisplayWidth`, for the text etcdctl prints: one column per
/// character, none for control characters.
fn display_width(s: &str) -> usize {
    s.chars().filter(|c| !c.is_control()).count()
}

/// tablewriter's `parseDimension` for a data cell: widen the column to the
/// cell (at most 30), wrap the cell at the column width, then widen the
/// column to the longest wrapped line (a long single word).
fn lay_out_cell(cell: &str, width: &mut usize) -> Vec<String> {
    *width = (*width).max(display_width(cell).min(MAX_CELL_WIDTH));
    let lines = wrap_string(cell, *width);
    let longest = lines.iter().map(|l| display_width(l)).max().unwrap_or(0);
    *width = (*width).max(longest);
    lines
}

/// tablewriter's `WrapString`: split at single spaces (newlines count as
/// spaces), raise the limit to the longest word, wrap with minimal
/// raggedness.
fn wrap_string(s: &str, limit: usize) -> Vec<String> {
    let text = s.replace('\n', " ");
    let words: Vec<&str> = text.split(' ').collect();
    let widths: Vec<usize> = words.iter().map(|w| display_width(w)).collect();
    let limit = widths.iter().copied().fold(limit, usize::max);
    line_breaks(&widths, limit)
        .windows(2)
        .map(|pair| words.get(pair[0]..pair[1]).unwrap_or_default().join(" "))
        .collect()
}

/// tablewriter's `WrapWords` with one space between words: the cost of a
/// line is the square of its shortfall from `limit` (plus a penalty when
/// it is too long), the last line is free, and the total is minimal.
/// Returns the word index at which each line starts, then `words.len()`.
fn line_breaks(word_widths: &[usize], limit: usize) -> Vec<usize> {
    let n = word_widths.len();
    let mut prefix = vec![0usize; n + 1];
    for (i, w) in word_widths.iter().enumerate() {
        prefix[i + 1] = prefix[i] + w;
    }
    // Width of words i..=j joined by single spaces.
    let span = |i: usize, j: usize| prefix[j + 1] - prefix[i] + (j - i);
    let limit_i = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut cost = vec![i64::MAX; n];
    let mut next = vec![n; n];
    for i in (0..n).rev() {
        if span(i, n - 1) <= limit {
            cost[i] = 0;
            continue;
        }
        next[i] = i + 1;
        for j in i + 1..n {
            let line = span(i, j - 1);
            let shortfall = limit_i - i64::try_from(line).unwrap_or(i64::MAX);
            let mut c = shortfall.saturating_mul(shortfall).saturating_add(cost[j]);
            if line > limit {
                c = c.saturating_add(OVERLONG_PENALTY);
            }
            if c < cost[i] {
                cost[i] = c;
                next[i] = j;
            }
        }
    }
    let mut starts = vec![0];
    let mut i = 0;
    while i < n {
        i = next[i].max(i + 1);
        starts.push(i);
    }
    starts
}

/// tablewriter's `Title`: `_` and `.` become spaces, then trim and upper-case.
fn title(header: &str) -> String {
    header.replace(['_', '.'], " ").trim().to_uppercase()
}

/// `+` at each junction and `width + 2` dashes per column.
fn border_line(widths: &[usize]) -> String {
    let mut line = String::from("+");
    for &w in widths {
        line.push_str(&"-".repeat(w + 2));
        line.push('+');
    }
    line.push('\n');
    line
}

/// The header row: titles centred, an odd gap's extra space on the right.
fn header_line(header: &[&str], widths: &[usize]) -> String {
    let mut line = String::from("|");
    for (c, &w) in widths.iter().enumerate() {
        let text = title(header.get(c).copied().unwrap_or(""));
        let gap = w.saturating_sub(display_width(&text));
        let left = gap / 2;
        line.push(' ');
        line.push_str(&" ".repeat(left));
        line.push_str(&text);
        line.push_str(&" ".repeat(gap - left));
        line.push_str(" |");
    }
    line.push('\n');
    line
}

/// One data row, as many text lines as its tallest cell, cells right-aligned.
fn row_lines(cells: &[Vec<String>], widths: &[usize]) -> String {
    let height = cells.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let mut out = String::new();
    for x in 0..height {
        out.push('|');
        for (cell, &w) in cells.iter().zip(widths) {
            let text = cell.get(x).map_or("", String::as_str);
            out.push(' ');
            out.push_str(&" ".repeat(w.saturating_sub(display_width(text))));
            out.push_str(text);
            out.push_str(" |");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::shell::etcdctl::{
        MEMBER_HEADER as MEMBER_LIST_HEADER, STATUS_HEADER as ENDPOINT_STATUS_HEADER,
    };
    const ENDPOINT_HEALTH_HEADER: [&str; 4] = ["Endpoint", "Health", "Took", "Error"];

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|c| c.to_string()).collect()
    }

    fn status_row(
        ep: &str,
        id: &str,
        size: &str,
        leader: &str,
        idx: &str,
        err: &str,
    ) -> Vec<String> {
        row(&[ep, id, "3.4.23", size, leader, "false", "2", idx, idx, err])
    }

    /// Transcript 01, `member list -w table`.
    #[test]
    fn member_list_single_node() {
        #[rustfmt::skip]
        let rows = [row(&["b71f75320dc06a6c", "started", "node01", "http://127.0.0.1:2380", "http://127.0.0.1:2379", "false"])];
        let want = "\
+------------------+---------+--------+-----------------------+-----------------------+------------+
|        ID        | STATUS  |  NAME  |      PEER ADDRS       |     CLIENT ADDRS      | IS LEARNER |
+------------------+---------+--------+-----------------------+-----------------------+------------+
| b71f75320dc06a6c | started | node01 | http://127.0.0.1:2380 | http://127.0.0.1:2379 |      false |
+------------------+---------+--------+-----------------------+-----------------------+------------+
";
        assert_eq!(table(&MEMBER_LIST_HEADER, &rows), want);
    }

    /// Transcript 01, `endpoint status -w table`.
    #[test]
    fn endpoint_status_single_node() {
        #[rustfmt::skip]
        let rows = [status_row("http://127.0.0.1:2379", "b71f75320dc06a6c", "20 kB", "true", "4", "")];
        let want = "\
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
|       ENDPOINT        |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
| http://127.0.0.1:2379 | b71f75320dc06a6c |  3.4.23 |   20 kB |      true |      false |         2 |          4 |                  4 |        |
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
";
        assert_eq!(table(&ENDPOINT_STATUS_HEADER, &rows), want);
    }

    /// Transcript 01, `endpoint health -w table` (TOOK is a Go duration).
    #[test]
    fn endpoint_health_single_node() {
        let took = go_duration(1_458_447);
        let rows = [row(&["http://127.0.0.1:2379", "true", &took, ""])];
        let want = "\
+-----------------------+--------+------------+-------+
|       ENDPOINT        | HEALTH |    TOOK    | ERROR |
+-----------------------+--------+------------+-------+
| http://127.0.0.1:2379 |   true | 1.458447ms |       |
+-----------------------+--------+------------+-------+
";
        assert_eq!(table(&ENDPOINT_HEALTH_HEADER, &rows), want);
    }

    /// Transcript 09-partitions-01, `endpoint health --cluster -w table`
    /// with one failed endpoint.
    #[test]
    fn endpoint_health_with_error() {
        #[rustfmt::skip]
        let rows = [
            row(&["http://10.200.0.2:2379", "true", &go_duration(2_127_976), ""]),
            row(&["http://10.200.0.3:2379", "true", &go_duration(2_198_331), ""]),
            row(&["http://10.200.0.1:2379", "false", &go_duration(5_001_058_044), "context deadline exceeded"]),
        ];
        let want = "\
+------------------------+--------+--------------+---------------------------+
|        ENDPOINT        | HEALTH |     TOOK     |           ERROR           |
+------------------------+--------+--------------+---------------------------+
| http://10.200.0.2:2379 |   true |   2.127976ms |                           |
| http://10.200.0.3:2379 |   true |   2.198331ms |                           |
| http://10.200.0.1:2379 |  false | 5.001058044s | context deadline exceeded |
+------------------------+--------+--------------+---------------------------+
";
        assert_eq!(table(&ENDPOINT_HEALTH_HEADER, &rows), want);
    }

    /// Transcript 02, `endpoint status -w table` during quorum loss.
    #[test]
    fn endpoint_status_no_leader() {
        #[rustfmt::skip]
        let rows = [status_row("http://127.0.0.1:2379", "b71f75320dc06a6c", "20 kB", "false", "6", "etcdserver: no leader")];
        let want = "\
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+-----------------------+
|       ENDPOINT        |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX |        ERRORS         |
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+-----------------------+
| http://127.0.0.1:2379 | b71f75320dc06a6c |  3.4.23 |   20 kB |     false |      false |         2 |          6 |                  6 | etcdserver: no leader |
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+-----------------------+
";
        assert_eq!(table(&ENDPOINT_STATUS_HEADER, &rows), want);
    }

    /// Spec §4.2, `member list -w table` with an unstarted learner.
    #[test]
    fn member_list_four_rows() {
        let member = |id: &str, n: &str, learner: &str| {
            let peer = format!("http://127.0.10.{n}:2380");
            let client = format!("http://127.0.10.{n}:2379");
            row(&[id, "started", &format!("etcd-{n}"), &peer, &client, learner])
        };
        #[rustfmt::skip]
        let rows = [
            member("243d7a69dd304ba3", "3", "false"),
            member("3782ebeebd7ff322", "2", "false"),
            member("8f94de6178459e0d", "1", "false"),
            row(&["c19f4ee6810d7719", "unstarted", "", "http://127.0.10.4:2380", "", "true"]),
        ];
        let want = "\
+------------------+-----------+--------+------------------------+------------------------+------------+
|        ID        |  STATUS   |  NAME  |       PEER ADDRS       |      CLIENT ADDRS      | IS LEARNER |
+------------------+-----------+--------+------------------------+------------------------+------------+
| 243d7a69dd304ba3 |   started | etcd-3 | http://127.0.10.3:2380 | http://127.0.10.3:2379 |      false |
| 3782ebeebd7ff322 |   started | etcd-2 | http://127.0.10.2:2380 | http://127.0.10.2:2379 |      false |
| 8f94de6178459e0d |   started | etcd-1 | http://127.0.10.1:2380 | http://127.0.10.1:2379 |      false |
| c19f4ee6810d7719 | unstarted |        | http://127.0.10.4:2380 |                        |       true |
+------------------+-----------+--------+------------------------+------------------------+------------+
";
        assert_eq!(table(&MEMBER_LIST_HEADER, &rows), want);
    }

    /// Spec §4.3, `endpoint status --cluster -w table`, three members.
    #[test]
    fn endpoint_status_three_members() {
        #[rustfmt::skip]
        let rows = [
            status_row("http://127.0.10.1:2379", "8f94de6178459e0d", "20 kB", "false", "8", ""),
            status_row("http://127.0.10.2:2379", "3782ebeebd7ff322", "20 kB", "false", "8", ""),
            status_row("http://127.0.10.3:2379", "243d7a69dd304ba3", "25 kB", "true", "8", ""),
        ];
        let want = "\
+------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
|        ENDPOINT        |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |
+------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
| http://127.0.10.1:2379 | 8f94de6178459e0d |  3.4.23 |   20 kB |     false |      false |         2 |          8 |                  8 |        |
| http://127.0.10.2:2379 | 3782ebeebd7ff322 |  3.4.23 |   20 kB |     false |      false |         2 |          8 |                  8 |        |
| http://127.0.10.3:2379 | 243d7a69dd304ba3 |  3.4.23 |   25 kB |      true |      false |         2 |          8 |                  8 |        |
+------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
";
        assert_eq!(table(&ENDPOINT_STATUS_HEADER, &rows), want);
    }

    /// Transcripts 06 and 07: every endpoint failed, header only.
    #[test]
    fn endpoint_status_empty() {
        let want = "\
+----------+----+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
| ENDPOINT | ID | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |
+----------+----+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
+----------+----+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
";
        assert_eq!(table(&ENDPOINT_STATUS_HEADER, &[]), want);
    }

    /// Transcript 06, `snapshot status -w table` (a 7-digit `%x` hash).
    #[test]
    fn snapshot_status() {
        let rows = [row(&["92f0ce3", "3", "9", &humanize_bytes(20_480)])];
        let want = "\
+---------+----------+------------+------------+
|  HASH   | REVISION | TOTAL KEYS | TOTAL SIZE |
+---------+----------+------------+------------+
| 92f0ce3 |        3 |          9 |      20 kB |
+---------+----------+------------+------------+
";
        assert_eq!(
            table(&["Hash", "Revision", "Total Keys", "Total Size"], &rows),
            want
        );
    }

    /// No recorded table wraps a cell, so this one is derived from
    /// tablewriter's algorithm (checked against a line-by-line port of it):
    /// the cell widens ERRORS to 30, wraps at 30 with minimal raggedness, and
    /// the other cells stay on the first line.
    #[test]
    fn long_errors_cell_wraps() {
        #[rustfmt::skip]
        let rows = [status_row("http://127.0.0.1:2379", "b71f75320dc06a6c", "20 kB", "false", "6", "etcdserver: no leader, etcdserver: request timed out")];
        let want = "\
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------------------------------+
|       ENDPOINT        |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX |             ERRORS             |
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------------------------------+
| http://127.0.0.1:2379 | b71f75320dc06a6c |  3.4.23 |   20 kB |     false |      false |         2 |          6 |                  6 |         etcdserver: no leader, |
|                       |                  |         |         |           |            |           |            |                    |  etcdserver: request timed out |
+-----------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------------------------------+
";
        assert_eq!(table(&ENDPOINT_STATUS_HEADER, &rows), want);
    }

    #[test]
    fn minimal_raggedness_beats_greedy() {
        // Greedy filling at 30 would end line one after "aa" (22 wide, then 19).
        let lines = wrap_string(
            "fffffff ccccc aaaaa aa hhhhhhhh ffffffffff aaaaaaaaaaaa",
            30,
        );
        assert_eq!(
            lines,
            [
                "fffffff ccccc aaaaa",
                "aa hhhhhhhh ffffffffff",
                "aaaaaaaaaaaa"
            ]
        );
    }

    #[test]
    fn long_single_word_widens_column() {
        let word = "x".repeat(35);
        let rows = [row(&[&format!("{word} y")])];
        let dashes = "-".repeat(37);
        let want = format!(
            "+{dashes}+\n| {title:^35} |\n+{dashes}+\n| {word} |\n| {y:>35} |\n+{dashes}+\n",
            title = "H",
            y = "y",
        );
        assert_eq!(table(&["h"], &rows), want);
    }

    #[test]
    fn header_title_and_centering() {
        assert_eq!(title(" raft_applied.index "), "RAFT APPLIED INDEX");
        // Width comes from the raw header; the odd gap goes to the right.
        let text = table(&["a_b", "Status"], &[row(&["x", "unstarted"])]);
        assert!(text.contains("| A B |  STATUS   |\n"), "{text}");
    }

    #[test]
    fn ragged_and_empty_inputs_do_not_panic() {
        assert_eq!(table(&[], &[]), "+\n+\n");
        assert_eq!(table(&[], &[row(&["a"])]), "+---+\n| a |\n+---+\n");
        let short = table(&["a", "b"], &[row(&["x"])]);
        assert_eq!(
            short,
            "+---+---+\n| A | B |\n+---+---+\n| x |   |\n+---+---+\n"
        );
        let long = table(&["a"], &[row(&["x", "yy"])]);
        assert_eq!(
            long,
            "+---+----+\n| A |    |\n+---+----+\n| x | yy |\n+---+----+\n"
        );
        let odd = table(&[""], &[row(&["  two  spaces \n newline "]), row(&[""])]);
        assert!(odd.ends_with("+\n"), "{odd}");
    }

    #[test]
    fn humanize_bytes_examples() {
        let cases = [
            (0, "0 B"),
            (9, "9 B"),
            (10, "10 B"),
            (999, "999 B"),
            (1000, "1.0 kB"),
            (1049, "1.0 kB"),
            (1050, "1.1 kB"),
            (9999, "10 kB"),
            (20_480, "20 kB"),
            (24_576, "25 kB"),
            // "%.0f" rounds an exact half to even, as Go's fmt does
            (20_500, "20 kB"),
            (21_500, "22 kB"),
            (999_999, "1000 kB"),
            (1_048_576, "1.0 MB"),
            (82_854_982, "83 MB"),
            (u64::MAX, "18 EB"),
        ];
        for (n, want) in cases {
            assert_eq!(humanize_bytes(n), want, "{n}");
        }
    }

    #[test]
    fn go_duration_examples() {
        let cases = [
            (0, "0s"),
            (1, "1ns"),
            (999, "999ns"),
            (1_500, "1.5µs"),
            (850_000, "850µs"),
            (1_094_543, "1.094543ms"),
            (300_000_000, "300ms"),
            (1_500_000_000, "1.5s"),
            (2_000_000_000, "2s"),
            (5_001_058_044, "5.001058044s"),
            (60_000_000_000, "1m0s"),
            (61_500_000_000, "1m1.5s"),
            (3_600_000_000_000, "1h0m0s"),
            (3_723_000_000_001, "1h2m3.000000001s"),
            (u64::MAX, "5124095h34m33.709551615s"),
        ];
        for (n, want) in cases {
            assert_eq!(go_duration(n), want, "{n}");
        }
    }
}
