//! Client histories of the key-value store and a linearizability checker.
//!
//! When asked (`World::record_history`), the world records every put, delete
//! and linearizable get a client sends: when it was sent, when (and whether)
//! it was answered, and what a get read. An operation that got no answer
//! (a timeout, an error) may or may not have taken effect: a write then counts
//! as pending for ever, a read as unobserved.
//!
//! [`check`] says whether the history is linearizable: each key on its own (a
//! register; linearizability composes), by a Wing–Gong search with memory of
//! the states already tried (Lowe's improvement, as Knossos and Porcupine do).

use std::collections::{BTreeMap, BTreeSet};

/// What an operation did to its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A put (`Some`) or a delete (`None`).
    Write(Option<String>),
    /// A get, and what it read (`None`: no such key).
    Read(Option<String>),
}

/// One client operation on one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    pub key: String,
    pub kind: Kind,
    /// Simulated ms it was sent.
    pub invoke: u64,
    /// Simulated ms it was answered successfully (`None`: no answer).
    pub complete: Option<u64>,
}

/// Why a history is not linearizable: a key and its operations, in order of
/// invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotLinearizable {
    pub key: String,
    pub ops: Vec<Op>,
}

impl std::fmt::Display for NotLinearizable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "key {:?} has no linearization:", self.key)?;
        for o in &self.ops {
            let what = match &o.kind {
                Kind::Write(Some(v)) => format!("put {v}"),
                Kind::Write(None) => "del".to_string(),
                Kind::Read(v) => format!("get -> {}", v.as_deref().unwrap_or("(none)")),
            };
            let end = o
                .complete
                .map_or("no answer".to_string(), |c| format!("{c} ms"));
            write!(f, " [{what}: {} ms .. {end}]", o.invoke)?;
        }
        Ok(())
    }
}

/// Whether `ops` is linearizable; the first key that is not, if any.
pub fn check(ops: &[Op]) -> Result<(), NotLinearizable> {
    let mut by_key: BTreeMap<&str, Vec<Op>> = BTreeMap::new();
    for o in ops {
        // a read that got no answer says nothing
        if matches!(o.kind, Kind::Read(_)) && o.complete.is_none() {
            continue;
        }
        by_key.entry(&o.key).or_default().push(o.clone());
    }
    for (key, mut ops) in by_key {
        ops.sort_by_key(|o| o.invoke);
        if !register_linearizable(&ops) {
            return Err(NotLinearizable {
                key: key.to_string(),
                ops,
            });
        }
    }
    Ok(())
}

/// The Wing–Gong search on one register that starts absent. Every answered
/// operation must be placed; unanswered writes may be placed or left out.
fn register_linearizable(ops: &[Op]) -> bool {
    let end = |o: &Op| o.complete.unwrap_or(u64::MAX);
    let must: usize = ops.iter().filter(|o| o.complete.is_some()).count();
    let mut seen: BTreeSet<(Vec<u64>, Option<String>)> = BTreeSet::new();
    // depth-first: (placed set, value, placed answered count)
    let words = ops.len().div_ceil(64);
    let mut stack = vec![(vec![0u64; words], None::<String>, 0usize)];
    while let Some((placed, value, done)) = stack.pop() {
        if done == must {
            return true;
        }
        if !seen.insert((placed.clone(), value.clone())) {
            continue;
        }
        let is_placed = |i: usize| placed[i / 64] & (1 << (i % 64)) != 0;
        // an operation can go next if none still unplaced ended before it began
        let horizon = (0..ops.len())
            .filter(|&i| !is_placed(i))
            .map(|i| end(&ops[i]))
            .min()
            .unwrap_or(u64::MAX);
        for (i, o) in ops.iter().enumerate() {
            if is_placed(i) || o.invoke > horizon {
                continue;
            }
            let next = match &o.kind {
                Kind::Write(v) => v.clone(),
                Kind::Read(v) if *v == value => value.clone(),
                Kind::Read(_) => continue,
            };
            let mut p = placed.clone();
            p[i / 64] |= 1 << (i % 64);
            stack.push((p, next, done + usize::from(o.complete.is_some())));
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: &str, invoke: u64, complete: u64) -> Op {
        Op {
            key: "k".into(),
            kind: Kind::Write(Some(v.into())),
            invoke,
            complete: Some(complete),
        }
    }

    fn r(v: Option<&str>, invoke: u64, complete: u64) -> Op {
        Op {
            key: "k".into(),
            kind: Kind::Read(v.map(str::to_string)),
            invoke,
            complete: Some(complete),
        }
    }

    #[test]
    fn rejects_a_stale_read_after_an_acknowledged_write() {
        assert!(check(&[w("1", 0, 1), r(None, 2, 3)]).is_err());
        assert!(check(&[w("1", 0, 1), w("2", 2, 3), r(Some("1"), 4, 5)]).is_err());
    }

    #[test]
    fn rejects_a_lost_acknowledged_write() {
        // both writes were answered; a later read sees the older one
        let lost = [w("1", 0, 1), w("2", 2, 3), r(Some("1"), 10, 11)];
        let e = check(&lost).unwrap_err();
        assert_eq!(e.key, "k");
        assert!(e.to_string().contains("put 2"), "{e}");
    }

    #[test]
    fn rejects_a_read_of_a_value_never_written() {
        assert!(check(&[w("1", 0, 1), r(Some("7"), 2, 3)]).is_err());
        assert!(check(&[r(Some("7"), 0, 1)]).is_err());
    }

    #[test]
    fn rejects_concurrent_writes_seen_in_different_orders() {
        let h = [
            w("1", 0, 10),
            w("2", 0, 10),
            r(Some("1"), 11, 12),
            r(Some("2"), 13, 14),
        ];
        assert!(check(&h).is_err());
        // two readers overlapping each other and the writes may disagree on
        // timing, but not on order once both writes are done
        let h = [
            w("1", 0, 10),
            w("2", 0, 10),
            r(Some("2"), 11, 20),
            r(Some("1"), 12, 19),
            r(Some("2"), 21, 22),
        ];
        assert!(check(&h).is_err());
    }

    #[test]
    fn accepts_correct_concurrent_histories() {
        // a read during a write sees the old or the new value
        assert!(check(&[
            w("1", 0, 1),
            w("2", 2, 10),
            r(Some("1"), 3, 4),
            r(Some("2"), 5, 6)
        ])
        .is_ok());
        // concurrent writes in either order, seen consistently
        let h = [
            w("1", 0, 10),
            w("2", 0, 10),
            r(Some("1"), 11, 12),
            r(Some("1"), 13, 14),
        ];
        assert!(check(&h).is_ok());
        let h = [
            w("1", 0, 10),
            w("2", 0, 10),
            r(Some("2"), 11, 12),
            r(Some("2"), 13, 14),
        ];
        assert!(check(&h).is_ok());
        // a delete, and keys are independent
        let mut h = vec![
            w("1", 0, 1),
            Op {
                kind: Kind::Write(None),
                ..w("", 2, 3)
            },
            r(None, 4, 5),
        ];
        h.push(Op {
            key: "other".into(),
            ..r(None, 0, 1)
        });
        assert!(check(&h).is_ok());
    }

    #[test]
    fn an_unanswered_write_may_or_may_not_have_happened() {
        let timed_out = Op {
            complete: None,
            ..w("2", 2, 0)
        };
        assert!(check(&[w("1", 0, 1), timed_out.clone(), r(Some("1"), 10, 11)]).is_ok());
        assert!(check(&[w("1", 0, 1), timed_out.clone(), r(Some("2"), 10, 11)]).is_ok());
        // but once seen, it stays
        assert!(check(&[
            w("1", 0, 1),
            timed_out,
            r(Some("2"), 10, 11),
            r(Some("1"), 12, 13)
        ])
        .is_err());
        // an unanswered read says nothing
        let unanswered = Op {
            complete: None,
            ..r(Some("9"), 2, 0)
        };
        assert!(check(&[w("1", 0, 1), unanswered]).is_ok());
    }
}
