//! The key-value state machine of one etcd server: keys, values and revisions as
//! etcd's mvcc store reports them (a store revision, and per key its create and
//! mod revisions and version).

use std::collections::BTreeMap;

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

/// The store. The revision starts at 1, as in a fresh etcd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kv {
    keys: BTreeMap<String, KeyValue>,
    revision: i64,
}

impl Default for Kv {
    fn default() -> Self {
        Kv {
            keys: BTreeMap::new(),
            revision: 1,
        }
    }
}

impl Kv {
    pub fn revision(&self) -> i64 {
        self.revision
    }

    /// A store holding `keys` at `revision` (what `snapshot restore` writes).
    pub fn restored(keys: Vec<KeyValue>, revision: i64) -> Kv {
        Kv {
            keys: keys.into_iter().map(|k| (k.key.clone(), k)).collect(),
            revision,
        }
    }

    /// The bbolt file's size: 20 KiB empty, growing by 4 KiB pages with the data.
    pub fn db_size(&self) -> u64 {
        db_size_of(self.keys.values())
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
        kv.value = value.to_string();
        kv.mod_revision = rev;
        kv.version += 1;
    }

    /// Keys equal to `key`, or starting with it when `prefix`.
    pub fn range(&self, key: &str, prefix: bool) -> Vec<KeyValue> {
        if !prefix {
            return self.keys.get(key).cloned().into_iter().collect();
        }
        self.keys
            .range(key.to_string()..)
            .take_while(|(k, _)| k.starts_with(key))
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// Deletes and returns how many keys went; a delete of nothing keeps the revision.
    pub fn delete(&mut self, key: &str, prefix: bool) -> usize {
        let doomed: Vec<String> = self.range(key, prefix).into_iter().map(|k| k.key).collect();
        if doomed.is_empty() {
            return 0;
        }
        self.revision += 1;
        for k in &doomed {
            self.keys.remove(k);
        }
        doomed.len()
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
