//! The words a learner of etcd meets on the page (term, commit, applied,
//! match, quorum, voter, learner, leader, follower, candidate, pre-vote, and
//! "started" as etcd means it), each with a short definition in plain words,
//! faithful to etcd 3.4 and raft. The page links a label to its word
//! ([`Word::in_label`] finds it), so a definition is one step away from where
//! the word is read.

named_enum! {
    /// A word of the glossary (in the order the glossary lists them).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Word {
        Term => "term",
        Commit => "commit",
        Applied => "applied",
        Match => "match",
        Quorum => "quorum",
        Voter => "voter",
        Learner => "learner",
        Leader => "leader",
        Follower => "follower",
        Candidate => "candidate",
        PreVote => "pre-vote",
        Started => "started",
    }
    /// The word as the page writes it (also its key in test IDs: `gloss-pre-vote`).
    fn name;
}

impl Word {
    /// One or two plain sentences.
    pub fn definition(self) -> &'static str {
        match self {
            Word::Term => "A numbered round of raft's leadership. Every election starts a higher term, at most one leader wins a term, and a member that sees a higher term than its own steps down to follower.",
            Word::Commit => "The commit index: the last log entry that a quorum of voters has stored. A committed entry is never lost, and a write succeeds once its entry is committed.",
            Word::Applied => "The applied index: the last committed entry this member has carried out on its keys and member list. It follows the commit index a moment behind.",
            Word::Match => "The match index: the last log entry the leader knows a member has stored. etcd 3.4 promotes a learner only once its match is at least 90 % of the leader's.",
            Word::Quorum => "A majority of the voters: voters/2 + 1 (2 of 3, 3 of 4, 3 of 5). Electing a leader and committing an entry both need a quorum, so a cluster tolerates losing the rest.",
            Word::Voter => "A member that votes in elections and counts towards the quorum. `member add` without --learner adds a voter, and the quorum grows at once.",
            Word::Learner => "A member that receives the leader's log but does not vote and does not count towards the quorum. `member promote` makes it a voter once it has caught up.",
            Word::Leader => "The one voter that takes writes in its term: it appends them to its log, sends them to the others and commits them once a quorum has them. Its heartbeats tell the others it is alive.",
            Word::Follower => "A voter that takes log entries and heartbeats from the leader. If it hears nothing for an election timeout (1 s by default) it becomes a candidate.",
            Word::Candidate => "A voter that has started an election in a new term and asks the others for their votes. With votes from a quorum it becomes leader; otherwise it tries again after another timeout.",
            Word::PreVote => "A trial election that does not raise the term: a member first asks whether it could win, so one that was cut off cannot disrupt the leader when it returns. Off by default in etcd 3.4 (--pre-vote).",
            Word::Started => "etcd counts a member as started once it has published its name to the cluster, even if its process has stopped since; one added by `member add` and never run is not started. The page also counts the voters whose etcd runs now.",
        }
    }

    /// The word a label names: the label itself, a plural of it or a word in
    /// it ("learners", "can commit", "commit index"), else `None`. A label
    /// names at most one word of the glossary.
    pub fn in_label(label: &str) -> Option<Word> {
        label
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .find_map(Word::of)
    }

    /// The word, or its plural.
    fn of(token: &str) -> Option<Word> {
        let token = token.to_lowercase();
        Word::ALL
            .into_iter()
            .find(|w| token == w.name() || token.strip_suffix('s') == Some(w.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_a_short_definition() {
        for w in Word::ALL {
            let d = w.definition();
            assert!(!d.is_empty(), "{w:?}");
            let sentences = d.matches(". ").count() + 1;
            assert!(sentences <= 2, "{w:?}: {sentences} sentences: {d}");
            assert!(d.len() <= 260, "{w:?}: {} characters", d.len());
            assert!(d.ends_with('.') || d.ends_with(')'), "{w:?}");
        }
    }

    #[test]
    fn every_word_is_listed_once_with_its_own_name() {
        let mut names: Vec<&str> = Word::ALL.iter().map(|w| w.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Word::ALL.len());
        for w in Word::ALL {
            assert_eq!(Word::in_label(w.name()), Some(w));
        }
    }

    #[test]
    fn the_issues_words_are_all_here() {
        for name in [
            "term",
            "commit",
            "applied",
            "match",
            "quorum",
            "learner",
            "leader",
            "follower",
            "candidate",
            "pre-vote",
            "started",
        ] {
            assert!(Word::in_label(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_label_names_its_word() {
        assert_eq!(Word::in_label("learners"), Some(Word::Learner));
        assert_eq!(Word::in_label("voters"), Some(Word::Voter));
        assert_eq!(Word::in_label("can commit"), Some(Word::Commit));
        assert_eq!(Word::in_label("Term"), Some(Word::Term));
        assert_eq!(Word::in_label("reachable"), None);
        assert_eq!(Word::in_label("tolerates"), None);
        assert_eq!(Word::in_label("leadership"), None);
    }
}
