//! One etcd 3.4 server and everything it keeps: configuration, IDs, member table,
//! key-value store, data dir, requests, logs, and the server process itself.

pub mod bootstrap;
pub mod catchup;
pub mod config;
pub mod datadir;
pub mod ids;
pub mod kv;
pub mod logfmt;
pub mod membership;
pub mod parcel;
pub mod rafthttp;
pub mod raftlog;
pub mod request;
pub mod server;
pub mod snapshot_transfer;
pub mod version;
pub mod zapfmt;
