//! The clients room: etcdctl's requests in flight. A request travels from
//! the client's machine to the server listening on the endpoint (gRPC
//! carries its deadline along), a member may forward it to the leader over
//! peer HTTP, and the reply travels back. A call runs whole inside the
//! world's door ([`World::call`]): no request is in flight between two
//! entries.

use std::collections::BTreeMap;

use super::clock::{Event, Rare};
use super::{host_port, split_url, World};
use crate::sim::etcd::request::{Request, Response, ServerError};

/// A client call's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallResult {
    Reply(Response),
    Error(ServerError),
    /// No answer before the client's deadline; `dial` says why a connection failed, if it did.
    Deadline {
        dial: Option<String>,
    },
}

/// A client call in flight.
#[derive(Debug, Clone)]
struct Call {
    from: String,
    deadline_ms: u64,
    dial_error: Option<String>,
    result: Option<CallResult>,
    /// When the result came.
    done_ms: u64,
    /// A joining member's `/downgrade/enabled` (see `processes.rs`): it
    /// lives across the door, and its answer resumes that member's start.
    join: bool,
}

/// The calls in flight: only this room changes them.
pub(super) struct Clients {
    next_req: u64,
    calls: BTreeMap<u64, Call>,
}

impl Clients {
    pub(super) fn new() -> Clients {
        Clients {
            next_req: 1,
            calls: BTreeMap::new(),
        }
    }

    /// The room's promise, checked at the world's door (debug builds): a
    /// client's call runs whole inside the door, so none is in flight
    /// between entries (a joining member's question may be).
    pub(super) fn debug_check(&self) {
        debug_assert!(
            self.calls.values().all(|c| c.join),
            "calls in flight outside the door: {:?}",
            self.calls.keys().collect::<Vec<_>>()
        );
    }
}

impl World {
    /// A whole call: start it and run the clock until it ends.
    pub(super) fn run_call(
        &mut self,
        from: &str,
        endpoint: &str,
        request: Request,
        timeout_ms: u64,
    ) -> CallResult {
        let req = self.start_call(from, endpoint, request, timeout_ms);
        self.finish_call(req)
    }

    /// Calls started together; the clock runs until every one has ended.
    pub(super) fn run_calls(
        &mut self,
        from: &str,
        endpoint: &str,
        requests: Vec<Request>,
        timeout_ms: u64,
    ) -> Vec<(CallResult, u64)> {
        let reqs: Vec<u64> = requests
            .into_iter()
            .map(|r| self.start_call(from, endpoint, r, timeout_ms))
            .collect();
        let deadline = self.now_ms() + timeout_ms;
        self.run_until(deadline, |w| {
            reqs.iter()
                .all(|r| w.clients.calls.get(r).is_none_or(|c| c.result.is_some()))
        });
        reqs.into_iter()
            .map(|req| {
                let done = self.clients.calls.get(&req).map(|c| c.done_ms);
                let result = self.finish_call(req);
                (result, done.filter(|d| *d > 0).unwrap_or(self.now_ms()))
            })
            .collect()
    }

    /// Starts a client call from `from` to a client endpoint (`host:port` or a URL).
    fn start_call(&mut self, from: &str, endpoint: &str, request: Request, timeout_ms: u64) -> u64 {
        let req = self.clients.next_req;
        self.clients.next_req += 1;
        let mut call = Call {
            from: from.to_string(),
            deadline_ms: self.now_ms() + timeout_ms,
            dial_error: None,
            result: None,
            done_ms: 0,
            join: false,
        };
        match self.client_target(from, endpoint) {
            Ok(target) => {
                // a call that could not connect did nothing: it is not history
                self.note_invoke(req, &request);
                if self.link_up(from, &target) {
                    self.send_request(from, target, req, request, false);
                }
            }
            Err(e) => call.dial_error = Some(e),
        }
        self.clients.calls.insert(req, call);
        req
    }

    /// Runs the clock until the call completes or its deadline passes.
    fn finish_call(&mut self, req: u64) -> CallResult {
        let deadline = self
            .clients
            .calls
            .get(&req)
            .map(|c| c.deadline_ms)
            .unwrap_or(self.now_ms());
        self.run_until(deadline, |w| {
            w.clients.calls.get(&req).is_none_or(|c| c.result.is_some())
        });
        let call = self.clients.calls.remove(&req);
        let result = match call {
            Some(Call {
                result: Some(r), ..
            }) => r,
            Some(c) => CallResult::Deadline { dial: c.dial_error },
            None => CallResult::Deadline { dial: None },
        };
        self.note_complete(req, &result);
        result
    }

    /// The machine whose etcd listens on a client endpoint, or the dial error.
    fn client_target(&self, from: &str, endpoint: &str) -> Result<String, String> {
        let url = if endpoint.contains("://") {
            endpoint.to_string()
        } else {
            format!("http://{endpoint}")
        };
        let Some((host, port)) = split_url(&url) else {
            return Err(format!(
                "dial tcp: address {endpoint}: missing port in address"
            ));
        };
        let Some(target) = self.resolve(host, from) else {
            return Err(format!("dial tcp: lookup {host}: no such host"));
        };
        if !self.links_up(from, target) {
            return Ok(target.to_string());
        }
        // a joining 3.5 member's listener is open, but nothing serves it
        // until its raft has started: the connection hangs
        let listening = self
            .machines
            .get(target)
            .and_then(|m| m.process.as_ref())
            .map(|p| &p.server.cfg)
            .or_else(|| self.joining_cfg(target))
            .is_some_and(|cfg| self.listens(target, &cfg.listen_client_urls, from, host, port));
        if !listening {
            return Err(format!(
                "dial tcp {}: connect: connection refused",
                host_port(&url)
            ));
        }
        Ok(target.to_string())
    }

    /// Whether a client on `from` can open a connection to `endpoint` now.
    pub fn can_dial(&self, from: &str, endpoint: &str) -> bool {
        self.client_target(from, endpoint)
            .is_ok_and(|target| self.links_up(from, &target))
    }

    /// A request reaches `machine`'s server; it is handled while its
    /// client still waits (gRPC carries the client's deadline to the server).
    pub(super) fn on_client_arrive(
        &mut self,
        machine: &str,
        req: u64,
        request: Request,
        forwarded: bool,
    ) {
        let deadline = self.clients.calls.get(&req).map(|c| c.deadline_ms);
        if let Some(deadline) = deadline.filter(|d| *d > self.now_ms()) {
            self.with_server(machine, |s, ctx| {
                if forwarded {
                    s.handle_from_peer(ctx, req, request, deadline);
                } else {
                    s.handle(ctx, req, request, deadline);
                }
            });
        }
    }

    /// A joining member on `from` asks `target`'s server for
    /// `/downgrade/enabled` (the caller checked the link is up); the
    /// request's ID. Its answer goes to [`World::join_answered`].
    pub(super) fn start_join_call(&mut self, from: &str, target: &str) -> u64 {
        let req = self.clients.next_req;
        self.clients.next_req += 1;
        let call = Call {
            from: from.to_string(),
            // Go's http.Client has no deadline of its own: the server's
            // ReqTimeout ends the request first (an hour stands for never)
            deadline_ms: self.now_ms() + 3_600_000,
            dial_error: None,
            result: None,
            done_ms: 0,
            join: true,
        };
        self.clients.calls.insert(req, call);
        self.send_request(
            from,
            target.to_string(),
            req,
            Request::DowngradeEnabled,
            false,
        );
        req
    }

    /// A request ID of its own (a question whose dial fails never becomes a call).
    pub(super) fn next_req_id(&mut self) -> u64 {
        let req = self.clients.next_req;
        self.clients.next_req += 1;
        req
    }

    /// A joining member stopped waiting for call `req`.
    pub(super) fn drop_join_call(&mut self, req: u64) {
        self.clients.calls.remove(&req);
    }

    /// A reply reaches its client: the first answer is the call's.
    pub(super) fn on_client_reply(&mut self, req: u64, result: Result<Response, ServerError>) {
        let now = self.now_ms();
        if self.clients.calls.get(&req).is_some_and(|c| c.join) {
            if let Some(c) = self.clients.calls.remove(&req) {
                self.join_answered(&c.from, req, result);
            }
            return;
        }
        if let Some(c) = self.clients.calls.get_mut(&req) {
            if c.result.is_none() {
                c.done_ms = now;
                c.result = Some(match result {
                    Ok(r) => CallResult::Reply(r),
                    Err(e) => CallResult::Error(e),
                });
            }
        }
    }

    /// `machine`'s server answers call `req`: the reply travels back to the
    /// client's machine if a link still leads there.
    pub(super) fn reply_to_client(
        &mut self,
        machine: &str,
        req: u64,
        result: Box<Result<Response, ServerError>>,
    ) {
        let Some(call) = self.clients.calls.get(&req) else {
            return;
        };
        let client = call.from.clone();
        if self.link_up(machine, &client) || machine == client {
            let bytes = super::network::response_bytes(&result);
            // gRPC's stream waits rather than drops; a link losing every
            // try never gets the reply there
            if let Some(lat) = self.transmit(machine, &client, bytes, false) {
                self.schedule(lat, Event::ClientReply { req, result });
            }
        }
    }

    /// `machine`'s server hands call `req` to member `to` (the leader) over
    /// peer HTTP.
    pub(super) fn forward(&mut self, from: &str, to: u64, req: u64, request: Request) {
        let Ok((target, _)) = self.dial(from, to) else {
            return;
        };
        if self.links_up(from, &target) {
            self.send_request(from, target.to_string(), req, request, true);
        }
    }

    /// Call `req`'s request leaves `from` and arrives at `target`'s server
    /// after its NIC's and link's time (the caller checked the link is up).
    fn send_request(
        &mut self,
        from: &str,
        target: String,
        req: u64,
        request: Request,
        forwarded: bool,
    ) {
        let bytes = super::network::request_bytes(&request);
        let Some(lat) = self.transmit(from, &target, bytes, false) else {
            return;
        };
        self.schedule(
            lat,
            Rare::ClientArrive {
                machine: target,
                req,
                request,
                forwarded,
            }
            .into(),
        );
    }
}
