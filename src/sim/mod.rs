//! The simulated world: machines with addresses and disks, a network of directed
//! links, a clock in milliseconds, one seeded RNG, and etcd servers on raft-rs.
//! No web crates and no wall-clock time: the same seed and actions give the same
//! bytes natively and in wasm.

pub mod budget;
pub mod etcd;
pub mod glossary;
pub mod history;
pub mod invariants;
pub mod lost;
pub mod quorum;
pub mod url;
pub mod view;
pub mod wire;
pub mod world;
