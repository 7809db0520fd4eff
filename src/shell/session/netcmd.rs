//! `net …`: cuts, delays, loss and NIC rates, and `net show`. Every value is
//! checked before anything changes: a bad one gets its error and the
//! network stays as it was.

use super::{usage_error, Session};
use crate::shell::command::{self, Links, Net};
use crate::shell::{netunits, parse, Output};
use crate::sim::world::{Action, LinkSetting, LinkSpec, NicSpec, DEFAULT_LATENCY_MS};

/// A subcommand's usage, as an error (status 2).
fn sub_usage(sub: &str) -> Output {
    let usage = command::shell_spec(&["net", sub]).map_or("", |s| s.usage);
    Output::failure(&format!("usage: {usage}"), 2)
}

/// A value that does not read: `what` it should be, and how it is written.
fn invalid(what: &str, value: &str, hint: &str) -> Output {
    Output::failure(&format!("net: invalid {what} {value:?}{hint}"), 2)
}

impl Session {
    pub(super) fn net(&mut self, n: &Net) -> Output {
        match n {
            Net::Show => Output::text(&self.net_text()),
            Net::Cut(a, b) => self.cut_pair(a, b),
            Net::CutOne(a, b) => self.cut_one(a, b),
            Net::CutUsage => sub_usage("cut"),
            Net::Heal(None) => self.apply(Action::Heal { pair: None }),
            Net::Heal(Some((a, b))) => match self.two_machines(a, b) {
                Ok(p) => self.apply(Action::Heal { pair: Some(p) }),
                Err(o) => o,
            },
            Net::Isolate(a) => self.isolate(a),
            Net::Partition(groups) => self.partition(groups),
            Net::Delay {
                links,
                duration,
                jitter,
            } => self.net_delay(links, duration, jitter.as_deref()),
            Net::Loss { links, percent } => self.net_loss(links, percent),
            Net::Rate {
                machine,
                rate,
                limit,
            } => self.net_rate(machine, rate, limit.as_deref()),
            Net::Clear { machine, peer } => self.net_clear(machine, peer.as_deref()),
            Net::UsageOf(sub) => sub_usage(sub),
            Net::Usage => usage_error("net", 2),
        }
    }

    fn two_machines(&self, a: &str, b: &str) -> Result<(String, String), Output> {
        match (self.machine_name(a), self.machine_name(b)) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            (Err(o), _) | (_, Err(o)) => Err(o),
        }
    }

    /// The directed links `links` names, between two existing, different machines.
    fn directed(&self, links: &Links) -> Result<Vec<(String, String)>, Output> {
        let (a, b) = links.ends();
        let (a, b) = self.two_machines(a, b)?;
        if a == b {
            return Err(Output::failure(
                &format!("net: {a}: a link joins two different machines"),
                2,
            ));
        }
        Ok(match links {
            Links::Both(..) => vec![(a.clone(), b.clone()), (b, a)],
            Links::One(..) => vec![(a, b)],
        })
    }

    /// Sets each link of `links` to `change` of its current settings.
    fn change_links(&mut self, links: &Links, change: impl Fn(LinkSpec) -> LinkSpec) -> Output {
        let pairs = match self.directed(links) {
            Ok(p) => p,
            Err(o) => return o,
        };
        for (from, to) in pairs {
            let spec = change(self.world.link_spec(&from, &to));
            let out = self.apply(Action::SetLink { from, to, spec });
            if out.status != 0 {
                return out;
            }
        }
        Output::default()
    }

    /// `net delay A B DURATION [JITTER]` (`0` puts the default latency back).
    fn net_delay(&mut self, links: &Links, duration: &str, jitter: Option<&str>) -> Output {
        let Some(ms) = parse::duration_ms(duration, false) else {
            return invalid("duration", duration, "");
        };
        let jitter_ms = match jitter.map(|j| (j, parse::duration_ms(j, false))) {
            None => 0,
            Some((_, Some(j))) => j,
            Some((j, None)) => return invalid("jitter", j, " (a duration, as 10ms)"),
        };
        let latency_ms = if ms == 0 { DEFAULT_LATENCY_MS } else { ms };
        self.change_links(links, |spec| LinkSpec {
            latency_ms,
            jitter_ms,
            ..spec
        })
    }

    /// `net loss A B PERCENT`.
    fn net_loss(&mut self, links: &Links, percent: &str) -> Output {
        let Some(loss_ppm) = netunits::loss_ppm(percent) else {
            return invalid(
                "loss",
                percent,
                " (a percentage from 0% to 100%, as 5% or 0.5%)",
            );
        };
        self.change_links(links, |spec| LinkSpec { loss_ppm, ..spec })
    }

    /// `net rate A RATE [limit SIZE]` (no limit: the default queue).
    fn net_rate(&mut self, machine: &str, rate: &str, limit: Option<&str>) -> Output {
        let Some(rate_bps) = netunits::rate_bps(rate) else {
            return invalid("rate", rate, " (as 10mbit, 1gbit, 500kbit)");
        };
        let limit_bytes = match limit.map(|l| (l, netunits::size_bytes(l))) {
            None => NicSpec::default().limit_bytes,
            Some((_, Some(b))) => b,
            Some((l, None)) => return invalid("limit", l, " (a size, as 4mb or 256kb)"),
        };
        let spec = NicSpec {
            rate_bps,
            limit_bytes,
        };
        self.set_nic(machine, spec)
    }

    /// Sets machine `machine`'s NIC.
    fn set_nic(&mut self, machine: &str, spec: NicSpec) -> Output {
        match self.machine_name(machine) {
            Ok(machine) => self.apply(Action::SetNic { machine, spec }),
            Err(o) => o,
        }
    }

    /// `net clear A` (its NIC) or `net clear A B` (both links between them).
    fn net_clear(&mut self, machine: &str, peer: Option<&str>) -> Output {
        let Some(peer) = peer else {
            return self.set_nic(machine, NicSpec::default());
        };
        let links = Links::Both(machine.to_string(), peer.to_string());
        self.change_links(&links, |_| LinkSpec::default())
    }

    /// `net show`: each pair of machines, up or cut, with its links' settings
    /// where they are not the defaults; then each NIC that is not the
    /// default or holds at least a millisecond of queue.
    pub(super) fn net_text(&self) -> String {
        let names: Vec<&String> = self.world.machines().keys().collect();
        let mut s = String::new();
        for (i, a) in names.iter().enumerate() {
            for b in names.iter().skip(i + 1) {
                s.push_str(&format!("{a} <-> {b}: {}", self.pair_text(a, b)));
                s.push('\n');
            }
        }
        for name in names {
            let (spec, queued) = self.world.nic(name);
            // a default NIC's microseconds of queue are noise: shown from 1 ms
            let queued_us = u128::from(queued) * 8_000_000 / u128::from(spec.rate_bps.max(1));
            if spec != NicSpec::default() || queued_us >= 1000 {
                s.push_str(&format!(
                    "nic {name}: rate {}, limit {}, queued {queued} bytes\n",
                    netunits::rate_text(spec.rate_bps),
                    netunits::size_text(spec.limit_bytes)
                ));
            }
        }
        s
    }

    /// One pair's state: cuts, then link settings (once when both ways agree).
    fn pair_text(&self, a: &str, b: &str) -> String {
        let cut = |x: &str, y: &str| self.world.cut().contains(&(x.to_string(), y.to_string()));
        let mut s = match (cut(a, b), cut(b, a)) {
            (false, false) => "up".to_string(),
            (true, true) => "cut".to_string(),
            (true, false) => format!("cut {a}->{b}"),
            (false, true) => format!("cut {b}->{a}"),
        };
        let (ab, ba) = (self.world.link_spec(a, b), self.world.link_spec(b, a));
        if ab == ba {
            if ab != LinkSpec::default() {
                s.push_str(&format!(", {}", spec_text(&ab)));
            }
            return s;
        }
        for (x, y, spec) in [(a, b, ab), (b, a, ba)] {
            if spec != LinkSpec::default() {
                s.push_str(&format!(", {x}->{y} {}", spec_text(&spec)));
            }
        }
        s
    }
}

/// A link's settings as `net show` prints them (`delay 200ms jitter 10ms loss 5%`).
fn spec_text(spec: &LinkSpec) -> String {
    let words = |s: LinkSetting| match s {
        LinkSetting::Delay(ms) => format!("delay {ms}ms"),
        LinkSetting::Jitter(ms) => format!("jitter {ms}ms"),
        LinkSetting::Loss(ppm) => format!("loss {}", netunits::loss_text(ppm)),
    };
    let parts: Vec<String> = spec.settings().into_iter().map(words).collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::complete::{complete, Context};

    fn three() -> Session {
        let mut s = Session::new(1);
        for m in ["a", "b", "c"] {
            assert_eq!(s.run_typed(&format!("machine add {m}")).output.status, 0);
        }
        s
    }

    /// Runs `line`; its output (both streams) and status.
    fn run(s: &mut Session, line: &str) -> (String, i32) {
        let out = s.run_typed(line).output;
        (out.merged(), out.status)
    }

    fn show(s: &mut Session) -> String {
        run(s, "net show").0
    }

    #[test]
    fn delay_sets_both_ways_or_one_with_jitter_and_0_resets() {
        let mut s = three();
        assert_eq!(run(&mut s, "net delay a b 200ms 10ms"), (String::new(), 0));
        assert_eq!(
            show(&mut s),
            "a <-> b: up, delay 200ms jitter 10ms\na <-> c: up\nb <-> c: up\n"
        );
        assert_eq!(run(&mut s, "net delay b->a 50ms").1, 0);
        assert!(
            show(&mut s)
                .starts_with("a <-> b: up, a->b delay 200ms jitter 10ms, b->a delay 50ms\n"),
            "{}",
            show(&mut s)
        );
        assert_eq!(run(&mut s, "net delay A B 0").1, 0, "names ignore case");
        assert_eq!(
            run(&mut s, "net").0,
            "a <-> b: up\na <-> c: up\nb <-> c: up\n"
        );
    }

    #[test]
    fn loss_takes_a_percentage_and_keeps_the_delay() {
        let mut s = three();
        assert_eq!(run(&mut s, "net delay a c 20ms").1, 0);
        assert_eq!(run(&mut s, "net loss a c 5%").1, 0);
        assert_eq!(run(&mut s, "net loss c->b 0.5%").1, 0);
        assert_eq!(
            show(&mut s),
            "a <-> b: up\na <-> c: up, delay 20ms loss 5%\nb <-> c: up, c->b loss 0.5%\n"
        );
        let cut = run(&mut s, "net cut a->c").1;
        assert_eq!(cut, 0);
        assert!(show(&mut s).contains("a <-> c: cut a->c, delay 20ms loss 5%\n"));
    }

    #[test]
    fn rate_sets_a_nic_and_show_prints_its_queue() {
        let mut s = three();
        assert_eq!(run(&mut s, "net rate b 10mbit limit 256kb").1, 0);
        assert_eq!(run(&mut s, "net rate c 1gbit").1, 0);
        let text = show(&mut s);
        assert!(
            text.ends_with(
                "nic b: rate 10mbit, limit 256kb, queued 0 bytes\n\
                 nic c: rate 1gbit, limit 4mb, queued 0 bytes\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn clear_resets_a_nic_or_a_pair() {
        let mut s = three();
        for line in [
            "net rate a 10mbit",
            "net delay a b 5ms 1ms",
            "net loss a c 1%",
        ] {
            assert_eq!(run(&mut s, line).1, 0, "{line}");
        }
        assert_eq!(run(&mut s, "net clear a").1, 0);
        assert!(!show(&mut s).contains("nic a"));
        assert_eq!(run(&mut s, "net clear b a").1, 0);
        assert_eq!(
            show(&mut s),
            "a <-> b: up\na <-> c: up, loss 1%\nb <-> c: up\n"
        );
    }

    #[test]
    fn a_bad_value_or_name_changes_nothing() {
        let mut s = three();
        assert_eq!(run(&mut s, "net delay a b 7ms").1, 0);
        let before = show(&mut s);
        for (line, error) in [
            ("net delay a b soon", "net: invalid duration \"soon\"\n"),
            (
                "net delay a b 5ms x",
                "net: invalid jitter \"x\" (a duration, as 10ms)\n",
            ),
            (
                "net loss a b 120%",
                "net: invalid loss \"120%\" (a percentage from 0% to 100%, as 5% or 0.5%)\n",
            ),
            (
                "net rate a 10",
                "net: invalid rate \"10\" (as 10mbit, 1gbit, 500kbit)\n",
            ),
            (
                "net rate a 1mbit limit 0",
                "net: invalid limit \"0\" (a size, as 4mb or 256kb)\n",
            ),
            ("net loss a ghost 5%", "machine: ghost: no such machine\n"),
            ("net rate ghost 1mbit", "machine: ghost: no such machine\n"),
            ("net clear a ghost", "machine: ghost: no such machine\n"),
            (
                "net delay a a 5ms",
                "net: a: a link joins two different machines\n",
            ),
            (
                "net delay a b",
                "usage: net delay A B DURATION [JITTER] | net delay A->B DURATION [JITTER]\n",
            ),
            (
                "net loss a->b",
                "usage: net loss A B PERCENT | net loss A->B PERCENT\n",
            ),
            (
                "net rate a 1mbit cap 4mb",
                "usage: net rate A RATE [limit SIZE]\n",
            ),
            ("net clear", "usage: net clear A [B]\n"),
        ] {
            let (out, status) = run(&mut s, line);
            assert_eq!(out, error, "{line}");
            assert_ne!(status, 0, "{line}");
            assert_eq!(show(&mut s), before, "{line} changed nothing");
        }
    }

    #[test]
    fn completion_offers_the_table_s_words() {
        let machines = ["a".to_string(), "b".to_string()];
        let ctx = Context {
            machines: &machines,
            member_ids: &[],
            member_names: &[],
            without_etcdutl: &[],
            here: "",
        };
        let c = |line: &str| complete(line, &ctx).candidates;
        assert!(c("net l").contains(&"loss".to_string()));
        assert_eq!(c("net rate a 10mbit li"), ["limit"]);
        assert_eq!(c("net rate a 10mbit limit 4"), ["4mb"]);
        assert_eq!(c("net loss a->"), ["a->b"]);
        assert_eq!(c("net clear a "), ["b"]);
    }
}
