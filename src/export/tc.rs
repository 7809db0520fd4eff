//! `tc` hints for the network's settings: a bash export cannot shape links
//! between machines on one loopback host, so `net delay|loss|rate|clear`
//! become comments with what would do it on real hosts (each machine's
//! interface called `eth0`): `netem` on a `prio` band filtered to the peer's
//! address for a link, `tbf` at the root for a NIC.

use crate::shell::command::{Links, Net};
use crate::shell::{netunits, parse};

/// The comment lines for `n` (none for the other `net` commands); `addr`
/// gives a machine's address as a peer would reach it.
pub fn hints(n: &Net, addr: &dyn Fn(&str) -> String) -> Vec<String> {
    let lines = match n {
        Net::Delay {
            links,
            duration,
            jitter,
        } => {
            let ms = parse::duration_ms(duration, false).unwrap_or(0);
            let jitter = jitter
                .as_deref()
                .and_then(|j| parse::duration_ms(j, false))
                .filter(|j| *j > 0)
                .map_or(String::new(), |j| format!(" {j}ms"));
            netem(links, &format!("delay {ms}ms{jitter}"), addr)
        }
        Net::Loss { links, percent } => {
            let ppm = netunits::loss_ppm(percent).unwrap_or(0);
            netem(links, &format!("loss {}", netunits::loss_text(ppm)), addr)
        }
        Net::Rate {
            machine,
            rate,
            limit,
        } => vec![format!(
            "on {machine}: tc qdisc replace dev eth0 root tbf rate {rate} burst 32kbit limit {}",
            limit.as_deref().unwrap_or("4mb")
        )],
        Net::Clear {
            machine,
            peer: None,
        } => vec![format!("on {machine}: tc qdisc del dev eth0 root")],
        Net::Clear {
            machine,
            peer: Some(peer),
        } => [(machine, peer), (peer, machine)]
            .iter()
            .map(|(a, b)| {
                format!(
                    "on {a}: tc filter del dev eth0 parent 1:0 protocol ip prio 3  # toward {}",
                    addr(b)
                )
            })
            .collect(),
        _ => return Vec::new(),
    };
    let mut out =
        vec!["# the tc equivalent on real hosts (eth0: each one's interface):".to_string()];
    out.extend(lines.into_iter().map(|l| format!("#   {l}")));
    out
}

/// `netem` with `args` on each directed link of `links`.
fn netem(links: &Links, args: &str, addr: &dyn Fn(&str) -> String) -> Vec<String> {
    let (a, b) = links.ends();
    let pairs = match links {
        Links::Both(..) => vec![(a, b), (b, a)],
        Links::One(..) => vec![(a, b)],
    };
    let mut lines = Vec::new();
    for (from, to) in pairs {
        lines.push(format!(
            "on {from}: tc qdisc add dev eth0 root handle 1: prio"
        ));
        lines.push(format!(
            "on {from}: tc qdisc replace dev eth0 parent 1:3 handle 30: netem {args}"
        ));
        lines.push(format!(
            "on {from}: tc filter add dev eth0 parent 1:0 protocol ip prio 3 u32 match ip dst {}/32 flowid 1:3",
            addr(to)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::command::{read, Command};

    fn hints_of(text: &str) -> Vec<String> {
        let Some(Command::Net(n)) = read(text).map(|l| l.command) else {
            panic!("{text}")
        };
        hints(&n, &|m| format!("10.0.0.{}", m.len()))
    }

    #[test]
    fn each_setting_has_its_tc_line() {
        let delay = hints_of("net delay node01->ab 50ms 10ms");
        assert_eq!(delay.len(), 4, "{delay:?}");
        assert!(delay[2].ends_with("netem delay 50ms 10ms"), "{delay:?}");
        assert!(delay[3].contains("match ip dst 10.0.0.2/32"), "{delay:?}");
        assert_eq!(hints_of("net loss a b 0.5%").len(), 7);
        assert!(hints_of("net loss a b 0.5%")[2].ends_with("netem loss 0.5%"));
        assert_eq!(
            hints_of("net rate a 10mbit limit 256kb")[1],
            "#   on a: tc qdisc replace dev eth0 root tbf rate 10mbit burst 32kbit limit 256kb"
        );
        assert_eq!(
            hints_of("net clear a")[1],
            "#   on a: tc qdisc del dev eth0 root"
        );
        assert!(hints_of("net cut a b").is_empty());
    }
}
