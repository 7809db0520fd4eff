//! `member list` and `endpoint status`, kept live: the columns and cells etcdctl
//! prints with `-w table` (`shell::etcdctl::member_rows`, `status_row`), read from
//! the world's view without sending a request (so watching never changes the run).
//! Names and URLs come from the flags a person typed: cells are shown through
//! `visible_text`. A column whose header is a glossary word (etcd's "started"
//! status, learner, leader, raft term, commit and applied index) has the
//! word's definition as its title.

use std::rc::Rc;

use yew::prelude::*;

use crate::shell::actions;
use crate::shell::etcdctl::{member_rows, status_row, MEMBER_HEADER, STATUS_HEADER};
use crate::sim::etcd::request::Header;
use crate::sim::glossary::Word;
use crate::sim::view::{visible_text, WorldView};

/// A view compared by its machines alone (what the tables and the map's
/// machines read), so they re-render when a member, a term, an index or a
/// revision changed, not on every frame of the clock.
#[derive(Clone)]
pub struct MachinesOf(pub Rc<WorldView>);

impl PartialEq for MachinesOf {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.machines == other.0.machines
    }
}

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub view: MachinesOf,
}

fn table(testid: &str, caption: &str, header: &[&str], rows: &[Vec<String>]) -> Html {
    html! {
        <table class="etcd-table" data-testid={testid.to_string()}>
            <caption>{ visible_text(caption).into_owned() }</caption>
            <thead><tr>{ for header.iter().map(|h| html! {
                <th scope="col" title={column_word(h).map(|w| format!("{}: {}", w.name(), w.definition()))}>{ h.to_uppercase() }</th>
            }) }</tr></thead>
            <tbody>
                { for rows.iter().map(|r| html! { <tr>{ for r.iter().map(|c| html! { <td>{ visible_text(c).into_owned() }</td> }) }</tr> }) }
                if rows.is_empty() {
                    <tr><td colspan={header.len().to_string()} class="muted">{ "no rows" }</td></tr>
                }
            </tbody>
        </table>
    }
}

/// The glossary word an etcdctl column stands for.
fn column_word(header: &str) -> Option<Word> {
    match header.to_lowercase().as_str() {
        "status" => Some(Word::Started),
        "is learner" => Some(Word::Learner),
        "is leader" => Some(Word::Leader),
        "raft term" => Some(Word::Term),
        "raft index" => Some(Word::Commit),
        "raft applied index" => Some(Word::Applied),
        _ => None,
    }
}

#[function_component(Tables)]
pub fn tables(props: &TablesProps) -> Html {
    let view = &*props.view.0;
    let listed = actions::members(view);
    let members = listed.map(|p| member_rows(&p.members)).unwrap_or_default();
    let source = listed.map_or_else(
        || "member list (no etcd running)".to_string(),
        |p| format!("member list (as {} sees it)", p.name),
    );
    let status: Vec<Vec<String>> = view
        .machines
        .iter()
        .filter_map(|m| {
            let p = m.process.as_ref()?;
            let ep = p
                .members
                .iter()
                .find(|x| x.id == p.id)
                .and_then(|x| x.client_urls.first().cloned())
                .unwrap_or_else(|| format!("http://{}:2379", actions::address(m)));
            let h = Header {
                cluster_id: p.cluster_id,
                member_id: p.id,
                revision: p.revision,
                raft_term: p.term,
            };
            Some(status_row(&ep, &h, &p.status))
        })
        .collect();
    html! {
        <div class="tables">
            { table("member-table", &source, &MEMBER_HEADER, &members) }
            { table("status-table", "endpoint status (every running etcd)", &STATUS_HEADER, &status) }
        </div>
    }
}
