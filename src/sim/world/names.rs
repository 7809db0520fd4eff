//! [`ByName`]: the world's maps keyed by machine name (the machines, each
//! machine's NIC, streams and traffic). They hold a handful of entries and are
//! read on every event and every message, so they are a sorted vector with
//! each name also kept as a few integers: a lookup compares integers, not
//! strings. They keep a `BTreeMap`'s order and answers (iteration in name
//! order, one entry per name), so nothing that reads them sees a difference.

/// A name's last and first eight bytes (four when shorter, the bytes
/// themselves below four) and its length: two names of at most [`EXACT`]
/// bytes have equal keys exactly when they are equal. Longer names compare
/// their text too. Read straight from the name (no buffer to stall the
/// loads). The tail comes first, as a lookup compares: machines are mostly
/// named alike but for their last characters (`etcd-1`, `etcd-2`, `m1`), so
/// one comparison tells most of them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key {
    tail: u64,
    head: u64,
    len: usize,
}

/// The longest name a [`Key`] tells apart by itself.
const EXACT: usize = 16;

impl Key {
    #[inline(always)]
    fn of(name: &str) -> Key {
        let b = name.as_bytes();
        let (head, tail) = match b.len() {
            8.. => (
                b.first_chunk::<8>().map_or(0, |c| u64::from_le_bytes(*c)),
                b.last_chunk::<8>().map_or(0, |c| u64::from_le_bytes(*c)),
            ),
            4..=7 => (
                b.first_chunk::<4>()
                    .map_or(0, |c| u64::from(u32::from_le_bytes(*c))),
                b.last_chunk::<4>()
                    .map_or(0, |c| u64::from(u32::from_le_bytes(*c))),
            ),
            _ => {
                let all = b
                    .iter()
                    .enumerate()
                    .fold(0, |v, (i, &c)| v | u64::from(c) << (8 * i));
                (all, all)
            }
        };
        Key {
            tail,
            head,
            len: b.len(),
        }
    }
}

/// Whether two machine names are equal, told as a lookup tells them (a few
/// integers; the text itself only past [`EXACT`] bytes): every raft message
/// asks, and `==` calls `memcmp` for names of the same length.
#[inline(always)]
pub fn same(a: &str, b: &str) -> bool {
    Key::of(a) == Key::of(b) && (a.len() <= EXACT || a == b)
}

/// A small map from machine names to `V`, in name order (see the module doc).
#[derive(Debug, Clone)]
pub struct ByName<V> {
    /// The names' keys, at the same positions as `entries`.
    keys: Vec<Key>,
    /// The entries, sorted by name.
    entries: Vec<(String, V)>,
}

impl<V> Default for ByName<V> {
    fn default() -> Self {
        ByName {
            keys: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl<V> ByName<V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Where `name` is. A plain loop: it runs for every message, and the
    /// size-optimised build leaves an iterator chain's closures uninlined.
    #[inline(always)]
    fn position(&self, name: &str) -> Option<usize> {
        let key = Key::of(name);
        let long = name.len() > EXACT;
        for (i, k) in self.keys.iter().enumerate() {
            if *k == key && (!long || self.entries[i].0 == name) {
                return Some(i);
            }
        }
        None
    }

    #[inline(always)]
    pub fn get(&self, name: &str) -> Option<&V> {
        self.position(name).map(|i| &self.entries[i].1)
    }

    #[inline(always)]
    pub fn get_mut(&mut self, name: &str) -> Option<&mut V> {
        self.position(name).map(|i| &mut self.entries[i].1)
    }

    pub fn get_key_value(&self, name: &str) -> Option<(&String, &V)> {
        self.position(name).map(|i| {
            let (k, v) = &self.entries[i];
            (k, v)
        })
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Puts `value` under `name`, returning what was there.
    pub fn insert(&mut self, name: String, value: V) -> Option<V> {
        if let Some(i) = self.position(&name) {
            return Some(std::mem::replace(&mut self.entries[i].1, value));
        }
        self.insert_new(name, value);
        None
    }

    /// The entry of `name`, made with `make` if there is none.
    #[inline(always)]
    pub fn get_or_insert_with(&mut self, name: &str, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.position(name) {
            Some(i) => i,
            None => self.insert_new(name.to_string(), make()),
        };
        &mut self.entries[i].1
    }

    /// Puts `value` under `name`, not there yet; where it went. Rare (a
    /// machine's first message, NIC or stream), so kept out of line.
    #[cold]
    #[inline(never)]
    fn insert_new(&mut self, name: String, value: V) -> usize {
        let i = self
            .entries
            .binary_search_by(|(k, _)| k.as_str().cmp(&name))
            .unwrap_or_else(|i| i);
        self.keys.insert(i, Key::of(&name));
        self.entries.insert(i, (name, value));
        i
    }

    pub fn remove(&mut self, name: &str) -> Option<V> {
        let i = self.position(name)?;
        self.keys.remove(i);
        Some(self.entries.remove(i).1)
    }

    /// Keeps the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut V) -> bool) {
        let mut i = 0;
        while i < self.entries.len() {
            let (k, v) = &mut self.entries[i];
            if keep(k, v) {
                i += 1;
            } else {
                self.keys.remove(i);
                self.entries.remove(i);
            }
        }
    }

    pub fn clear(&mut self) {
        self.keys.clear();
        self.entries.clear();
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in name order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&String, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

/// `map[name]`, as a `BTreeMap` answers it: the entry, or a panic (tests only
/// index; the world looks names up with [`ByName::get`]).
impl<V> std::ops::Index<&str> for ByName<V> {
    type Output = V;

    fn index(&self, name: &str) -> &V {
        self.get(name).expect("no entry of that name")
    }
}

impl<'a, V> IntoIterator for &'a ByName<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, V)>,
        fn(&'a (String, V)) -> (&'a String, &'a V),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The same inserts and removals give a `BTreeMap`'s answers and order:
    /// short names, long ones with the same length, head and tail, and the
    /// empty one.
    #[test]
    fn answers_as_a_btreemap_does() {
        let names = [
            "node02",
            "node01",
            "a-rather-long-machine-name-1",
            "a-rather-long-machine-name-2",
            "abcdefgh-X-stuvwxyz",
            "abcdefgh-Y-stuvwxyz",
            "abcdefghstuvwxyz",
            "abcdefgXstuvwxyz",
            "abcde",
            "abcXe",
            "ab",
            "ba",
            "",
            "node10",
            "b",
            "node01",
        ];
        let mut ours = ByName::new();
        let mut theirs = BTreeMap::new();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(
                ours.insert(n.to_string(), i),
                theirs.insert(n.to_string(), i)
            );
        }
        assert_eq!(ours.remove("node10"), theirs.remove("node10"));
        assert_eq!(ours.remove("node10"), None);
        assert_eq!(
            ours.iter().collect::<Vec<_>>(),
            theirs.iter().collect::<Vec<_>>()
        );
        for n in names.iter().chain(&["node1", "a", "abcdefgh-Z-stuvwxyz"]) {
            assert_eq!(ours.get(n), theirs.get(*n), "{n}");
        }
        assert_eq!(ours.len(), theirs.len());
        ours.retain(|k, _| k.starts_with('n'));
        theirs.retain(|k, _| k.starts_with('n'));
        assert_eq!(
            ours.keys().collect::<Vec<_>>(),
            theirs.keys().collect::<Vec<_>>()
        );
    }

    #[test]
    fn same_tells_names_as_equality_does() {
        let names = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "m1",
            "m2",
            "etcd-1",
            "etcd-2",
            "node01",
            "node02",
            "abcdefgh",
            "abcdefgi",
            "machine-number-01",
            "machine-number-02",
            "machine-xumber-01",
            "a-very-long-machine-name",
        ];
        let mut pairs = 0;
        for a in names {
            for b in names {
                assert_eq!(same(a, b), a == b, "{a:?} and {b:?}");
                pairs += 1;
            }
        }
        assert_eq!(pairs, names.len() * names.len());
    }

    /// `get_or_insert_with` makes an entry only for a new name, in name
    /// order, and hands back the one there otherwise.
    #[test]
    fn get_or_insert_with_makes_only_what_is_missing() {
        let mut ours: ByName<u32> = ByName::new();
        for (i, n) in ["m3", "m1", "m2", "m1", "etcd-10", "m3"].iter().enumerate() {
            *ours.get_or_insert_with(n, || 100) += i as u32;
        }
        let got: Vec<(&String, &u32)> = ours.iter().collect();
        let want = [("etcd-10", 104), ("m1", 104), ("m2", 102), ("m3", 105)];
        assert_eq!(got.len(), want.len());
        for ((k, v), (wk, wv)) in got.iter().zip(want) {
            assert_eq!((k.as_str(), **v), (wk, wv));
        }
    }
}
