//! The key-value state machine of one etcd server: keys, values and revisions as
//! etcd's mvcc store reports them (a store revision, and per key its create and
//! mod revisions and version).
//!
//! Keys typed at the prompt are kept as they are. The keys and values etcdctl's
//! load generators write (`check perf`, `check datascale`: a prefix, a varint of a
//! random number, zero bytes up to 256 or 512; a value of zero bytes) are kept
//! as a [`Generated`] description, about 24 bytes each, so that a 1 GB data set
//! costs tens of MB; their bytes are made only when a range returns them (the key's
//! bytes after its prefix shown one char per byte, Latin-1, the value as NULs).
//!
//! `db_size` follows bbolt for generated data: every revision etcd writes is one
//! record in the key bucket (a 16-byte element header, the 17-byte revision key,
//! 18 for a tombstone, and the marshalled `mvccpb.KeyValue`), leaf pages of 4 KiB
//! are split at etcd's fill percent of 0.9, nothing is freed (the playground has no
//! compaction; bbolt never shrinks its file without defrag). Typed keys keep the
//! small estimate the golden transcripts were made with.
//!
//! The store keeps a [`Kv::digest`] of its keys as it changes (the wrapping
//! sum of one hash per key), so the invariants checker can compare two
//! members' states after every applied entry at no cost that grows with the
//! data.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

/// One key as `get -w json` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyValue {
    pub key: String,
    pub value: String,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
}

/// The size of a bbolt file holding `keys` (see [`Kv::db_size`]).
pub fn db_size_of<'a>(keys: impl Iterator<Item = &'a KeyValue>) -> u64 {
    let data: usize = keys.map(|k| k.key.len() + k.value.len() + 64).sum();
    20480 + (data as u64 / 4096) * 4096
}

/// One put of etcdctl's load generators: the key is `prefix`, then `head`,
/// then zero bytes, `key_len` bytes after the prefix; the value is `value_len`
/// zero bytes (etcdctl's `string(make([]byte, vsize))`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generated {
    pub prefix: String,
    pub head: [u8; 10],
    pub key_len: u16,
    pub value_len: u16,
}

impl Generated {
    /// The key's bytes after its prefix.
    fn tail(head: &[u8; 10], key_len: u16) -> Vec<u8> {
        let mut t = vec![0u8; usize::from(key_len)];
        let n = t.len().min(head.len());
        t[..n].copy_from_slice(&head[..n]);
        t
    }

    /// The key as a string: the prefix, then one char per byte (Latin-1).
    fn key_text(prefix: &str, head: &[u8; 10], key_len: u16) -> String {
        let mut s = prefix.to_string();
        s.extend(Self::tail(head, key_len).into_iter().map(char::from));
        s
    }
}

/// A generated key's revisions and value length (12 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct GenRev {
    create: u32,
    modified: u32,
    version: u16,
    value_len: u16,
}

/// The generated keys: each (prefix, key length) pair once in `shapes`, each key
/// as its head bytes and shape index; and the bbolt bytes their records took.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenStore {
    shapes: Vec<(String, u16)>,
    keys: BTreeMap<([u8; 10], u16), GenRev>,
    bolt_bytes: u64,
}

/// Bytes a protobuf varint of `v` takes.
fn varint_len(v: u64) -> u64 {
    u64::from((64 - v.leading_zeros()).max(1)).div_ceil(7)
}

/// A length-delimited protobuf field of `n` bytes (tag, length, bytes).
fn field_len(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        1 + varint_len(n) + n
    }
}

/// A varint protobuf field of value `v` (absent when zero).
fn int_field(v: u64) -> u64 {
    if v == 0 {
        0
    } else {
        1 + varint_len(v)
    }
}

/// bbolt's leaf pages split once their elements pass this many bytes (etcd's
/// sequential puts use a fill percent of 0.9 of a 4 KiB page).
const SPLIT_AT: u64 = 3686;
const PAGE: u64 = 4096;

/// The bytes of bbolt's file one record of `rec` bytes takes: its share of a
/// leaf page holding as many such records as fit before a split, or its own
/// overflow pages when larger.
fn page_share(rec: u64) -> u64 {
    if rec > SPLIT_AT {
        (rec + 16).div_ceil(PAGE) * PAGE
    } else {
        PAGE / (SPLIT_AT / rec)
    }
}

/// One put's record in the key bucket: element header, revision key, `mvccpb.KeyValue`.
fn put_record(key_len: u64, value_len: u64, create: u64, modified: u64, version: u64) -> u64 {
    16 + 17
        + field_len(key_len)
        + int_field(create)
        + int_field(modified)
        + int_field(version)
        + field_len(value_len)
}

/// A delete's tombstone: the revision key with its `t` mark, and the key alone.
fn tombstone_record(key_len: u64) -> u64 {
    16 + 18 + field_len(key_len)
}

impl GenStore {
    fn shape(&mut self, prefix: &str, key_len: u16) -> u16 {
        if let Some(i) = self
            .shapes
            .iter()
            .position(|(p, l)| p == prefix && *l == key_len)
        {
            return i as u16;
        }
        self.shapes.push((prefix.to_string(), key_len));
        (self.shapes.len() - 1) as u16
    }

    /// How many generated keys there are.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The bbolt bytes their records took, whole pages.
    pub fn db_bytes(&self) -> u64 {
        self.bolt_bytes.div_ceil(PAGE) * PAGE
    }

    /// The bytes the keys and values stand for (what etcd holds live).
    pub fn live_bytes(&self) -> u64 {
        self.keys
            .iter()
            .map(|((_, s), r)| {
                let key = self
                    .shapes
                    .get(usize::from(*s))
                    .map_or(0, |(p, l)| p.len() + usize::from(*l));
                (key + usize::from(r.value_len)) as u64
            })
            .sum()
    }

    /// The generated keys matching `key` (as a prefix when `prefix`).
    fn matching(&self, key: &str, prefix: bool) -> Vec<([u8; 10], u16)> {
        let mut found = Vec::new();
        for (i, (p, len)) in self.shapes.iter().enumerate() {
            let i = i as u16;
            let all = prefix && p.starts_with(key);
            if !all && !key.starts_with(p.as_str()) {
                continue;
            }
            for (k, _) in self.keys.iter().filter(|((_, s), _)| *s == i) {
                let hit = all || {
                    let text = Generated::key_text(p, &k.0, *len);
                    (prefix && text.starts_with(key)) || text == key
                };
                if hit {
                    found.push(*k);
                }
            }
        }
        found
    }

    fn materialise(&self, k: &([u8; 10], u16)) -> Option<KeyValue> {
        let (p, len) = self.shapes.get(usize::from(k.1))?;
        let r = self.keys.get(k)?;
        Some(KeyValue {
            key: Generated::key_text(p, &k.0, *len),
            value: "\0".repeat(usize::from(r.value_len)),
            create_revision: i64::from(r.create),
            mod_revision: i64::from(r.modified),
            version: i64::from(r.version),
        })
    }
}

/// One hash of `item` (SipHash with fixed keys: the same on every run and
/// platform).
fn hash_one(item: impl Hash) -> u64 {
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    item.hash(&mut h);
    h.finish()
}

/// A typed key's share of [`Kv::digest`].
fn typed_share(k: &KeyValue) -> u64 {
    hash_one((
        0u8,
        &k.key,
        &k.value,
        k.create_revision,
        k.mod_revision,
        k.version,
    ))
}

/// A generated key's share of [`Kv::digest`]: its shape by what it is (prefix
/// and length), not by where the store lists it.
fn generated_share(shape: Option<&(String, u16)>, head: &[u8; 10], r: &GenRev) -> u64 {
    hash_one((1u8, shape, head, r))
}

/// The store. The revision starts at 1, as in a fresh etcd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kv {
    keys: BTreeMap<String, KeyValue>,
    generated: GenStore,
    revision: i64,
    /// The wrapping sum of every live key's share ([`typed_share`],
    /// [`generated_share`]), kept as keys change.
    digest: u64,
}

impl Default for Kv {
    fn default() -> Self {
        Kv {
            keys: BTreeMap::new(),
            generated: GenStore::default(),
            revision: 1,
            digest: 0,
        }
    }
}

impl Kv {
    pub fn revision(&self) -> i64 {
        self.revision
    }

    /// A store holding `keys` at `revision` (what `snapshot restore` writes).
    pub fn restored(keys: Vec<KeyValue>, revision: i64) -> Kv {
        Kv::restored_with(keys, GenStore::default(), revision)
    }

    /// The same, with generated keys (a raft snapshot's image carries them).
    pub fn restored_with(keys: Vec<KeyValue>, generated: GenStore, revision: i64) -> Kv {
        let mut kv = Kv {
            keys: keys.into_iter().map(|k| (k.key.clone(), k)).collect(),
            generated,
            revision,
            digest: 0,
        };
        kv.digest = kv.digest_from_scratch();
        kv
    }

    /// A digest of the live keys (typed and generated: keys, values and
    /// revisions): equal on two members holding the same keys, different
    /// (but for a 64-bit collision) otherwise. Kept as keys change, so
    /// asking costs nothing.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// [`Self::digest`] computed over every key (a restore; tests).
    fn digest_from_scratch(&self) -> u64 {
        let gs = &self.generated;
        let typed = self.keys.values().map(typed_share);
        let generated = (gs.keys.iter())
            .map(|((head, s), r)| generated_share(gs.shapes.get(usize::from(*s)), head, r));
        typed.chain(generated).fold(0, u64::wrapping_add)
    }

    /// The generated keys.
    pub fn generated(&self) -> &GenStore {
        &self.generated
    }

    /// The bbolt file's size: 20 KiB empty, growing by 4 KiB pages with typed
    /// keys, and by bbolt's pages for generated ones (see the module's doc).
    pub fn db_size(&self) -> u64 {
        db_size_of(self.keys.values()) + self.generated.db_bytes()
    }

    /// The bytes of every live key and value.
    pub fn live_bytes(&self) -> u64 {
        let typed: usize = self
            .keys
            .values()
            .map(|k| k.key.len() + k.value.len())
            .sum();
        typed as u64 + self.generated.live_bytes()
    }

    /// A generated put (etcdctl's load generators).
    pub fn put_generated(&mut self, g: &Generated) {
        self.revision += 1;
        let rev = u32::try_from(self.revision).unwrap_or(u32::MAX);
        let gs = &mut self.generated;
        let shape = gs.shape(&g.prefix, g.key_len);
        let shape_def = (g.prefix.clone(), g.key_len);
        let r = gs.keys.entry((g.head, shape)).or_insert(GenRev {
            create: rev,
            modified: rev,
            version: 0,
            value_len: 0,
        });
        if r.version > 0 {
            let old = generated_share(Some(&shape_def), &g.head, r);
            self.digest = self.digest.wrapping_sub(old);
        }
        r.modified = rev;
        r.version = r.version.saturating_add(1);
        r.value_len = g.value_len;
        let new = generated_share(Some(&shape_def), &g.head, r);
        self.digest = self.digest.wrapping_add(new);
        let key_len = (g.prefix.len() + usize::from(g.key_len)) as u64;
        let (c, m, v) = (u64::from(r.create), u64::from(rev), u64::from(r.version));
        gs.bolt_bytes += page_share(put_record(key_len, u64::from(g.value_len), c, m, v));
    }

    /// All keys, in order.
    pub fn iter(&self) -> impl Iterator<Item = &KeyValue> {
        self.keys.values()
    }

    pub fn put(&mut self, key: &str, value: &str) {
        self.revision += 1;
        let rev = self.revision;
        let kv = self
            .keys
            .entry(key.to_string())
            .or_insert_with(|| KeyValue {
                key: key.to_string(),
                value: String::new(),
                create_revision: rev,
                mod_revision: rev,
                version: 0,
            });
        if kv.version > 0 {
            self.digest = self.digest.wrapping_sub(typed_share(kv));
        }
        kv.value = value.to_string();
        kv.mod_revision = rev;
        kv.version += 1;
        self.digest = self.digest.wrapping_add(typed_share(kv));
    }

    /// Keys equal to `key`, or starting with it when `prefix`.
    pub fn range(&self, key: &str, prefix: bool) -> Vec<KeyValue> {
        let mut found: Vec<KeyValue> = if prefix {
            self.keys
                .range(key.to_string()..)
                .take_while(|(k, _)| k.starts_with(key))
                .map(|(_, v)| v.clone())
                .collect()
        } else {
            self.keys.get(key).cloned().into_iter().collect()
        };
        if !self.generated.is_empty() {
            let gs = &self.generated;
            found.extend(
                gs.matching(key, prefix)
                    .iter()
                    .filter_map(|k| gs.materialise(k)),
            );
            found.sort_by(|a, b| a.key.cmp(&b.key));
        }
        found
    }

    /// Deletes and returns how many keys went; a delete of nothing keeps the revision.
    pub fn delete(&mut self, key: &str, prefix: bool) -> usize {
        let doomed: Vec<String> = if prefix {
            self.keys
                .range(key.to_string()..)
                .take_while(|(k, _)| k.starts_with(key))
                .map(|(k, _)| k.clone())
                .collect()
        } else {
            self.keys
                .get_key_value(key)
                .map(|(k, _)| k.clone())
                .into_iter()
                .collect()
        };
        let generated = self.generated.matching(key, prefix);
        if doomed.is_empty() && generated.is_empty() {
            return 0;
        }
        self.revision += 1;
        for k in &doomed {
            if let Some(gone) = self.keys.remove(k) {
                self.digest = self.digest.wrapping_sub(typed_share(&gone));
            }
        }
        let gs = &mut self.generated;
        for k in &generated {
            let shape = gs.shapes.get(usize::from(k.1));
            let len = shape.map_or(0, |(p, l)| p.len() + usize::from(*l));
            if let Some(gone) = gs.keys.remove(k) {
                let share = generated_share(shape, &k.0, &gone);
                self.digest = self.digest.wrapping_sub(share);
            }
            gs.bolt_bytes += page_share(tombstone_record(len as u64));
        }
        doomed.len() + generated.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_follow_etcd() {
        let mut kv = Kv::default();
        kv.put("foo", "bar");
        let got = kv.range("foo", false);
        assert_eq!(got[0].create_revision, 2);
        assert_eq!(got[0].version, 1);
        kv.put("foo2", "x");
        assert_eq!(kv.range("foo", true).len(), 2);
        assert_eq!(kv.delete("foo", false), 1);
        assert_eq!(kv.delete("foo", false), 0);
        assert_eq!(kv.revision(), 4);
    }
}

#[cfg(test)]
mod digest_tests {
    use super::*;

    fn generated(head: u8) -> Generated {
        Generated {
            prefix: "/p/".into(),
            head: [head; 10],
            key_len: 8,
            value_len: 1024,
        }
    }

    #[test]
    fn the_kept_digest_is_the_digest_of_the_keys() {
        let mut kv = Kv::default();
        let mut seen = vec![kv.digest()];
        let changes: [&dyn Fn(&mut Kv); 9] = [
            &|kv| kv.put("foo", "bar"),
            &|kv| kv.put("foo", "baz"),
            &|kv| kv.put("foo2", "x"),
            &|kv| kv.put_generated(&generated(3)),
            &|kv| kv.put_generated(&generated(3)),
            &|kv| kv.put_generated(&generated(4)),
            &|kv| assert_eq!(kv.delete("foo", false), 1),
            &|kv| assert_eq!(kv.delete("/p/", true), 2),
            &|kv| assert_eq!(kv.delete("foo", true), 1),
        ];
        for change in changes {
            change(&mut kv);
            assert_eq!(kv.digest(), kv.digest_from_scratch());
            seen.push(kv.digest());
        }
        // Every key deleted: the empty store's digest again, and only there.
        assert_eq!(kv.digest(), 0);
        seen.pop();
        let distinct: std::collections::BTreeSet<u64> = seen.iter().copied().collect();
        assert_eq!(distinct.len(), seen.len(), "each state has its own digest");
    }

    #[test]
    fn members_with_the_same_keys_have_the_same_digest() {
        let mut a = Kv::default();
        a.put_generated(&generated(3));
        a.put("k", "v");
        let b = Kv::restored_with(
            a.iter().cloned().collect(),
            a.generated().clone(),
            a.revision(),
        );
        assert_eq!(a.digest(), b.digest());
        let mut c = Kv::default();
        c.put_generated(&generated(4));
        c.put("k", "v");
        assert_ne!(a.digest(), c.digest(), "another generated key");
        let mut d = Kv::default();
        d.put_generated(&generated(3));
        d.put("k", "w");
        assert_ne!(a.digest(), d.digest(), "another value");
    }
}
