//! How an etcd 3.4 server comes up from its flags and data dir (`NewServer`):
//! a new cluster from `--initial-cluster`, joining an existing one, restarting
//! from a WAL, or `--force-new-cluster`; with etcd's checks and fatal messages.

use super::raftlog::LogStorage;
use protobuf::Message as _;
use raft::eraftpb::{ConfChange, ConfChangeType, ConfState, Entry, EntryType, HardState};
use raft::Storage;

use super::config::{ClusterState, EtcdConfig};
use super::datadir::{Backend, DataDir, SavedSnapshot};
use super::ids;
use super::kv::Kv;
use super::logfmt::conf_string;
use super::membership::{ChangeKind, Member};
use super::request::SnapshotData;
use super::server::{ChangeCtx, Ctx};

/// What a remote peer's `/members` endpoint returns: its cluster ID and members.
pub type RemoteMembers = (u64, Vec<Member>);

/// A data dir ready to run, and the peers rafthttp starts with (ID and peer URLs).
pub struct Booted {
    pub dir: DataDir,
    pub peers: Vec<(u64, Vec<String>)>,
    /// How many members the server knows when it starts (`adjustTicks`): the
    /// configured cluster, the fetched one, or a restart's snapshot.
    pub members_at_start: usize,
}

/// A fatal start-up error: the text after `C | etcdmain: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fatal(pub String);

/// Prepares the data dir a server will run on, or says why etcd would exit.
/// `remote` asks a peer URL for its member list (None: unreachable).
pub fn bootstrap(
    cfg: &EtcdConfig,
    existing: Option<DataDir>,
    remote: &dyn Fn(&str) -> Option<RemoteMembers>,
    ctx: &mut Ctx,
) -> Result<Booted, Fatal> {
    let (existing, leftover) = match existing {
        Some(d) if !d.has_wal => (None, Some(d.backend)),
        other => (other, None),
    };
    let booted = match (existing, cfg.initial_cluster_state) {
        (Some(dir), _) if cfg.force_new_cluster => {
            Ok(with_member_peers(force_new_cluster(dir, ctx)))
        }
        (Some(dir), _) => Ok(with_member_peers(restart(dir, ctx))),
        (None, ClusterState::New) => new_cluster(cfg, remote, ctx),
        (None, ClusterState::Existing) => join_existing(cfg, remote, ctx),
    };
    booted.map(|mut b| {
        if let Some(old) = leftover {
            // etcd opens the backend it finds: old keys, old consistent index.
            b.dir.backend.kv = old.kv;
            b.dir.backend.consistent_index = old.consistent_index;
        }
        b
    })
}

/// A restarted member's transport starts with the members of its snapshot.
fn with_member_peers(dir: DataDir) -> Booted {
    let peers = member_peers(dir.backend.members.members.values(), dir.id);
    let members_at_start = dir.backend.members.members.len();
    Booted {
        dir,
        peers,
        members_at_start,
    }
}

fn member_peers<'a>(members: impl Iterator<Item = &'a Member>, me: u64) -> Vec<(u64, Vec<String>)> {
    members
        .filter(|m| m.id != me)
        .map(|m| (m.id, m.peer_urls.clone()))
        .collect()
}

/// The members `--initial-cluster` describes, with etcd's static IDs.
fn initial_members(cfg: &EtcdConfig) -> Result<Vec<Member>, Fatal> {
    let mut by_name: Vec<(String, Vec<String>)> = Vec::new();
    for (name, url) in cfg.initial_cluster() {
        match by_name.iter_mut().find(|(n, _)| *n == name) {
            Some((_, urls)) => urls.push(url),
            None => by_name.push((name, vec![url])),
        }
    }
    if by_name.len() > crate::sim::budget::MAX_MEMBERS {
        return Err(Fatal(format!(
            "--initial-cluster lists {} members, and this playground runs clusters of at most {}",
            by_name.len(),
            crate::sim::budget::MAX_MEMBERS
        )));
    }
    let mut all_urls: Vec<&String> = by_name.iter().flat_map(|(_, u)| u).collect();
    all_urls.sort();
    if all_urls.windows(2).any(|w| w[0] == w[1]) {
        return Err(Fatal(format!(
            "initial cluster {} has duplicate url",
            initial_cluster_text(cfg)
        )));
    }
    let mut members: Vec<Member> = by_name
        .into_iter()
        .map(|(name, mut urls)| {
            urls.sort();
            Member {
                id: ids::member_id(&urls, &cfg.initial_cluster_token, None),
                name,
                peer_urls: urls,
                client_urls: Vec::new(),
                is_learner: false,
            }
        })
        .collect();
    members.sort_by_key(|m| m.id);
    for w in members.windows(2) {
        if w[0].id == w[1].id {
            return Err(Fatal(format!(
                "member exists with identical ID {:x}",
                w[0].id
            )));
        }
    }
    Ok(members)
}

fn initial_cluster_text(cfg: &EtcdConfig) -> String {
    cfg.initial_cluster()
        .iter()
        .map(|(n, u)| format!("{n}={u}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn local_member<'a>(cfg: &EtcdConfig, members: &'a [Member]) -> Result<&'a Member, Fatal> {
    members.iter().find(|m| m.name == cfg.name).ok_or_else(|| {
        Fatal(format!(
            "couldn't find local name {:?} in the initial cluster configuration",
            cfg.name
        ))
    })
}

/// `advertiseMatchesCluster` for the string-equal case etcd checks without resolving.
fn advertise_matches(cfg: &EtcdConfig, local: &Member) -> Result<(), Fatal> {
    let mut adv = cfg.initial_advertise_peer_urls.clone();
    adv.sort();
    let cluster = &local.peer_urls; // sorted
    if adv == *cluster {
        return Ok(());
    }
    let name = &cfg.name;
    let missing: Vec<String> = cluster
        .iter()
        .filter(|u| !adv.contains(u))
        .map(|u| format!("{name}={u}"))
        .collect();
    if !missing.is_empty() {
        // netutil.URLStringsEqual: the first pair that differs, once both are sorted
        let (a, b) = adv
            .iter()
            .zip(cluster.iter())
            .find(|(a, b)| a != b)
            .map(|(a, b)| (a.clone(), b.clone()))
            .unwrap_or_default();
        return Err(Fatal(format!(
            "--initial-cluster has {} but missing from --initial-advertise-peer-urls={} (resolved urls: \"{a}\" != \"{b}\")",
            missing.join(","),
            adv.join(",")
        )));
    }
    let extra: Vec<&str> = adv
        .iter()
        .filter(|u| !cluster.contains(u))
        .map(String::as_str)
        .collect();
    let advertised: Vec<String> = adv.iter().map(|u| format!("{name}={u}")).collect();
    Err(Fatal(format!(
        "--initial-advertise-peer-urls has {} but missing from --initial-cluster={}",
        extra.join(","),
        advertised.join(",")
    )))
}

fn new_cluster(
    cfg: &EtcdConfig,
    remote: &dyn Fn(&str) -> Option<RemoteMembers>,
    ctx: &mut Ctx,
) -> Result<Booted, Fatal> {
    let members = initial_members(cfg)?;
    let local = local_member(cfg, &members)?.clone();
    advertise_matches(cfg, &local)?;
    let ids: Vec<u64> = members.iter().map(|m| m.id).collect();
    let cluster_id = ids::cluster_id(&ids);
    for m in members.iter().filter(|m| m.id != local.id) {
        for url in &m.peer_urls {
            let known = remote(url).and_then(|(_, ms)| ms.into_iter().find(|x| x.id == local.id));
            if known.is_some_and(|x| !x.client_urls.is_empty()) {
                return Err(Fatal(format!(
                    "member {:x} has already been bootstrapped",
                    local.id
                )));
            }
        }
    }
    ctx.server(
        'I',
        "etcdserver",
        &format!("starting member {:x} in cluster {cluster_id:x}", local.id),
    );
    log_new_raft(ctx, local.id, 0, 0, 0, 0, 0, &[]);
    ctx.raft_line("INFO", &format!("{:x} became follower at term 1", local.id));
    for n in 1..=ids.len() {
        let conf = conf_string(&ids[..n], &[]);
        ctx.raft_line(
            "INFO",
            &format!("{:x} switched to configuration {conf}", local.id),
        );
    }
    let storage = LogStorage::new();
    let entries: Vec<Entry> = members
        .iter()
        .enumerate()
        .map(|(i, m)| conf_entry(i as u64 + 1, 1, ConfChangeType::AddNode, ChangeKind::Add, m))
        .collect();
    {
        let mut core = storage.wl();
        core.append(&entries)
            .expect("entries 1..=N follow an empty log: none compacted, none past its end");
        core.set_hardstate(HardState {
            term: 1,
            commit: entries.len() as u64,
            ..Default::default()
        });
        let mut cs = ConfState::default();
        cs.set_voters(ids.clone());
        core.set_conf_state(cs);
    }
    let dir = DataDir {
        storage,
        id: local.id,
        cluster_id,
        backend: Backend::default(),
        has_wal: true,
    };
    let peers = member_peers(members.iter(), local.id);
    Ok(Booted {
        dir,
        peers,
        members_at_start: members.len(),
    })
}

/// `etcdctl snapshot restore`: a data dir with a raft snapshot at index N (the
/// N members, term 1) and no log entries, whose backend holds the snapshot's keys
/// and the new members. Returns the dir and the members, sorted by ID, with the
/// cluster ID.
pub fn restore(
    cfg: &EtcdConfig,
    snap: &SnapshotData,
) -> Result<(DataDir, Vec<Member>, u64), Fatal> {
    let members = initial_members(cfg)?;
    let local = local_member(cfg, &members)?.clone();
    advertise_matches(cfg, &local)?;
    let ids: Vec<u64> = members.iter().map(|m| m.id).collect();
    let cluster_id = ids::cluster_id(&ids);
    // etcd writes a raft snapshot at index N (the members), term 1, and no entries.
    let n = members.len() as u64;
    let mut cs = ConfState::default();
    cs.set_voters(ids.clone());
    let storage = LogStorage::new();
    {
        let mut raft_snap = raft::eraftpb::Snapshot::default();
        let meta = raft_snap.mut_metadata();
        meta.index = n;
        meta.term = 1;
        meta.set_conf_state(cs.clone());
        let mut core = storage.wl();
        core.apply_snapshot(raft_snap)
            .expect("an empty log starts at index 1, and the snapshot's index N >= 1 is not older");
        core.set_hardstate(HardState {
            term: 1,
            commit: n,
            ..Default::default()
        });
    }
    let mut backend = Backend {
        kv: Kv::restored(snap.kvs.clone(), snap.revision),
        applied: n,
        consistent_index: n,
        conf: cs.clone(),
        ..Backend::default()
    };
    for m in &members {
        backend.members.members.insert(m.id, m.clone());
    }
    backend.snapshot = Some(SavedSnapshot {
        index: n,
        conf: cs,
        members: backend.members.clone(),
    });
    let dir = DataDir {
        storage,
        id: local.id,
        cluster_id,
        backend,
        has_wal: true,
    };
    Ok((dir, members, cluster_id))
}

/// A committed ConfChange entry as etcd's bootstrap and force-new-cluster write them.
fn conf_entry(index: u64, term: u64, ty: ConfChangeType, kind: ChangeKind, m: &Member) -> Entry {
    let mut cc = ConfChange::default();
    cc.set_change_type(ty);
    cc.node_id = m.id;
    let ctx = ChangeCtx {
        req: 0,
        kind,
        member: m.clone(),
    };
    cc.set_context(serde_json::to_vec(&ctx).unwrap_or_default());
    let mut e = Entry::default();
    e.set_entry_type(EntryType::EntryConfChange);
    e.index = index;
    e.term = term;
    e.data = cc
        .write_to_bytes()
        .expect("a proto3 ConfChange has no required field to miss")
        .into();
    e
}

#[allow(clippy::too_many_arguments)]
fn log_new_raft(
    ctx: &mut Ctx,
    id: u64,
    term: u64,
    commit: u64,
    applied: u64,
    last: u64,
    last_term: u64,
    peers: &[u64],
) {
    let peers_hex: Vec<String> = peers.iter().map(|p| format!("{p:x}")).collect();
    ctx.raft_line(
        "INFO",
        &format!(
            "{id:x} switched to configuration {}",
            conf_string(peers, &[])
        ),
    );
    ctx.raft_line("INFO", &format!("{id:x} became follower at term {term}"));
    ctx.raft_line(
        "INFO",
        &format!(
            "newRaft {id:x} [peers: [{}], term: {term}, commit: {commit}, applied: {applied}, lastindex: {last}, lastterm: {last_term}]",
            peers_hex.join(",")
        ),
    );
}

/// What a member joining an existing cluster learns before its raft starts
/// (`getClusterFromRemotePeers`, `ValidateClusterAndAssignIDs`): its own ID
/// and the cluster's members; `Err` when its start fails there.
pub fn join_check(
    cfg: &EtcdConfig,
    remote: &dyn Fn(&str) -> Option<RemoteMembers>,
) -> Result<(u64, Vec<Member>), Fatal> {
    let local_members = initial_members(cfg)?;
    let local = local_member(cfg, &local_members)?.clone();
    let (cluster_id, existing) = fetch_cluster(&local_members, &local, remote)?;
    let id = validate_and_assign(cluster_id, &existing, &local_members, &local)?;
    Ok((id, existing))
}

/// `getClusterFromRemotePeers`: the first other member's peer URL (sorted
/// as strings) that answers gives the cluster ID and members.
fn fetch_cluster(
    local_members: &[Member],
    local: &Member,
    remote: &dyn Fn(&str) -> Option<RemoteMembers>,
) -> Result<RemoteMembers, Fatal> {
    let mut peer_urls: Vec<&String> = local_members
        .iter()
        .filter(|m| m.id != local.id)
        .flat_map(|m| &m.peer_urls)
        .collect();
    peer_urls.sort();
    peer_urls.iter().find_map(|u| remote(u)).ok_or_else(|| {
        Fatal(
            "cannot fetch cluster info from peer urls: could not retrieve cluster information from the given URLs"
                .into(),
        )
    })
}

fn join_existing(
    cfg: &EtcdConfig,
    remote: &dyn Fn(&str) -> Option<RemoteMembers>,
    ctx: &mut Ctx,
) -> Result<Booted, Fatal> {
    let local_members = initial_members(cfg)?;
    let local = local_member(cfg, &local_members)?.clone();
    let (cluster_id, existing) = fetch_cluster(&local_members, &local, remote)?;
    let id = validate_and_assign(cluster_id, &existing, &local_members, &local)?;
    ctx.server(
        'I',
        "etcdserver",
        &format!("starting member {id:x} in cluster {cluster_id:x}"),
    );
    log_new_raft(ctx, id, 0, 0, 0, 0, 0, &[]);
    let dir = DataDir {
        storage: LogStorage::new(),
        id,
        cluster_id,
        backend: Backend::default(),
        has_wal: true,
    };
    let peers = member_peers(existing.iter(), id);
    Ok(Booted {
        dir,
        peers,
        members_at_start: existing.len(),
    })
}

/// `ValidateClusterAndAssignIDs` (3.4.16 and later); returns the local member's ID.
fn validate_and_assign(
    cluster_id: u64,
    existing: &[Member],
    local_members: &[Member],
    local: &Member,
) -> Result<u64, Fatal> {
    let cluster_text = || {
        let ms: Vec<String> = existing
            .iter()
            .map(|m| format!("&{}", m.go_text()))
            .collect();
        format!(
            "{{ClusterID:{cluster_id:x} Members:[{}] RemovedMemberIDs:[]}}",
            ms.join(" ")
        )
    };
    if existing.len() != local_members.len() {
        return Err(Fatal(format!(
            "error validating peerURLs {}: member count is unequal",
            cluster_text()
        )));
    }
    for e in existing {
        if !local_members.iter().any(|l| l.peer_urls == e.peer_urls) {
            return Err(Fatal(format!(
                "error validating peerURLs {}: PeerURLs: no match found for existing member ({:x}, [{}]), last resolver error (resolved urls: \"{}\" != \"{}\")",
                cluster_text(),
                e.id,
                e.peer_urls.join(" "),
                e.peer_urls.first().cloned().unwrap_or_default(),
                local.peer_urls.first().cloned().unwrap_or_default()
            )));
        }
    }
    existing
        .iter()
        .find(|e| e.peer_urls == local.peer_urls)
        .map(|e| e.id)
        .ok_or_else(|| {
            Fatal(format!(
                "error validating peerURLs {}: member count is unequal",
                cluster_text()
            ))
        })
}

fn restart(mut dir: DataDir, ctx: &mut Ctx) -> DataDir {
    recover_from_snapshot(&mut dir, ctx);
    let (hs, last, last_term) = raft_state(&dir.storage);
    ctx.server(
        'I',
        "etcdserver",
        &format!(
            "restarting member {:x} in cluster {:x} at commit index {}",
            dir.id, dir.cluster_id, hs.commit
        ),
    );
    start_raft_from_snapshot(&dir, ctx, hs.term, hs.commit, last, last_term);
    dir
}

/// A restart sees the member table of the last saved snapshot (none without
/// one); raft then replays every committed entry after it, and applying them
/// rebuilds the members, as etcd's v2 store recovery and replay do.
fn recover_from_snapshot(dir: &mut DataDir, ctx: &mut Ctx) {
    let saved = dir.backend.snapshot.clone().unwrap_or_default();
    if saved.index > 0 {
        ctx.server(
            'I',
            "etcdserver",
            &format!("recovered store from snapshot at index {}", saved.index),
        );
    }
    dir.backend.members = saved.members;
    dir.backend.conf = saved.conf.clone();
    dir.backend.applied = saved.index;
    dir.storage.wl().set_conf_state(saved.conf);
}

/// The raft lines of a restart, then the members recovered from the snapshot.
fn start_raft_from_snapshot(
    dir: &DataDir,
    ctx: &mut Ctx,
    term: u64,
    commit: u64,
    last: u64,
    last_term: u64,
) {
    let voters = dir.backend.conf.get_voters().to_vec();
    log_new_raft(
        ctx,
        dir.id,
        term,
        commit,
        dir.backend.applied,
        last,
        last_term,
        &voters,
    );
    for m in dir.backend.members.members.values() {
        ctx.server(
            'I',
            "etcdserver/membership",
            &format!(
                "added member {:x} [{}] to cluster {:x} from store",
                m.id,
                m.peer_urls.join(" "),
                dir.cluster_id
            ),
        );
    }
}

fn raft_state(storage: &LogStorage) -> (HardState, u64, u64) {
    let hs = storage.rl().hard_state().clone();
    let last = storage.rl().last_index();
    let last_term = storage
        .term(last)
        .expect("the last index is an entry's or the snapshot's: its term is kept");
    (hs, last, last_term)
}

/// `restartAsStandaloneNode`: drop uncommitted entries, then append a removal of
/// every other member (and an add of self if missing), force-committed.
fn force_new_cluster(mut dir: DataDir, ctx: &mut Ctx) -> DataDir {
    recover_from_snapshot(&mut dir, ctx);
    let (hs, last, _) = raft_state(&dir.storage);
    let commit = hs.commit;
    let kept = committed_entries(&dir, commit);
    log_discarding(ctx, commit, last);
    let members = member_ids_from_log(&dir, &kept);
    let (extra, index) = config_change_entries(&dir, &members, commit, hs.term);
    {
        // Appending at commit + 1 drops the uncommitted tail, as etcd discards it.
        let mut core = dir.storage.wl();
        if !extra.is_empty() {
            core.append(&extra).expect(
                "commit + 1 lies within the log: compaction never passes the applied index",
            );
        }
        let mut new_hs = hs.clone();
        new_hs.commit = index;
        core.set_hardstate(new_hs);
        core.set_conf_state(dir.backend.conf.clone());
    }
    ctx.server(
        'I',
        "etcdserver",
        &format!(
            "forcing restart of member {:x} in cluster {:x} at commit index {index}",
            dir.id, dir.cluster_id
        ),
    );
    start_raft_from_snapshot(&dir, ctx, hs.term, index, index, hs.term);
    dir
}

/// The log's committed entries (after a snapshot, as `snapshot restore`
/// leaves it, there may be none: first > commit).
fn committed_entries(dir: &DataDir, commit: u64) -> Vec<Entry> {
    let first = dir.storage.rl().first_index();
    if commit < first {
        return Vec::new();
    }
    dir.storage
        .entries(
            first,
            commit + 1,
            u64::MAX,
            raft::GetEntriesContext::empty(false),
        )
        .expect("raft never persists a commit index past the last entry, nor compacts past it")
}

/// etcd's note that the entries after the commit index are dropped.
fn log_discarding(ctx: &mut Ctx, commit: u64, last: u64) {
    if last > commit && ctx.zap {
        let ts = ctx.stamp().zap();
        ctx.log.push(super::zapfmt::discarding(
            &ts,
            commit + 1,
            commit,
            last - commit,
        ));
    } else if last > commit {
        ctx.server(
            'I',
            "etcdserver",
            &format!("discarding {} uncommitted WAL entries ", last - commit),
        );
    }
}

/// etcd's `createConfigChangeEnts`: after the commit index, this member is
/// added (if the log lacks it) and every other member removed. The entries,
/// and the index of the last.
fn config_change_entries(
    dir: &DataDir,
    members: &[u64],
    commit: u64,
    term: u64,
) -> (Vec<Entry>, u64) {
    let mut extra = Vec::new();
    let mut index = commit;
    if !members.contains(&dir.id) {
        // add self first, at etcd's default peer URL
        index += 1;
        let mut me = Member::bare(dir.id);
        me.peer_urls = vec!["http://localhost:2380".into()];
        let ty = ConfChangeType::AddNode;
        extra.push(conf_entry(index, term, ty, ChangeKind::Add, &me));
    }
    for id in members.iter().filter(|&&i| i != dir.id) {
        index += 1;
        let ty = ConfChangeType::RemoveNode;
        extra.push(conf_entry(
            index,
            term,
            ty,
            ChangeKind::Remove,
            &Member::bare(*id),
        ));
    }
    (extra, index)
}

/// `getIDs`: the voters of the WAL's snapshot (learners are left out in 3.4.23),
/// then every conf change in the WAL after it.
fn member_ids_from_log(dir: &DataDir, entries: &[Entry]) -> Vec<u64> {
    let snap_voters = if dir.storage.rl().first_index() > 1 {
        dir.storage
            .initial_state()
            .expect("a LogStorage's initial state is a copy of what it holds")
            .conf_state
            .get_voters()
            .to_vec()
    } else {
        Vec::new()
    };
    let mut ids = snap_voters;
    for e in entries {
        if e.get_entry_type() != EntryType::EntryConfChange {
            continue;
        }
        let mut cc = ConfChange::default();
        if cc.merge_from_bytes(&e.data).is_err() || cc.node_id == 0 {
            continue;
        }
        match cc.get_change_type() {
            ConfChangeType::AddNode | ConfChangeType::AddLearnerNode => ids.push(cc.node_id),
            ConfChangeType::RemoveNode => ids.retain(|&i| i != cc.node_id),
        }
    }
    ids.sort_unstable();
    ids.dedup();
    ids
}
