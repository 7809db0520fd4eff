//! URLs as etcd's flags and peers give them: `http://host:port[/path]`.

/// `http://host:port/...` → (host, port). Default port 80 for http.
pub fn split_url(url: &str) -> Option<(&str, u16)> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let hostport = rest.split('/').next()?;
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) => (h, p.parse().ok()?),
        None => (hostport, 80),
    };
    if host.is_empty() {
        return None;
    }
    Some((host, port))
}

/// The `host:port` of a URL.
pub fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    rest.split('/').next().unwrap_or("").to_string()
}
